// The scene format of DESIGN.md, accepted exactly as written there, and what the loader makes of it:
// bodies (free and static, inertia given or from geometry), models (URDF links as MODEL/LINK, base,
// initial joint coordinates, recorded joints), physics, ground, contacts, and the initial state.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <unistd.h>

#include "dynamics/integration.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;

// Products and sums of a handful of decimal inputs: round-off only.
constexpr double kRoundOff = 1e-12;

/// A one-legged "quad": a 2 kg base and a 0.5 kg thigh on the revolute joint "hip" about y.
const std::string kQuadUrdf = R"(<?xml version="1.0"?>
<robot name="quad">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.04"/></inertial>
    <collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision>
  </link>
  <link name="thigh">
    <inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/><inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0002"/></inertial>
    <collision><origin xyz="0 0 -0.1"/><geometry><cylinder radius="0.02" length="0.2"/></geometry></collision>
  </link>
  <joint name="hip" type="revolute">
    <parent link="base"/><child link="thigh"/>
    <origin xyz="0.2 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="10"/>
  </joint>
</robot>
)";

/// DESIGN.md's scene core, verbatim but for the <inertial> placeholder line, which `inertial` replaces.
std::string design_core(const std::string& inertial) {
  return R"(<scene name="box_slide">
  <physics dt="0.001" duration="1.0" gravity="0 0 -9.81" contact_model="stewart_trinkle"
           mu="0.5" mu_viscous="0">           <!-- defaults for every contact pair -->
    <stewart_trinkle friction_edges="4"/>     <!-- options of one model, by its name -->
  </physics>
  <ground/>                                   <!-- static plane z = 0, normal +z; optional mu, mu_viscous -->
  <body name="box" mass="1">                  <!-- or density="…" (kg/m³); static="true" for fixed bodies,
                                                    which take neither -->
    <origin xyz="0 0 0.5" rpy="0 0 0"/>
    <velocity linear="1 0 0" angular="0 0 0"/> <!-- world frame -->
    )" + inertial + R"(
    <collision>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <geometry><box size="1 1 1"/></geometry> <!-- box size, sphere radius, cylinder radius length,
                                                    capsule radius length, mesh filename scale -->
    </collision>                               <!-- several collision elements make one rigid body -->
  </body>
  <model name="quad" urdf="../models/quad/quad.urdf" base="floating"> <!-- or base="fixed" -->
    <origin xyz="0 0 0.2" rpy="0 0 0"/>
    <joint name="hip" position="0.8" velocity="0"/>
  </model>
  <contact a="box" b="ground" mu="0.3" mu_viscous="0"/> <!-- per-pair override; a, b: body ids -->
</scene>
)";
}

/// A unit cube of mass m: I = m/6·1 about its centre.
Eigen::Matrix3d unit_cube_inertia(double m) { return m / 6 * Eigen::Matrix3d::Identity(); }

