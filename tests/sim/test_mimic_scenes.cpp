// Mimic joints enforced in the step (dynamics/mimic.hpp): a gripper whose right finger mimics its left
// (q_r = −q_l) closes on a free box under every contact model; the fingers stay symmetric at every step,
// the closing motion before contact follows the reduced inertia, and at rest each finger presses on the
// box with half the leader's effort. The corpus's edge-cases/mimic_continuous keeps its three couplings
// while it turns (skipped without ../shared).
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/energy.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/scene/scene_loader.hpp"
#include "shared_corpus.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

const std::string kContactModels[] = {"stewart_trinkle", "no_slip", "viscous", "max_dissipation", "ecp"};

/// q_m = g·q_l + o after n steps of q⁺ = q + dt·v⁺ with v_m = g·v_l exact: the two sides round apart by
/// a few ulps of |q| per step; 1e-12 m (or rad) covers 10⁴ steps of |q| ≤ 1.
constexpr double kCouplingTolerance = 1e-12;

/// Palm fixed; fingers 0.1 m cubes of 1 kg (left, the leader) and 3 kg (right, q_r = −q_l) on prismatic
/// joints along x, their inner faces at x = ∓0.10 at q = 0 and closing as q_l grows. Unequal masses
/// make the reduced inertia m_l + g²m_r = 4 kg differ from either finger's.
constexpr double kLeftMass = 1, kRightMass = 3;
const char* kGripperUrdf = R"(<?xml version="1.0"?>
<robot name="mimic_gripper">
  <link name="palm">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="finger_left">
    <inertial><mass value="1"/><inertia ixx="0.0016667" iyy="0.0016667" izz="0.0016667" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
  <link name="finger_right">
    <inertial><mass value="3"/><inertia ixx="0.005" iyy="0.005" izz="0.005" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
  <joint name="left" type="prismatic">
    <parent link="palm"/><child link="finger_left"/>
    <origin xyz="-0.15 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-0.1" upper="0.1" effort="1000" velocity="10"/>
  </joint>
  <joint name="right" type="prismatic">
    <parent link="palm"/><child link="finger_right"/>
    <origin xyz="0.15 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-0.1" upper="0.1" effort="1000" velocity="10"/>
    <mimic joint="left" multiplier="-1"/>
  </joint>
</robot>
)";

/// The gripper with an effort F on its leader, gravity off (the squeeze alone), and optionally a 0.1 m
/// box of 0.5 kg between the fingers, 3 cm off centre towards the right finger, which touches it first.
std::string gripper_scene(double effort, bool with_box) {
  std::string scene = R"(<scene name="mimic_grasp">
  <physics dt="0.001" gravity="0 0 0" mu="0.5"/>
  <model name="g" urdf="gripper.urdf" base="fixed"><actuator joint="left" effort=")" +
                      std::to_string(effort) + R"("/></model>
)";
  if (with_box)
    scene += R"(  <body name="box" mass="0.5"><origin xyz="0.03 0 0"/>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></body>
)";
  return scene + "</scene>\n";
}

struct Gripper {
  test::TempDir dir{"mimic_gripper"};
  World world;
  int q_left = 0, q_right = 0;
  explicit Gripper(const std::string& scene) {
    dir.write("gripper.urdf", kGripperUrdf);
    world = load_scene(dir.write("scene.xml", scene));
    const MultibodyModel& mb = world.model.multibody;
    q_left = mb.links[mb.find_link("g/finger_left")].joint.q_index;
    q_right = mb.links[mb.find_link("g/finger_right")].joint.q_index;
  }
};

TEST(MimicGripper, ClosesWithTheReducedInertiaOfBothFingers) {
  // No contact: u̇ = F/(m_l + g²m_r) on the leader (dynamics/mimic.hpp (2)), and semi-implicit Euler from
  // rest gives v_k = k·a·dt, q_k = a·dt²·k(k+1)/2 exactly (up to round-off).
  const double F = 2.0, a = F / (kLeftMass + kRightMass);
  const Gripper gripper(gripper_scene(F, false));
  Stepper stepper(gripper.world.model, "stewart_trinkle", 1e-3);
  State state = gripper.world.initial;
  const int steps = 200;
  for (int k = 0; k < steps; ++k) stepper.step(state);
  const double expected = a * 1e-6 * steps * (steps + 1) / 2;
  EXPECT_NEAR(state.q[gripper.q_left], expected, kCouplingTolerance);
  EXPECT_NEAR(state.q[gripper.q_right], -expected, kCouplingTolerance);
}

class MimicGripperSqueeze : public ::testing::TestWithParam<std::string> {};

