// What the URDF reader and the conversion make of valid files: the corpus's edge cases against their
// derived expectations (edge-cases/EXPECTED.json, computed independently of urdfdom), package://
// resolution through ROS_PACKAGE_PATH, and the conversion's rules (floating joints, zero masses,
// mimic, limits) on small robots whose answers follow from the rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "base/load_error.hpp"
#include "dynamics/crba.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/rnea.hpp"
#include "sim/urdf/inertia_checks.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"
#include "temp_dir.hpp"
#include "tests/sim/shared_corpus.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kCorpus = corpus::corpus_dir();
const std::string kEdge = kCorpus + "/edge-cases";

// EXPECTED.json prints 12 significant digits.
constexpr double kPrintedTolerance = 1e-11;
// Rotations composed from the same rpy by two implementations agree to a few ulps.
constexpr double kRoundOff = 1e-14;

json expected() {
  std::ifstream in(kEdge + "/EXPECTED.json");
  return json::parse(in);
}

Eigen::Matrix3d matrix(const json& rows) {
  Eigen::Matrix3d M;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M(i, j) = rows[i][j].get<double>();
  return M;
}

Eigen::Vector3d vec3(const json& a) { return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()}; }

// --- inertia repair -----------------------------------------------------------------------------------------

TEST(InertiaRepair, MovesPrincipalMomentsByTheSmallestChangeAboutTheSameAxes) {
  // diag(1, 1, 5) turned by some rotation: deficit d = 5 − 1 − 1 = 3, so (4) gives (2, 2, 4) about the
  // same axes, at distance d/√3 from the original; no point of the boundary λ₁ + λ₂ = λ₃ is closer.
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Matrix3d I = R * Eigen::Vector3d(1, 1, 5).asDiagonal() * R.transpose();
  ASSERT_TRUE(breaks_triangle_inequality(I));
  const Eigen::Matrix3d fixed = restore_triangle_inequality(I);
  const Eigen::Matrix3d expected = R * Eigen::Vector3d(2, 2, 4).asDiagonal() * R.transpose();
  EXPECT_LT((fixed - expected).norm(), 1e-14 * expected.norm());
  EXPECT_FALSE(breaks_triangle_inequality(fixed));
  EXPECT_NEAR((principal_moments(fixed) - principal_moments(I)).norm(), 3 / std::sqrt(3.0), 1e-14 * 5);
  // A physical inertia is left alone; a point mass written as a rod (hyq's base_link: moments
  // ≈ (−1.8e-22, 1.8e-22, 3e-6)) becomes the flat plate (1e-6, 1e-6, 2e-6).
  const Eigen::Matrix3d box = Eigen::Vector3d(2, 3, 4).asDiagonal();
  EXPECT_FALSE(breaks_triangle_inequality(box));
  const Eigen::Matrix3d rod = Eigen::Vector3d(-1.8e-22, 1.8e-22, 3e-6).asDiagonal();
  EXPECT_TRUE(breaks_triangle_inequality(rod));
  EXPECT_LT((principal_moments(restore_triangle_inequality(rod)) - Eigen::Vector3d(1e-6, 1e-6, 2e-6)).norm(), 1e-20);
}