void expect_design_core(const World& world, const std::string& file) {
  const WorldModel& m = world.model;
  EXPECT_EQ(m.name, "box_slide");
  EXPECT_EQ(m.source_file, file);
  EXPECT_EQ(m.physics.dt, 0.001);
  EXPECT_EQ(m.physics.duration, 1.0);
  EXPECT_EQ(m.multibody.gravity, Eigen::Vector3d(0, 0, -9.81));
  EXPECT_EQ(m.physics.contact_model, "stewart_trinkle");
  EXPECT_EQ(m.physics.mu, 0.5);
  EXPECT_EQ(m.physics.mu_viscous, 0.0);
  ASSERT_TRUE(m.physics.model_options.count("stewart_trinkle"));
  EXPECT_EQ(m.physics.model_options.at("stewart_trinkle").at("friction_edges"), "4");
  EXPECT_TRUE(m.has_ground);
  EXPECT_EQ(m.ground_mu, 0.5);  // <ground/> takes <physics>'s defaults

  // Bodies: the box, then the quad's links, each its own tree.
  const MultibodyModel& mb = m.multibody;
  ASSERT_EQ(mb.trees.size(), 2u);
  const int box = mb.find_link("box"), base = mb.find_link("quad/base"), thigh = mb.find_link("quad/thigh");
  ASSERT_EQ(box, 0);
  ASSERT_GE(base, 0);
  ASSERT_GE(thigh, 0);
  EXPECT_EQ(mb.links[box].joint.type, JointType::Floating);
  EXPECT_EQ(mb.links[base].joint.type, JointType::Floating);
  EXPECT_EQ(mb.links[thigh].parent, base);
  EXPECT_EQ(mb.nq, 7 + 7 + 1);
  EXPECT_EQ(mb.nv, 6 + 6 + 1);
  EXPECT_EQ(mb.links[box].inertia.mass, 1.0);
  EXPECT_LT((mb.links[box].inertia.I_C - unit_cube_inertia(1)).norm(), kRoundOff);

  // Geometry: the box's unit cube on its link, the quad's two shapes on theirs.
  ASSERT_EQ(m.geometries.size(), 3u);
  EXPECT_EQ(m.geometries[0].link, box);
  EXPECT_EQ(std::get<Box>(m.geometries[0].shape).size, Eigen::Vector3d::Ones());
  EXPECT_EQ(m.geometries[2].link, thigh);
  EXPECT_TRUE(std::holds_alternative<Cylinder>(m.geometries[2].shape));

  // Initial state: poses at <origin>, quaternions (w,x,y,z), the hip at 0.8, the box sliding at 1 m/s.
  const State& s = world.initial;
  EXPECT_EQ(s.t, 0.0);
  const int qb = mb.links[box].joint.q_index, qq = mb.links[base].joint.q_index;
  EXPECT_EQ(Eigen::Vector3d(s.q.segment<3>(qb)), Eigen::Vector3d(0, 0, 0.5));
  EXPECT_EQ(Eigen::Vector4d(s.q.segment<4>(qb + 3)), Eigen::Vector4d(1, 0, 0, 0));
  EXPECT_EQ(Eigen::Vector3d(s.q.segment<3>(qq)), Eigen::Vector3d(0, 0, 0.2));
  EXPECT_EQ(s.q[mb.links[thigh].joint.q_index], 0.8);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(mb.nv);
  v[mb.links[box].joint.v_index] = 1;  // centre of mass at the origin: v_WC = v_WL
  EXPECT_EQ(s.v, v);

  ASSERT_EQ(m.recorded_joints.size(), 1u);
  EXPECT_EQ(m.recorded_joints[0].column, "quad.hip");
  EXPECT_EQ(m.recorded_joints[0].q_index, mb.links[thigh].joint.q_index);
  EXPECT_EQ(m.recorded_joints[0].v_index, mb.links[thigh].joint.v_index);

  ASSERT_EQ(m.pair_materials.size(), 1u);
  EXPECT_EQ(m.pair_materials[0].link_a, box);
  EXPECT_EQ(m.pair_materials[0].link_b, -1);
  EXPECT_EQ(m.pair_materials[0].mu, 0.3);
  EXPECT_EQ(m.pair_materials[0].mu_viscous, 0.0);
}

TEST(SceneLoader, DesignCoreWithInertialFromGeometry) {
  test::TempDir tree("scene");
  tree.write("models/quad/quad.urdf", kQuadUrdf);
  const std::string file = tree.write("scenes/box_slide.xml", design_core(""));
  expect_design_core(load_scene(file), file);
}

TEST(SceneLoader, DesignCoreWithInertialAsInUrdf) {
  test::TempDir tree("scene");
  tree.write("models/quad/quad.urdf", kQuadUrdf);
  const std::string inertial =
      "<inertial><mass value=\"1\"/><inertia ixx=\"0.16666666666666666\" ixy=\"0\" ixz=\"0\" iyy=\"0.16666666666666666\" "
      "iyz=\"0\" izz=\"0.16666666666666666\"/></inertial>";
  const std::string file = tree.write("scenes/box_slide.xml", design_core(inertial));
  expect_design_core(load_scene(file), file);
  // The same text from a string, anchored at the same path.
  expect_design_core(load_scene_string(design_core(inertial), file), file);
}

