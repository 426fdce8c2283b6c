// most_limit_rows (sim/assembly.hpp): the bound on a tree's joint-limit rows by which the control stage reserves
// its problems' buffers (ControlStage::reserve_problems). A narrow joint turning fast has both its limits within
// reach of one step, so a tree can bring two rows per limited coordinate: more than its coordinates.
#include <gtest/gtest.h>

#include "sim/assembly.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

/// A fixed arm of two links on revolute joints limited to ±0.005 rad (no collision geometry, no gravity).
const char* kArmUrdf = R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="lower">
    <inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-0.005" upper="0.005" effort="1" velocity="100"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0.2 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-0.005" upper="0.005" effort="1" velocity="100"/>
  </joint>
</robot>
)";

const char* kScene = R"(<scene name="narrow_arm">
  <physics dt="0.001" gravity="0 0 0" contact_model="stewart_trinkle"/>
  <model name="a" urdf="arm.urdf" base="fixed"/>
</scene>
)";

TEST(MostLimitRows, ANarrowFastJointBringsBothItsLimitsAndTheBoundHoldsThem) {
  test::TempDir dir("most_limit_rows");
  dir.write("arm.urdf", kArmUrdf);
  const World world = load_scene(dir.write("scene.xml", kScene));
  const MultibodyModel& mb = world.model.multibody;
  ASSERT_EQ(mb.trees.size(), 1u);
  const int nv = mb.trees[0].nv;
  ASSERT_EQ(nv, 2);
  EXPECT_EQ(most_limit_rows(mb, 0), 4);

  // At q = 0 each limit is 0.005 rad away; at 10 rad/s a step of 1 ms reaches 0.001 + 0.01 rad: both limits.
  State state = world.initial;
  state.v.setConstant(10.0);
  Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  stepper.step(state);
  const std::vector<ContactProblem>& problems = stepper.data().problems;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].nl, 4);   // more rows than coordinates
  EXPECT_LE(problems[0].nl, most_limit_rows(mb, 0));
}

}  // namespace
}  // namespace impetus
