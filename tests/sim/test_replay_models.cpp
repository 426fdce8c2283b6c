// The robots of the benchmark replays (models/README.md): LINKS, seed 004's quadruped, and arm7_hand, its
// manipulator, with the grasped box. They load; their masses and DoF are the papers'; LINKS stands on rigid
// ground under joint PD control and the ground carries its weight, 47.088 N (seed 004 §7.1).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "dynamics/kinematics.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

const std::string kSceneFile = std::string(IMPETUS_SOURCE_DIR) + "/scenes/replay_models_test.xml";   // never written
const std::string kLinks = std::string(IMPETUS_SOURCE_DIR) + "/models/links/links.urdf";
const std::string kArm = std::string(IMPETUS_SOURCE_DIR) + "/models/arm7_hand/arm7_hand.urdf";
const std::string kBox = std::string(IMPETUS_SOURCE_DIR) + "/models/arm7_hand/box.urdf";
constexpr double kG = 9.81;
constexpr double kLinksMass = 4.8;          // kg, seed 004 §7.1: 47.0882 N / 9.81
constexpr double kFootRadius = 0.01;        // m
// Masses are sums of the URDF's printed values (7 significant digits for the box): 1e-9 relative is far
// above the rounding of a sum of a few terms and far below any missing or extra link (≥ 0.1 kg).
constexpr double kMassRelative = 1e-9;
// The box's mass is printed to 7 significant digits: 1e-6 relative covers that rounding.
constexpr double kPrintedRelative = 1e-6;
// Once settled Σ f_N − m g = m a_z, a_z the vertical acceleration of the centre of mass: 1 % of m g lets the
// PD stance bob by 0.1 m/s² and catches a body still landing or bouncing.
constexpr double kWeightRelative = 0.01;

double total_mass(const MultibodyModel& model, int tree) {
  double m = 0;
  for (const Link& link : model.links)
    if (link.tree == tree) m += link.inertia.mass;
  return m;
}

/// init.xml's standing pose (notes 004 §5.3), per leg X_1, Y_2, Y_3.
std::string links_joints() {
  std::string joints;
  const std::pair<const char*, double> sign[] = {{"LF", 1}, {"RF", -1}, {"LH", -1}, {"RH", 1}};
  for (const auto& [leg, s] : sign)
    joints += "<joint name=\"" + std::string(leg) + "_X_1\" position=\"" + std::to_string(0.1 * s) + "\"/><joint name=\"" +
              leg + "_Y_2\" position=\"" + std::to_string(0.8 * s) + "\"/><joint name=\"" + leg + "_Y_3\" position=\"" +
              std::to_string(1.2 * s) + "\"/>";
  return joints;
}

std::string links_scene(double z, const std::string& controller) {
  return R"(<scene name="links"><physics dt="0.001" contact_model="stewart_trinkle" mu="1"/><ground/>
  <model name="links" urdf=")" + kLinks + R"(" base="floating" check_triangle_inequality="false">
    <origin xyz="0 0 )" + std::to_string(z) + R"("/>)" + links_joints() + controller + R"(</model></scene>)";
}

/// The height of the lowest foot sphere's bottom above the ground, at the scene's initial state.
double lowest_foot_clearance(const World& world) {
  const MultibodyModel& model = world.model.multibody;
  MultibodyData data(model);
  forward_kinematics(model, data, world.initial.q, world.initial.v);
  double lowest = INFINITY;
  for (const char* leg : {"LF", "RF", "LH", "RH"}) {
    const int foot = model.find_link(std::string("links/") + leg + "_FOOT");
    const double sign = leg[1] == 'F' ? 1.0 : -1.0;   // the sphere sits 0.1 m along ±x of the FOOT frame
    lowest = std::min(lowest, (data.X_WL[foot] * Eigen::Vector3d(0.1 * sign, 0, 0)).z() - kFootRadius);
  }
  return lowest;
}

TEST(ReplayModels, LinksLoadsWithThePapersMassAndJoints) {
  const World world = load_scene_string(links_scene(0.3, ""), kSceneFile);
  const MultibodyModel& model = world.model.multibody;
  ASSERT_EQ(model.trees.size(), 1u);
  EXPECT_NEAR(total_mass(model, 0), kLinksMass, kMassRelative * kLinksMass);
  EXPECT_NEAR(total_mass(model, 0) * kG, 47.088, kMassRelative * 47.088);
  EXPECT_EQ(model.trees[0].nv, 6 + 12);   // floating base, three revolute joints per leg
  // Effort limits of init.xml: 7.3 N·m on the hind hips, 2.6 N·m on every other joint.
  for (const Link& link : model.links) {
    if (link.joint.type != JointType::Revolute) continue;
    const bool hind_hip = link.joint.name == "links/LH_Y_2" || link.joint.name == "links/RH_Y_2";
    EXPECT_EQ(link.joint.effort, hind_hip ? 7.3 : 2.6) << link.joint.name;
  }
}