TEST(SceneLoader, FloatingVelocityIsTheCentreOfMassVelocity) {
  // Body origin at p, centre of mass c = R·(0.2, 0, 0) from it with R a quarter turn about z, so
  // c − p = (0, 0.2, 0). <velocity> gives the origin's v_WL = (1, 0, 0) and ω = (0, 0, 2):
  // v_WC = v_WL + ω × (c − p) = (1, 0, 0) + (−0.4, 0, 0) = (0.6, 0, 0).
  const World w = load_scene_string(R"(<scene>
    <body name="b">
      <origin xyz="1 2 3" rpy="0 0 1.5707963267948966"/>
      <velocity linear="1 0 0" angular="0 0 2"/>
      <inertial><origin xyz="0.2 0 0"/><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    </body></scene>)", "inline.xml");
  Eigen::VectorXd v(6);
  v << 0.6, 0, 0, 0, 0, 2;
  EXPECT_LT((w.initial.v - v).norm(), kRoundOff);
  const Eigen::Quaterniond q = quaternion_at(w.initial.q, 3);
  EXPECT_LT((q.toRotationMatrix() - Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix()).norm(),
            kRoundOff);
  EXPECT_EQ(w.model.name, "inline");  // the file's stem when the scene has no name
}

TEST(SceneLoader, StaticBodyIsWeldedAtItsOrigin) {
  const World w = load_scene_string(R"(<scene name="s">
    <body name="wall" static="true">
      <origin xyz="0 0 1" rpy="0.1 0 0"/>
      <collision><geometry><box size="1 1 1"/></geometry></collision>
    </body></scene>)", "s.xml");
  const Link& wall = w.model.multibody.links.at(0);
  EXPECT_EQ(wall.joint.type, JointType::Fixed);
  EXPECT_EQ(wall.inertia.mass, 0.0);
  EXPECT_EQ(Eigen::Vector3d(wall.joint.X_PJ.translation()), Eigen::Vector3d(0, 0, 1));
  EXPECT_EQ(w.model.multibody.nv, 0);
  EXPECT_FALSE(w.model.has_ground);
}

TEST(SceneLoader, InertiaFromGeometryWithDensity) {
  // A 0.5 × 0.4 × 0.2 box of density 1000: m = 40 kg, I = m/12·diag(b²+c², a²+c², a²+b²).
  const World w = load_scene_string(R"(<scene name="s">
    <body name="b" density="1000"><collision><geometry><box size="0.5 0.4 0.2"/></geometry></collision></body>
  </scene>)", "s.xml");
  const Inertia& in = w.model.multibody.links.at(0).inertia;
  EXPECT_NEAR(in.mass, 40, kRoundOff * 40);
  const Eigen::Matrix3d I = Eigen::Vector3d(40.0 / 12 * (0.16 + 0.04), 40.0 / 12 * (0.25 + 0.04), 40.0 / 12 * (0.25 + 0.16)).asDiagonal();
  EXPECT_LT((in.I_C - I).norm(), kRoundOff);
}

TEST(SceneLoader, SeveralCollisionsMakeOneRigidBody) {
  // Two unit cubes at x = 0 and x = 1, mass 2 in all: one 2 × 1 × 1 box centred at x = 0.5.
  const World w = load_scene_string(R"(<scene name="s">
    <body name="b" mass="2">
      <collision><geometry><box size="1 1 1"/></geometry></collision>
      <collision name="second"><origin xyz="1 0 0"/><geometry><box size="1 1 1"/></geometry></collision>
    </body></scene>)", "s.xml");
  const Inertia& in = w.model.multibody.links.at(0).inertia;
  EXPECT_NEAR(in.mass, 2, kRoundOff);
  EXPECT_LT((in.com - Eigen::Vector3d(0.5, 0, 0)).norm(), kRoundOff);
  const Eigen::Matrix3d I = Eigen::Vector3d(2.0 / 12 * 2, 2.0 / 12 * 5, 2.0 / 12 * 5).asDiagonal();
  EXPECT_LT((in.I_C - I).norm(), kRoundOff);
  ASSERT_EQ(w.model.geometries.size(), 2u);
  EXPECT_EQ(w.model.geometries[1].name, "second");
  EXPECT_EQ(w.model.geometries[1].link, 0);
}