TEST(InertiaRepair, AJointMovingOnlyABareFrameGetsTheFloorOrIsRefusedWhenStrict) {
  // widowx's case: a revolute joint turning a link without <inertial> (and nothing below it). The floor
  // is rotational inertia 1e-3 × the smallest principal moment of the model (0.01 → 1e-5), no mass.
  const std::string text =
      "<robot name=\"r\">\n"
      "  <link name=\"base\"><inertial><mass value=\"2\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.02\"/></inertial></link>\n"
      "  <link name=\"aux\"/>\n"
      "  <joint name=\"spin\" type=\"revolute\"><parent link=\"base\"/><child link=\"aux\"/><axis xyz=\"0 0 1\"/>\n"
      "    <limit lower=\"0\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>\n"
      "  <link name=\"slider\"/>\n"
      "  <joint name=\"slide\" type=\"prismatic\"><parent link=\"base\"/><child link=\"slider\"/>\n"
      "    <limit lower=\"0\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>\n"
      "</robot>\n";
  const UrdfModel urdf = read_urdf_string(text, "floor.urdf", {});
  const UrdfMultibody out = urdf_to_multibody(urdf);
  ASSERT_EQ(out.instance.warnings.size(), 2u);
  EXPECT_EQ(out.instance.warnings[0].line, urdf.joints[urdf.find_joint("spin")].line);
  EXPECT_NE(out.instance.warnings[0].message.find("'spin'"), std::string::npos);
  EXPECT_EQ(out.instance.warnings[1].line, urdf.joints[urdf.find_joint("slide")].line);
  const Inertia& aux = out.multibody.links[out.multibody.find_link("aux")].inertia;
  EXPECT_EQ(aux.mass, 0.0);  // a revolute floor adds no mass
  EXPECT_NEAR(aux.I_C(2, 2), kInertiaFloorFraction * 0.01, 1e-18);
  const Inertia& slider = out.multibody.links[out.multibody.find_link("slider")].inertia;
  EXPECT_NEAR(slider.mass, kInertiaFloorFraction * 2, 1e-15);  // a prismatic floor is mass
  EXPECT_NEAR(out.instance.mass_added, kInertiaFloorFraction * 2, 1e-15);
  UrdfPlacement strict;
  strict.strict = true;
  try {
    urdf_to_multibody(urdf, strict);
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), urdf.joints[urdf.find_joint("spin")].line);
    EXPECT_NE(e.message().find("moves no inertia"), std::string::npos);
  }
}

// --- edge cases -------------------------------------------------------------------------------------------

TEST(UrdfEdgeCases, InertialFrameRotationIntoTheLinkFrame) {
  SKIP_WITHOUT_URDF_CORPUS();
  const json e = expected()["edge-cases/inertial_rpy"];
  const UrdfModel urdf = read_urdf(kEdge + "/inertial_rpy/inertial_rpy.urdf", {});
  const UrdfLink& body = urdf.links[urdf.find_link("tilted_body")];
  ASSERT_TRUE(body.inertial);
  EXPECT_LT((body.inertial->X_LI.linear() - matrix(e["tilted_body"]["R_link_from_inertial"])).norm(), kPrintedTolerance);

  const Inertia in = link_inertia(*body.inertial);
  EXPECT_EQ(in.mass, e["tilted_body"]["mass"].get<double>());
  EXPECT_EQ(in.com, vec3(e["tilted_body"]["com_in_link_frame"]));
  EXPECT_LT((in.I_C - matrix(e["tilted_body"]["inertia_about_com_in_link_axes"])).norm(), kPrintedTolerance);
  // Rotation preserves the invariants: trace and determinant.
  EXPECT_NEAR(in.I_C.trace(), e["tilted_body"]["inertia_trace_invariant"].get<double>(), kPrintedTolerance);
  EXPECT_NEAR(in.I_C.determinant(), e["tilted_body"]["inertia_det_invariant"].get<double>(), kPrintedTolerance);
  // Parallel axes: about the link origin, I_O = I_C + m(|c|²·1 − c cᵀ).
  const Eigen::Matrix3d I_O = in.I_C + in.mass * (in.com.squaredNorm() * Eigen::Matrix3d::Identity() - in.com * in.com.transpose());
  EXPECT_LT((I_O - matrix(e["tilted_body"]["inertia_about_link_origin_in_link_axes"])).norm(), kPrintedTolerance);

  const UrdfJoint& hinge = urdf.joints[urdf.find_joint("hinge")];
  const json& q = e["hinge"]["origin_quat_xyzw"];
  const Eigen::Quaterniond expected_q(q[3].get<double>(), q[0].get<double>(), q[1].get<double>(), q[2].get<double>());
  EXPECT_LT((hinge.X_PJ.linear() - expected_q.toRotationMatrix()).norm(), kPrintedTolerance);
  EXPECT_EQ(Eigen::Vector3d(hinge.X_PJ.translation()), vec3(e["hinge"]["origin_xyz"]));
  EXPECT_EQ(hinge.axis, vec3(e["hinge"]["axis_in_joint_frame"]));
}