TEST(ReplayModels, LinksStandsSixteenCentimetresTall) {
  // At init.xml's pose the hind feet are lowest (their hips sit 1.5 mm lower); the body's origin then
  // stands 0.0065 + 0.077 sin 0.8 + 0.1 sin 2.0 m above the hind feet's centres, times cos 0.1 for the
  // abduction, plus the foot radius: 0.1618 m, the planner height 0.161853 of notes 004 §5.3 to 0.1 mm.
  constexpr double kZ = 0.3;
  const World world = load_scene_string(links_scene(kZ, ""), kSceneFile);
  const double height = kZ - lowest_foot_clearance(world);
  const double expected = (0.0065 + 0.077 * std::sin(0.8) + 0.1 * std::sin(2.0)) * std::cos(0.1) + kFootRadius;
  constexpr double kGeometry = 1e-12;   // the same sums in another order
  EXPECT_NEAR(height, expected, kGeometry);
  constexpr double kPlannerHeight = 0.161853, kPlannerTolerance = 1e-4;   // the planner's own rounding of it
  EXPECT_NEAR(height, kPlannerHeight, kPlannerTolerance);
}

TEST(ReplayModels, LinksStandsUnderPdAndTheGroundCarriesItsWeight) {
  // Dropped from 1 mm above the ground at init.xml's pose, joints held by PD (kp = 20 N·m/rad: the
  // ~0.5 N·m a knee carries bends it by ~25 mrad; kd = 0.2 N·m·s/rad damps the shank's ~3e-4 kg·m² within
  // the step's explicit-feedback bound kd·dt/I < 2). Once settled the body is at rest, so the ground's
  // normal impulses per step must carry m g dt: Σ f_N = m g (Newton's second law on the whole robot).
  constexpr double kDrop = 0.001;   // m
  const std::string pd = R"(<controller type="pid" kp="20" kd="0.2"/>)";
  const World probe = load_scene_string(links_scene(0.3, pd), kSceneFile);
  const World world = load_scene_string(links_scene(0.3 - lowest_foot_clearance(probe) + kDrop, pd), kSceneFile);
  Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  State state = world.initial;
  const double dt = world.model.physics.dt;
  constexpr double kSettle = 1.0, kHold = 0.5;   // s
  for (int k = 0; k < std::lround(kSettle / dt); ++k) stepper.step(state);
  double worst = 0, min_height = INFINITY, max_height = -INFINITY;
  for (int k = 0; k < std::lround(kHold / dt); ++k) {
    stepper.step(state);
    double p_N = 0;
    for (const Eigen::Vector3d& p : stepper.data().impulse) p_N += p[0];
    worst = std::max(worst, std::abs(p_N / dt - kLinksMass * kG) / (kLinksMass * kG));
    min_height = std::min(min_height, state.q[2]);
    max_height = std::max(max_height, state.q[2]);
  }
  EXPECT_LT(worst, kWeightRelative);
  // Standing, not fallen or sunk: the body stays within 2 cm of its standing height (the PD's sag).
  constexpr double kSag = 0.02;   // m
  EXPECT_GT(min_height, 0.16 - kSag);
  EXPECT_LT(max_height - min_height, 1e-3) << "still moving";
}

TEST(ReplayModels, Arm7HandHasElevenActuatedJoints) {
  const World world = load_scene_string(
      R"(<scene name="arm"><physics dt="0.001"/><model name="arm" urdf=")" + kArm + R"(" base="fixed"/></scene>)",
      kSceneFile);
  const MultibodyModel& model = world.model.multibody;
  EXPECT_EQ(model.nv, 7 + 4);
  // The arm's axes, from the base: x, y, z, x, y, z, x (notes 004 §5.3).
  const char* names[] = {"X_1", "Y_2", "Z_3", "X_4", "Y_5", "Z_6", "X_7"};
  const Eigen::Vector3d axes[] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
  for (int j = 0; j < 7; ++j) {
    bool found = false;
    for (const Link& link : model.links)
      if (link.joint.name == std::string("arm/") + names[j]) {
        found = true;
        EXPECT_EQ(link.joint.axis, axes[j % 3]) << names[j];
      }
    EXPECT_TRUE(found) << names[j];
  }
  // 1 kg base, seven 0.1 kg links, a 0.1 kg hand, four 0.1 kg fingers.
  EXPECT_NEAR(total_mass(model, 0), 2.2, kMassRelative * 2.2);
}

TEST(ReplayModels, GraspedBoxIsSixThousandKilogramsPerCubicMetreAndFitsBetweenTheTips) {
  const World world = load_scene_string(
      R"(<scene name="box"><physics dt="0.001"/><model name="box" urdf=")" + kBox + R"(" base="floating"/></scene>)",
      kSceneFile);
  const double a = 0.02, b = 0.06;
  const double c = 2 * (0.05 * std::sin(std::numbers::pi / 4) - 0.01);   // the tips' gap at π/4
  EXPECT_NEAR(total_mass(world.model.multibody, 0), 6000 * a * b * c, kPrintedRelative * 6000 * a * b * c);
  const Geometry& box = world.model.geometries.at(0);
  EXPECT_NEAR(std::get<Box>(box.shape).size.z(), c, kPrintedRelative * c);
}

}  // namespace
}  // namespace impetus