TEST(SceneLoader, MeshBodyRelativeToTheSceneFile) {
  test::TempDir tree("scene");
  tree.write("meshes/cube.obj",
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
             "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 1 5 8 4\n");
  const std::string file = tree.write("scenes/s.xml", R"(<scene name="s">
    <body name="b" density="3"><collision><geometry><mesh filename="../meshes/cube.obj" scale="2 1 1"/></geometry></collision></body>
  </scene>)");
  const World w = load_scene(file);
  const Inertia& in = w.model.multibody.links.at(0).inertia;
  EXPECT_NEAR(in.mass, 6, kRoundOff);
  EXPECT_LT((in.com - Eigen::Vector3d(1, 0.5, 0.5)).norm(), kRoundOff);
  const Eigen::Matrix3d I = Eigen::Vector3d(6.0 / 12 * 2, 6.0 / 12 * 5, 6.0 / 12 * 5).asDiagonal();
  EXPECT_LT((in.I_C - I).norm(), kRoundOff);
  EXPECT_EQ(std::get<Mesh>(w.model.geometries.at(0).shape).vertices.size(), 8u);
}

TEST(SceneLoader, FixedBaseModelAndSettings) {
  test::TempDir tree("scene");
  tree.write("quad.urdf", kQuadUrdf);
  const std::string file = tree.write("s.xml", R"(<scene name="s">
    <physics contact_model="stewart_trinkle" mu="0.7" mu_viscous="0.1">
      <collision margin="0.01" exclude_parent_child="false"/>
    </physics>
    <ground mu="0.9"/>
    <model name="arm" urdf="quad.urdf" base="fixed">
      <origin xyz="0 0 1" rpy="0 0 0.5"/>
      <joint name="hip" velocity="-2"/>
    </model>
    <contact a="arm/thigh" b="arm/base"/>
  </scene>)");
  const World w = load_scene(file);
  const MultibodyModel& mb = w.model.multibody;
  EXPECT_EQ(mb.nv, 1);
  const Link& base = mb.links[mb.find_link("arm/base")];
  EXPECT_EQ(base.joint.type, JointType::Fixed);
  EXPECT_EQ(Eigen::Vector3d(base.joint.X_PJ.translation()), Eigen::Vector3d(0, 0, 1));
  EXPECT_EQ(w.initial.v[0], -2.0);
  EXPECT_EQ(w.initial.q[0], 0.0);
  EXPECT_EQ(w.model.collision.margin, 0.01);
  EXPECT_FALSE(w.model.collision.exclude_parent_child);
  EXPECT_EQ(w.model.ground_mu, 0.9);
  EXPECT_EQ(w.model.ground_mu_viscous, 0.1);
  ASSERT_EQ(w.model.pair_materials.size(), 1u);
  EXPECT_EQ(w.model.pair_materials[0].mu, 0.7);  // <contact> without mu: <physics>'s
  EXPECT_EQ(w.model.pair_materials[0].mu_viscous, 0.1);
  const Joint& hip = mb.links[mb.find_link("arm/thigh")].joint;
  EXPECT_TRUE(hip.has_limits);
  EXPECT_EQ(hip.effort, 20.0);
}

TEST(SceneLoader, DefaultsWithoutPhysics) {
  const World w = load_scene_string("<scene name=\"empty\"/>", "e.xml");
  const PhysicsSettings defaults;
  EXPECT_EQ(w.model.physics.dt, defaults.dt);
  EXPECT_EQ(w.model.physics.contact_model, defaults.contact_model);
  EXPECT_EQ(w.model.multibody.gravity, Eigen::Vector3d(0, 0, -9.81));
  EXPECT_EQ(w.initial.q.size(), 0);
}

}  // namespace
}  // namespace impetus