TEST(UrdfEdgeCases, InertialRpyEdgeCaseBreaksTheTriangleInequality) {
  SKIP_WITHOUT_URDF_CORPUS();
  // Its tilted body has principal moments ≈ (0.0199, 0.0500, 0.0801): 0.0199 + 0.0500 < 0.0801, a
  // tensor no mass distribution has. Strict: refused at the <inertia> line. By default: repaired by the
  // smallest change of its principal moments (inertia_checks.hpp (4)) with a warning at that line.
  // Unchecked on request: the link's inertia is the rotated one as written.
  const std::string file = kEdge + "/inertial_rpy/inertial_rpy.urdf";
  const UrdfModel urdf = read_urdf(file, {});
  const int inertia_line = urdf.links[urdf.find_link("tilted_body")].inertial->inertia_line;
  UrdfPlacement strict;
  strict.strict = true;
  try {
    urdf_to_multibody(urdf, strict);
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), inertia_line);
    EXPECT_NE(e.message().find("triangle inequality"), std::string::npos);
  }
  {
    const UrdfMultibody repaired = urdf_to_multibody(urdf);
    ASSERT_EQ(repaired.instance.warnings.size(), 1u);
    EXPECT_EQ(repaired.instance.warnings[0].file, file);
    EXPECT_EQ(repaired.instance.warnings[0].line, inertia_line);
    EXPECT_NE(repaired.instance.warnings[0].message.find("'tilted_body'"), std::string::npos);
    const Inertia& in = repaired.multibody.links[repaired.multibody.find_link("tilted_body")].inertia;
    const Eigen::Vector3d l = principal_moments(in.I_C);
    EXPECT_NEAR(l[0] + l[1], l[2], kRoundOff * l.sum());  // on the boundary of (3): the nearest physical point
    EXPECT_FALSE(breaks_triangle_inequality(in.I_C));
    EXPECT_EQ(in.mass, urdf.links[urdf.find_link("tilted_body")].inertial->mass);
  }
  UrdfPlacement lenient;
  lenient.check_triangle_inequality = false;
  const UrdfMultibody out = urdf_to_multibody(urdf, lenient);
  const Link& body = out.multibody.links[out.multibody.find_link("tilted_body")];
  EXPECT_LT((body.inertia.I_C - matrix(expected()["edge-cases/inertial_rpy"]["tilted_body"]["inertia_about_com_in_link_axes"])).norm(),
            kPrintedTolerance);
  // The axis 0.6 0 0.8 is already unit; the joint keeps it.
  EXPECT_LT((body.joint.axis - Eigen::Vector3d(0.6, 0, 0.8)).norm(), kRoundOff);
  EXPECT_EQ(body.joint.type, JointType::Revolute);
  EXPECT_TRUE(body.joint.has_limits);
  EXPECT_EQ(body.joint.lower, -2.0);
  EXPECT_EQ(body.joint.upper, 2.0);
  EXPECT_EQ(body.joint.effort, 50.0);
}

