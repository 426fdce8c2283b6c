// <load> and <actuator> scene elements: what the loader builds, and motion that follows from them.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

const std::string kSceneFile = std::string(IMPETUS_SOURCE_DIR) + "/scenes/actuation_test.xml";  // never written

TEST(SceneLoads, ReadAsWrittenAndTimed) {
  const World world = load_scene_string(R"(<scene name="s">
  <body name="b" mass="2"><collision><geometry><box size="1 1 1"/></geometry></collision></body>
  <load body="b" force="1 2 3" torque="0 0 4" force_amplitude="5 0 0" frequency="2" phase="0.5" start="0.25" end="1.5"/>
</scene>)",
                                        kSceneFile);
  ASSERT_EQ(world.model.loads.size(), 1u);
  const ExternalLoad& load = world.model.loads[0];
  EXPECT_EQ(load.link, world.model.multibody.find_link("b"));
  EXPECT_EQ(load.force.constant, Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(load.torque.constant, Eigen::Vector3d(0, 0, 4));
  EXPECT_EQ(load.force.amplitude, Eigen::Vector3d(5, 0, 0));
  EXPECT_EQ(load.force.frequency, 2.0);
  EXPECT_EQ(load.force.phase, Eigen::Vector3d::Constant(0.5));
  EXPECT_EQ(load.start, 0.25);
  EXPECT_EQ(load.end, 1.5);
}

TEST(SceneLoads, ALoadEqualToTheWeightHoldsABodyInTheAirAndThenLetsItFall) {
  // f = m g upwards for t < 0.5 s: the body hovers (v stays 0); after it ends, free fall from rest:
  // z(t) = z₀ − ½ g (t − 0.5)², exact for the semi-implicit Euler step up to ½ g dt (t − 0.5).
  const double m = 2, g = 9.81, dt = 1e-3;
  const World world = load_scene_string(R"(<scene name="s">
  <physics dt="0.001" gravity="0 0 -9.81"/>
  <body name="b" mass="2"><origin xyz="0 0 10"/><collision><geometry><sphere radius="0.1"/></geometry></collision></body>
  <load body="b" force="0 0 19.62" end="0.5"/>
</scene>)",
                                        kSceneFile);
  ASSERT_NEAR(world.model.loads[0].force.constant.z(), m * g, 1e-12);
  Stepper stepper(world.model, "stewart_trinkle", dt);
  State state = world.initial;
  const int iz = world.model.multibody.links[0].joint.q_index + 2;
  for (int k = 0; k < 500; ++k) stepper.step(state);
  EXPECT_NEAR(state.q[iz], 10.0, 1e-12);
  for (int k = 0; k < 500; ++k) stepper.step(state);
  const double fall = 0.5 * g * 0.5 * 0.5;
  EXPECT_NEAR(10.0 - state.q[iz], fall, 0.5 * g * dt * 0.5 + 1e-9);
}

TEST(SceneActuators, AnEffortDrivesAPrismaticJointAtFOverM) {
  // grasp_gripper.urdf's fingers are 1 kg on horizontal prismatic joints: a constant effort F moves
  // one by ½ (F/m) t² (no gravity component along x, no contact before the fingers meet).
  const World world = load_scene_string(R"(<scene name="s">
  <physics dt="0.001" gravity="0 0 -9.81"/>
  <model name="g" urdf="grasp_gripper.urdf" base="fixed">
    <actuator joint="left" effort="2"/>
    <actuator joint="right" kp="50" kd="1" target="-0.05"/>
  </model>
</scene>)",
                                        kSceneFile);
  const MultibodyModel& mb = world.model.multibody;
  ASSERT_EQ(world.model.actuators.size(), 2u);
  EXPECT_EQ(world.model.actuators[0].link, mb.find_link("g/finger_left"));
  EXPECT_EQ(world.model.actuators[1].link, mb.find_link("g/finger_right"));
  EXPECT_EQ(world.model.actuators[1].kp, 50.0);
  Stepper stepper(world.model, "stewart_trinkle", 1e-3);
  State state = world.initial;
  for (int k = 0; k < 100; ++k) stepper.step(state);
  const int left = mb.links[mb.find_link("g/finger_left")].joint.q_index;
  const int right = mb.links[mb.find_link("g/finger_right")].joint.q_index;
  const double t = 0.1, a = 2.0 / 1.0;
  EXPECT_NEAR(state.q[left], 0.5 * a * t * t, a * 1e-3 * t);   // semi-implicit Euler: O(a dt t)
  // The PD joint moves towards its target and not past it in 0.1 s (ω = √50 ≈ 7 rad/s: a quarter
  // period is 0.22 s).
  EXPECT_LT(state.q[right], 0.0);
  EXPECT_GT(state.q[right], -0.05);
}

}  // namespace
}  // namespace impetus
