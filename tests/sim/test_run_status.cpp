// Self-collision by request keeps a gripper's fingers apart, and a run's status tells the truth: a
// scene built to blow up ends "diverged" within a bounded number of steps with its record kept, and
// the divergence bounds (sim/divergence.hpp) are checked on their own.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/divergence.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

// A parallel gripper: a palm welded to the world and two fingers on prismatic joints along x, 8 cm
// apart (faces 6 cm apart), each pushed towards the other by a constant 20 N.
const std::string kGripper = R"(<robot name="gripper">
  <link name="palm"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0 0 -0.02"/><geometry><box size="0.2 0.04 0.02"/></geometry></collision></link>
  <link name="left"><inertial><mass value="0.1"/><inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
    <collision><origin xyz="0 0 0.03"/><geometry><box size="0.02 0.03 0.06"/></geometry></collision></link>
  <link name="right"><inertial><mass value="0.1"/><inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
    <collision><origin xyz="0 0 0.03"/><geometry><box size="0.02 0.03 0.06"/></geometry></collision></link>
  <joint name="close_left" type="prismatic"><parent link="palm"/><child link="left"/><origin xyz="-0.04 0 0"/>
    <axis xyz="1 0 0"/><limit lower="-0.01" upper="0.08" effort="50" velocity="1"/></joint>
  <joint name="close_right" type="prismatic"><parent link="palm"/><child link="right"/><origin xyz="0.04 0 0"/>
    <axis xyz="-1 0 0"/><limit lower="-0.01" upper="0.08" effort="50" velocity="1"/></joint>
</robot>
)";

std::string gripper_scene(const std::string& self_collision) {
  return R"(<scene name="gripper">
  <physics dt="0.001" duration="0.5"/>
  <model name="g" urdf="gripper.urdf" base="fixed" self_collision=")" +
         self_collision + R"(">
    <origin xyz="0 0 0.5"/>
    <actuator joint="close_left" effort="20"/>
    <actuator joint="close_right" effort="20"/>
  </model>
</scene>
)";
}

/// The fingers' closing travel after 0.5 s of squeezing (each joint's q; they touch at 0.03).
double closing_after(const std::string& self_collision, const std::string& model) {
  test::TempDir dir("gripper");
  dir.write("gripper.urdf", kGripper);
  const World world = load_scene(dir.write("gripper.xml", gripper_scene(self_collision)));
  Stepper stepper(world.model, model, world.model.physics.dt);
  State state = world.initial;
  for (int k = 0; k < 500; ++k) stepper.step(state);
  const MultibodyModel& mb = world.model.multibody;
  return state.q[mb.links[mb.find_link("g/left")].joint.q_index] + state.q[mb.links[mb.find_link("g/right")].joint.q_index];
}

// The faces meet when the two joints have closed 6 cm between them.
constexpr double kTouchingClosure = 0.06;
// The contact stage's penetration at rest under 20 N (a few µm, within the speculative margin);
// 1 mm is the bound of every robot test.
constexpr double kPenetrationBound = 1e-3;

TEST(SelfCollision, OnByRequestAGripperClosingOnItselfDoesNotPassThrough) {
  for (const char* model : {"stewart_trinkle", "no_slip", "max_dissipation"}) {
    const double closure = closing_after("on", model);
    EXPECT_GT(closure, kTouchingClosure - kPenetrationBound) << model;   // closed onto each other …
    EXPECT_LT(closure, kTouchingClosure + kPenetrationBound) << model;   // … and no further
  }
  // Off (the default), the fingers pass through each other to their limits.
  EXPECT_GT(closing_after("off", "stewart_trinkle"), kTouchingClosure + 0.05);
}

// A box thrown at 1e5 m/s: it would cross the scene a hundred times in one step, which
// the run must call diverged, with the steps until then recorded. (An overlap no longer blows a run up:
// the penetration recovery of sim/penetration_recovery.hpp separates bodies without a velocity.)
constexpr long kDivergenceStepBound = 100;

TEST(RunStatus, AbsurdVelocityDivergesWithinBoundedStepsAndKeepsTheRecord) {
  test::TempDir dir("blowup");
  const World world = load_scene(dir.write("thrown.xml", R"(<scene name="blowup">
  <physics dt="0.001" duration="1"/>
  <body name="box" mass="1"><origin xyz="0 0 0.5"/><velocity linear="1e5 0 0" angular="0 0 0"/>
    <collision><geometry><box size="1 1 1"/></geometry></collision></body>
</scene>
)"));
  RunOptions options;
  options.out_dir = dir.path() + "/run";
  options.record_dt = 0;
  const RunReport report = run_simulation(world, options);
  EXPECT_EQ(report.status, "diverged");
  EXPECT_FALSE(report.status_detail.empty());
  EXPECT_GT(report.totals.steps, 0);
  EXPECT_LE(report.totals.steps, kDivergenceStepBound);
  // Every step up to the one that diverged is in the files, and the summary says why.
  std::ifstream trajectory(options.out_dir + "/trajectory.csv");
  long rows = -1;   // the header
  for (std::string line; std::getline(trajectory, line);) ++rows;
  EXPECT_EQ(rows, report.totals.steps + 1);   // the initial state and each step
  std::ifstream summary_file(options.out_dir + "/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["status"], "diverged");
  EXPECT_EQ(summary["status_detail"], report.status_detail);
}

// The bounds one by one on a single free box (L = √3 m, M = 1 kg, at rest: E_s = g·L + L²/2).
struct OneBox {
  test::TempDir dir{"bounds"};
  World world = load_scene(dir.write("box.xml", R"(<scene name="box">
  <physics dt="0.001"/>
  <body name="box" mass="1"><origin xyz="0 0 5"/>
    <collision><geometry><box size="1 1 1"/></geometry></collision></body>
</scene>
)"));
  StepData step{world.model};
  DivergenceMonitor monitor{world.model, world.initial, 1e-3};
};

TEST(RunStatus, DivergenceBoundsFollowTheSceneSizeAndTimeStep) {
  OneBox s;
  const double L = std::sqrt(3.0), E_s = 9.81 * L + 0.5 * L * L;
  EXPECT_NEAR(s.monitor.scene_size(), L, 1e-12);
  EXPECT_NEAR(s.monitor.energy_scale(), E_s, 1e-9);
  // Energy: sane just below 100·E_s of kinetic energy gained from nowhere, diverged just above.
  const double v_bound = std::sqrt(2 * kEnergyGrowth * E_s);
  State state = s.world.initial;
  state.v[0] = 0.99 * v_bound;
  EXPECT_EQ(s.monitor.check(state, s.step), "");
  EXPECT_NEAR(s.monitor.energy_max_rise(), 0.5 * state.v[0] * state.v[0], 1e-9);
  state.v[0] = 1.01 * v_bound;
  EXPECT_NE(s.monitor.check(state, s.step).find("energy"), std::string::npos);
  // Penetration: deeper than L.
  State rest = s.world.initial;
  s.step.stats.max_penetration = 0.99 * L;
  EXPECT_EQ(s.monitor.check(rest, s.step), "");
  s.step.stats.max_penetration = 1.01 * L;
  EXPECT_NE(s.monitor.check(rest, s.step).find("penetration"), std::string::npos);
  // Not finite.
  State lost = s.world.initial;
  lost.q[0] = NAN;
  EXPECT_EQ(s.monitor.check(lost, s.step), "the state is not finite");
}

}  // namespace
}  // namespace impetus