TEST(UrdfEdgeCases, MimicContinuousJointsAndDynamics) {
  SKIP_WITHOUT_URDF_CORPUS();
  const json e = expected()["edge-cases/mimic_continuous"];
  const UrdfModel urdf = read_urdf(kEdge + "/mimic_continuous/mimic_continuous.urdf", {});
  const auto mimic = [&](const char* name) { return urdf.joints[urdf.find_joint(name)].mimic; };
  ASSERT_TRUE(mimic("finger_right_joint"));
  EXPECT_EQ(mimic("finger_right_joint")->joint, "finger_left_joint");
  EXPECT_EQ(mimic("finger_right_joint")->multiplier, -1.0);
  EXPECT_EQ(mimic("finger_right_joint")->offset, 0.01);
  EXPECT_EQ(mimic("follower_joint")->multiplier, 2.0);
  EXPECT_EQ(mimic("follower_joint")->offset, 0.5);
  EXPECT_EQ(mimic("default_mimic_joint")->multiplier, 1.0);  // omitted → 1
  EXPECT_EQ(mimic("default_mimic_joint")->offset, 0.0);      // omitted → 0
  for (const std::string independent : e["independent_joints"]) EXPECT_FALSE(mimic(independent.c_str()));

  // Mimic is enforced by elimination (dynamics/mimic.hpp): every joint keeps its coordinate in q and v,
  // and the tree has 2 independent ones (spin, finger_left); continuous joints are unbounded even when
  // a <limit> gives effort and velocity only (urdfdom's lower = upper = 0 must be ignored).
  const UrdfMultibody out = urdf_to_multibody(urdf);
  EXPECT_EQ(out.multibody.nv, 5);
  EXPECT_EQ(out.multibody.trees[0].nu, 2);
  const auto joint_of = [&](const char* name) -> const Joint& {
    return out.multibody.links[out.instance.joint_link[urdf.find_joint(name)]].joint;
  };
  for (const char* name : {"finger_right_joint", "follower_joint", "default_mimic_joint"}) {
    const Joint& follower = joint_of(name);
    ASSERT_GE(follower.mimic, 0) << name;
    EXPECT_EQ(out.multibody.links[follower.mimic].joint.name, mimic(name)->joint) << name;
    EXPECT_EQ(follower.mimic_multiplier, mimic(name)->multiplier) << name;
    EXPECT_EQ(follower.mimic_offset, mimic(name)->offset) << name;
  }
  for (const char* name : {"spin_joint", "follower_joint", "default_mimic_joint"}) {
    const Joint& joint = out.multibody.links[out.instance.joint_link[urdf.find_joint(name)]].joint;
    EXPECT_EQ(joint.type, JointType::Continuous) << name;
    EXPECT_FALSE(joint.has_limits) << name;
  }
  const Joint& left = out.multibody.links[out.instance.joint_link[urdf.find_joint("finger_left_joint")]].joint;
  EXPECT_EQ(left.damping, e["finger_left_joint"]["dynamics"]["damping"].get<double>());
  EXPECT_EQ(left.friction, e["finger_left_joint"]["dynamics"]["friction"].get<double>());
  EXPECT_TRUE(left.has_limits);
}

TEST(UrdfEdgeCases, PackageUriResolvesThroughRosPackagePath) {
  SKIP_WITHOUT_URDF_CORPUS();
  const json e = expected()["edge-cases/package_uri"];
  const std::string file = kEdge + "/package_uri/impetus_edge_pkg/urdf/package_uri.urdf";
  const std::string root = kEdge + "/package_uri";
  // Without the package on the path: refused at the mesh line, saying what to set.
  try {
    read_urdf(file, {});
    FAIL() << "expected a refusal";
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), file);
    EXPECT_GT(error.line(), 0);
    EXPECT_NE(error.message().find("ROS_PACKAGE_PATH"), std::string::npos) << error.what();
  }
  // From the environment variable, the first folder holding the package wins.
  test::TempDir decoy("decoy");
  ::setenv("ROS_PACKAGE_PATH", (decoy.path() + "::" + root + ":" + decoy.path()).c_str(), 1);
  const UrdfModel urdf = read_urdf(file);
  ::unsetenv("ROS_PACKAGE_PATH");
  const UrdfGeometry& plate = urdf.links[urdf.find_link("plate")].collisions.at(0).geometry;
  EXPECT_TRUE(fs::equivalent(plate.path, kCorpus + "/" + e["resolved_mesh"].get<std::string>()));
  // Defaults: no <origin> → identity; no <axis> → x.
  const UrdfJoint& world_to_base = urdf.joints[urdf.find_joint("world_to_base")];
  EXPECT_TRUE(world_to_base.X_PJ.isApprox(Eigen::Isometry3d::Identity(), kRoundOff));
  EXPECT_EQ(urdf.joints[urdf.find_joint("mount_to_plate")].axis, vec3(e["defaults"]["mount_to_plate.axis"]));
  EXPECT_EQ(urdf.links[urdf.root].name, e["root_link"].get<std::string>());

  // The mesh as loaded: 12 triangles spanning the expected box (EXPECTED prints 9 digits).
  const UrdfMultibody out = urdf_to_multibody(urdf);
  const Geometry& g = out.geometries.at(1);
  const Mesh& mesh = std::get<Mesh>(g.shape);
  EXPECT_EQ(mesh.triangles.size(), e["plate_mesh"]["triangles"].get<std::size_t>());
  Eigen::Vector3d lo = mesh.vertices[0], hi = mesh.vertices[0];
  for (const Eigen::Vector3d& v : mesh.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  constexpr double kFloat32 = 1e-7;  // STL stores float32
  EXPECT_LT((lo - vec3(e["plate_mesh"]["scaled_aabb_min"])).norm(), kFloat32);
  EXPECT_LT((hi - vec3(e["plate_mesh"]["scaled_aabb_max"])).norm(), kFloat32);
  EXPECT_EQ(g.link, out.multibody.find_link("plate"));
}