TEST_P(MimicGripperSqueeze, FingersStaySymmetricAndEachPressesWithHalfTheEffort) {
  const double F = 10.0, dt = 1e-3;
  const Gripper gripper(gripper_scene(F, true));
  Stepper stepper(gripper.world.model, GetParam(), dt);
  State state = gripper.world.initial;
  const MultibodyModel& mb = gripper.world.model.multibody;
  const int box = mb.find_link("box"), left = mb.find_link("g/finger_left"), right = mb.find_link("g/finger_right");
  double worst_asymmetry = 0;
  bool right_touched_first = false, touched = false;
  for (int k = 0; k < 1000; ++k) {
    stepper.step(state);
    worst_asymmetry = std::max(worst_asymmetry, std::abs(state.q[gripper.q_left] + state.q[gripper.q_right]));
    const StepData& data = stepper.data();
    for (std::size_t c = 0; c < data.contacts.size() && !touched; ++c)
      if (data.impulse[c][0] > 0) {
        touched = true;
        right_touched_first = data.contacts[c].link_a == right || data.contacts[c].link_b == right;
      }
  }
  EXPECT_LE(worst_asymmetry, kCouplingTolerance);
  EXPECT_TRUE(right_touched_first) << "the box starts nearer the right finger";

  // At rest the box is held between the fingers: its velocity is gone, it sits in the middle (the
  // fingers are symmetric and both touch it), and the leader's effort F splits evenly: the box's
  // balance needs f_l = f_r, the leader's F = f_l + |g| f_r (2).
  const StepData& data = stepper.data();
  double p_left = 0, p_right = 0;
  for (std::size_t c = 0; c < data.contacts.size(); ++c) {
    const ContactPoint& cp = data.contacts[c];
    if (cp.link_a == left || cp.link_b == left) p_left += data.impulse[c][0];
    if (cp.link_a == right || cp.link_b == right) p_right += data.impulse[c][0];
  }
  const Eigen::Vector3d box_position = state.q.segment<3>(mb.links[box].joint.q_index);
  const Eigen::Vector3d box_velocity = state.v.segment<3>(mb.links[box].joint.v_index);
  // After 1 s the closing motion (~10 cm/s at contact) has been stopped by inelastic contact; what is
  // left is the solvers' tolerance, far below 1 mm/s.
  constexpr double kRestSpeed = 1e-3;
  // Each contact's gap is closed to the speculative margin's stabilisation (N·v⁺ ≥ −φ/dt) at rest:
  // well below 0.1 mm; the box's centre is off by half the difference of the two gaps.
  constexpr double kCentring = 1e-4;
  // Impulse balance at rest: the solvers' relative tolerances are ≤ 1e-6; 1 % leaves room for the
  // friction models' tangential rows, which share the same contacts.
  constexpr double kForceTolerance = 1e-2;
  EXPECT_LT(box_velocity.norm(), kRestSpeed);
  EXPECT_LT(std::abs(box_position.x()), kCentring);
  EXPECT_NEAR(p_left / dt, F / 2, kForceTolerance * F);
  EXPECT_NEAR(p_right / dt, F / 2, kForceTolerance * F);
}

INSTANTIATE_TEST_SUITE_P(EveryContactModel, MimicGripperSqueeze, ::testing::ValuesIn(kContactModels));

TEST(MimicScene, ASceneMaySetOnlyTheLeader) {
  test::TempDir dir("mimic_scene");
  dir.write("gripper.urdf", kGripperUrdf);
  const std::string scene = R"(<scene name="s">
  <model name="g" urdf="gripper.urdf" base="fixed">
    <joint name="right" position="0.01"/>
  </model>
</scene>)";
  try {
    load_scene(dir.write("scene.xml", scene));
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), test::line_of(scene, "<joint name=\"right\""));
    EXPECT_NE(e.message().find("mimics joint 'left'"), std::string::npos) << e.what();
  }
}

// --- the corpus's edge case -------------------------------------------------------------------------------

const std::string kMimicContinuous = corpus::corpus_dir() + "/edge-cases/mimic_continuous";

class MimicContinuous : public ::testing::TestWithParam<std::string> {};

TEST_P(MimicContinuous, KeepsItsThreeCouplingsWhileTheSpinJointIsDriven) {
  SKIP_WITHOUT_URDF_CORPUS();
  // Fixed base, gravity on, the spin joint driven by 0.2 N·m: the palm turns, its fingers slide out
  // against finger_left's damping, friction and limits, and the followers turn with the spin joint.
  test::TempDir dir("mimic_continuous");
  const World world = load_scene(dir.write("scene.xml", R"(<scene name="mimic_continuous">
  <physics dt="0.001"/>
  <model name="m" urdf=")" + kMimicContinuous + R"(/mimic_continuous.urdf" base="fixed">
    <joint name="finger_left_joint" position="0.02"/>
    <actuator joint="spin_joint" effort="0.2"/>
  </model>
</scene>)"));
  const MultibodyModel& mb = world.model.multibody;
  const auto joint_q_of = [&](const char* joint) {
    for (const Link& link : mb.links)
      if (link.joint.name == std::string("m/") + joint) return link.joint.q_index;
    return -1;
  };
  const int spin = joint_q_of("spin_joint"), follower = joint_q_of("follower_joint"),
            default_mimic = joint_q_of("default_mimic_joint"), left = joint_q_of("finger_left_joint"),
            right = joint_q_of("finger_right_joint");
  ASSERT_GE(std::min({spin, follower, default_mimic, left, right}), 0);
  Stepper stepper(world.model, GetParam(), world.model.physics.dt);
  State state = world.initial;
  double worst = 0;
  for (int k = 0; k < 1000; ++k) {
    stepper.step(state);
    ASSERT_TRUE(state.q.allFinite() && state.v.allFinite()) << "step " << k;
    worst = std::max({worst, std::abs(state.q[follower] - (2 * state.q[spin] + 0.5)),
                      std::abs(state.q[default_mimic] - state.q[spin]),
                      std::abs(state.q[right] - (-state.q[left] + 0.01))});
  }
  EXPECT_LE(worst, kCouplingTolerance);
  // The torque turned the palm (a·t²/2 with the reduced inertia ≤ 0.02 kg·m²: well over 1 rad in 1 s).
  EXPECT_GT(state.q[spin], 1.0);
}

INSTANTIATE_TEST_SUITE_P(EveryContactModel, MimicContinuous, ::testing::ValuesIn(kContactModels));

}  // namespace
}  // namespace impetus