TEST(UrdfEdgeCases, FloatingAndPlanarJoints) {
  SKIP_WITHOUT_URDF_CORPUS();
  // floating_planar: a free body on a floating joint from the world (its own tree) and a puck on a
  // planar joint (normal z, origin (2, 0, 0.025)). The puck's coordinates are (x, y, θ) in its plane:
  // M's block is diag(m, m, I_zz) (its centre of mass on the turning axis), and as gravity is normal
  // to the plane and no force couples the three, its bias h is zero at any velocity.
  const std::string file = kEdge + "/floating_planar/floating_planar.urdf";
  const UrdfModel urdf = read_urdf(file, {});
  const UrdfMultibody out = urdf_to_multibody(urdf);
  EXPECT_TRUE(out.instance.warnings.empty());
  const MultibodyModel& mb = out.multibody;
  EXPECT_EQ(mb.nv, 6 + 3);
  const int puck = mb.find_link("puck");
  ASSERT_GE(puck, 0);
  const Joint& plane = mb.links[puck].joint;
  EXPECT_EQ(plane.type, JointType::Planar);
  EXPECT_EQ(plane.axis, Eigen::Vector3d::UnitZ());
  EXPECT_EQ(mb.links[mb.find_link("free_body")].joint.type, JointType::Floating);
  MultibodyData data(mb);
  Eigen::VectorXd q = mb.neutral_configuration(), v = Eigen::VectorXd::Zero(mb.nv);
  q.segment<3>(plane.q_index) << 0.3, -0.2, 0.7;
  v.segment<3>(plane.v_index) << 1.0, 0.5, 2.0;
  forward_kinematics(mb, data, q, v);
  EXPECT_LT((data.X_WL[puck].translation() - Eigen::Vector3d(2.3, -0.2, 0.025)).norm(), kRoundOff);
  crba(mb, data);
  const Tree& tree = mb.trees[mb.links[puck].tree];
  const Eigen::Matrix3d M = data.M[mb.links[puck].tree].block<3, 3>(plane.v_index - tree.v_offset, plane.v_index - tree.v_offset);
  EXPECT_LT((M - Eigen::Vector3d(0.17, 0.17, 1.233887e-04).asDiagonal().toDenseMatrix()).norm(), kRoundOff);
  EXPECT_LT(bias_forces(mb, data, v).segment<3>(plane.v_index).norm(), kRoundOff);
}

// --- conversion rules on small robots ---------------------------------------------------------------------

std::string inertial(double mass, const std::string& xyz = "0 0 0", double I = 0.01) {
  const std::string i = std::to_string(I);
  return "<inertial><origin xyz=\"" + xyz + "\"/><mass value=\"" + std::to_string(mass) + "\"/><inertia ixx=\"" + i +
         "\" ixy=\"0\" ixz=\"0\" iyy=\"" + i + "\" iyz=\"0\" izz=\"" + i + "\"/></inertial>";
}

UrdfModel parse(const std::string& text) { return read_urdf_string(text, "inline.urdf", {}); }

TEST(UrdfConversion, FloatingJointFromAWeldedLinkBecomesItsOwnTree) {
  const UrdfModel urdf = parse(
      "<robot name=\"r\">\n"
      "  <link name=\"world\"/>\n"
      "  <link name=\"table\">" + inertial(5) + "</link>\n"
      "  <link name=\"cup\">" + inertial(0.2) + "</link>\n"
      "  <joint name=\"weld\" type=\"fixed\"><parent link=\"world\"/><child link=\"table\"/><origin xyz=\"1 0 0\"/></joint>\n"
      "  <joint name=\"free\" type=\"floating\"><parent link=\"table\"/><child link=\"cup\"/>"
      "<origin xyz=\"0 0 0.8\" rpy=\"0 0 1\"/></joint>\n"
      "</robot>\n");
  UrdfPlacement placement;
  placement.prefix = "m";
  placement.X_WR.translation() << 0, 2, 0;
  const UrdfMultibody out = urdf_to_multibody(urdf, placement);
  ASSERT_EQ(out.multibody.trees.size(), 2u);
  const int cup = out.multibody.find_link("m/cup");
  EXPECT_EQ(out.multibody.links[cup].parent, -1);
  EXPECT_EQ(out.multibody.links[cup].joint.type, JointType::Floating);
  ASSERT_EQ(out.instance.floating_poses.size(), 1u);
  // X_W,cup = X_WR · X_world,table · X_table,cup
  const Eigen::Isometry3d X = out.instance.floating_poses[0].second;
  EXPECT_LT((X.translation() - Eigen::Vector3d(1, 2, 0.8)).norm(), kRoundOff);
  EXPECT_LT((X.linear() - Eigen::AngleAxisd(1, Eigen::Vector3d::UnitZ()).toRotationMatrix()).norm(), kRoundOff);

  // On a floating base nothing is welded: the cup stays in the table's tree, on the relative 6-DoF
  // joint (dynamics/model.hpp), and only the base has an initial pose.
  placement.floating_base = true;
  const UrdfMultibody moving = urdf_to_multibody(urdf, placement);
  ASSERT_EQ(moving.multibody.trees.size(), 1u);
  const int moving_cup = moving.multibody.find_link("m/cup");
  EXPECT_EQ(moving.multibody.links[moving_cup].parent, moving.multibody.find_link("m/table"));
  EXPECT_EQ(moving.multibody.links[moving_cup].joint.type, JointType::Floating);
  EXPECT_EQ(moving.multibody.nv, 6 + 6);
  ASSERT_EQ(moving.instance.floating_poses.size(), 1u);
  EXPECT_EQ(moving.instance.floating_poses[0].first, moving.multibody.find_link("m/world"));
}

TEST(UrdfConversion, ZeroMassLinksAreFineWhereTheyMoveNoJointAlone) {
  // A massless leaf on a fixed joint (a sensor frame) and a massless intermediate link whose child
  // carries mass (a decomposed ball joint): both fine.
  const UrdfModel urdf = parse(
      "<robot name=\"r\">\n"
      "  <link name=\"base\">" + inertial(1) + "</link>\n"
      "  <link name=\"sensor\"/>\n"
      "  <link name=\"gimbal\">" + inertial(0, "0 0 0", 0) + "</link>\n"
      "  <link name=\"arm\">" + inertial(1, "0.5 0 0") + "</link>\n"
      "  <joint name=\"s\" type=\"fixed\"><parent link=\"base\"/><child link=\"sensor\"/></joint>\n"
      "  <joint name=\"z\" type=\"continuous\"><parent link=\"base\"/><child link=\"gimbal\"/><axis xyz=\"0 0 1\"/></joint>\n"
      "  <joint name=\"y\" type=\"continuous\"><parent link=\"gimbal\"/><child link=\"arm\"/><axis xyz=\"0 1 0\"/></joint>\n"
      "</robot>\n");
  const UrdfMultibody out = urdf_to_multibody(urdf);
  EXPECT_EQ(out.multibody.nv, 2);
  EXPECT_EQ(out.multibody.links[out.multibody.find_link("sensor")].inertia.mass, 0.0);
}

TEST(UrdfConversion, LinksAreParentFirstWithGlobalIndices) {
  // Joints before links, children listed before parents: the model still comes out parent-first.
  const UrdfModel urdf = parse(
      "<robot name=\"r\">\n"
      "  <joint name=\"bc\" type=\"revolute\"><parent link=\"b\"/><child link=\"c\"/><limit effort=\"1\" velocity=\"1\" upper=\"1\"/></joint>\n"
      "  <joint name=\"ab\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/><limit effort=\"1\" velocity=\"1\" upper=\"1\"/></joint>\n"
      "  <link name=\"c\">" + inertial(1, "0.1 0 0") + "</link>\n"
      "  <link name=\"b\">" + inertial(1) + "</link>\n"
      "  <link name=\"a\">" + inertial(1) + "</link>\n"
      "</robot>\n");
  MultibodyModel multibody;
  std::vector<Geometry> geometries;
  MeshCache meshes;
  // A body already in the model: the URDF's indices follow it.
  multibody.add_tree("other", {Link{"other", -1, 0, Joint{}, Inertia{}}});
  const UrdfInstance instance = add_urdf_to_model(urdf, {"m", false, Eigen::Isometry3d::Identity(), true}, multibody, geometries, meshes);
  ASSERT_EQ(multibody.links.size(), 4u);
  EXPECT_EQ(multibody.links[1].name, "m/a");
  EXPECT_EQ(multibody.links[2].name, "m/b");
  EXPECT_EQ(multibody.links[3].name, "m/c");
  EXPECT_EQ(multibody.links[3].parent, 2);
  EXPECT_EQ(instance.link_index[urdf.find_link("a")], 1);
  EXPECT_EQ(instance.joint_link[urdf.find_joint("bc")], 3);
  EXPECT_EQ(multibody.links[3].joint.name, "m/bc");
}

TEST(UrdfConversion, NonUnitAxisIsNormalised) {
  const UrdfModel urdf = parse(
      "<robot name=\"r\"><link name=\"a\"/><link name=\"b\">" + inertial(1, "1 0 0") + "</link>\n"
      "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 3 4\"/></joint></robot>\n");
  const UrdfMultibody out = urdf_to_multibody(urdf);
  EXPECT_LT((out.multibody.links[1].joint.axis - Eigen::Vector3d(0, 0.6, 0.8)).norm(), kRoundOff);
}

TEST(ResolveResource, Schemes) {
  const std::vector<std::string> none;
  EXPECT_EQ(resolve_resource("meshes/a.stl", "/robots/r/urdf", none).path, "/robots/r/urdf/meshes/a.stl");
  EXPECT_EQ(resolve_resource("../meshes/a.stl", "/robots/r/urdf", none).path, "/robots/r/meshes/a.stl");
  EXPECT_EQ(resolve_resource("/abs/a.stl", "/robots", none).path, "/abs/a.stl");
  EXPECT_EQ(resolve_resource("file:///abs/a.stl", "/robots", none).path, "/abs/a.stl");
  EXPECT_EQ(resolve_resource("file://rel/a.stl", "/robots", none).path, "/robots/rel/a.stl");
  EXPECT_FALSE(resolve_resource("http://example.org/a.stl", "/robots", none).ok());
  EXPECT_FALSE(resolve_resource("package:///a.stl", "/robots", none).ok());
  EXPECT_FALSE(resolve_resource("package://p/a.stl", "/robots", {"/nonexistent"}).ok());
}

}  // namespace
}  // namespace impetus
