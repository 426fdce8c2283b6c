// The URDF reader against urdfdom on the conformance corpus (../shared/urdf-corpus): every model's
// links, joints, inertials, collisions and mesh references as urdfdom 3.0.1 parsed them
// (groundtruth/*.facts.json), then the conversion into the multibody model, whose outcome is derived
// here from those facts (which models have a planar joint, an unphysical inertia to repair or refuse)
// rather than listed by hand.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <nlohmann/json.hpp>
#include <set>

#include "base/load_error.hpp"
#include "sim/urdf/inertia_checks.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_summary.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"
#include "sim/xml/values.hpp"
#include "tests/sim/shared_corpus.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kCorpus = corpus::corpus_dir();

// Both parsers read the same decimal text into the nearest double: values agree exactly, and
// quantities derived from them (rotations from rpy, urdfdom's quaternion round trip) to a few ulps.
constexpr double kDerivedTolerance = 1e-12;
// Total mass: the brief's 1e-9 relative; the sums differ only by summation order (~1e-15).
constexpr double kMassRelativeTolerance = 1e-9;
// Collision origins are reported by urdfdom as rpy recomputed from its quaternion (Rotation::getRPY):
// the round trip through atan2 and asin costs ~1e-11 …
constexpr double kRpyRoundTripTolerance = 1e-10;
// … and within |sin pitch| ≥ 0.99999 of gimbal lock getRPY snaps pitch to ±π/2, i.e. moves the
// rotation by up to acos(0.99999)·√2 ≈ 6.3e-3.
constexpr double kGimbalSnapTolerance = 1e-2;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

const json& manifest() {
  static const json m = fs::exists(kCorpus + "/MANIFEST.json") ? read_json(kCorpus + "/MANIFEST.json") : json();
  return m;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  if (manifest().is_null()) return names;
  for (const json& model : manifest()["models"]) names.push_back(model["name"]);
  return names;
}

const json& manifest_entry(const std::string& name) {
  for (const json& model : manifest()["models"])
    if (model["name"] == name) return model;
  throw std::runtime_error("no model " + name);
}

std::string facts_file(const std::string& name) {
  std::string file = name;
  for (std::size_t i; (i = file.find('/')) != std::string::npos;) file.replace(i, 1, "__");
  return kCorpus + "/groundtruth/" + file + ".facts.json";
}

Eigen::Vector3d vec3(const json& a) { return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()}; }

Eigen::Matrix3d rotation_from_quat_xyzw(const json& q) {
  return Eigen::Quaterniond(q[3].get<double>(), q[0].get<double>(), q[1].get<double>(), q[2].get<double>())
      .normalized()
      .toRotationMatrix();
}

Eigen::Matrix3d inertia_matrix(const json& i) {
  Eigen::Matrix3d I;
  I << i["ixx"], i["ixy"], i["ixz"], i["ixy"], i["iyy"], i["iyz"], i["ixz"], i["iyz"], i["izz"];
  return I;
}

/// ROS_PACKAGE_PATH for a model: each package root's parent folder (the root folder is named after
/// its package, as the ROS convention has it).
std::string package_path_for(const json& model) {
  std::string path;
  for (const auto& [package, root] : model["package_roots"].items()) {
    const fs::path dir = fs::path(kCorpus) / root.get<std::string>();
    EXPECT_EQ(dir.filename().string(), package) << "package root folder must carry the package's name";
    path += (path.empty() ? "" : ":") + dir.parent_path().string();
  }
  return path;
}

using corpus::ScopedPackagePath;

const char* kind_name(UrdfGeometry::Kind kind) {
  switch (kind) {
    case UrdfGeometry::Kind::Box: return "box";
    case UrdfGeometry::Kind::Sphere: return "sphere";
    case UrdfGeometry::Kind::Cylinder: return "cylinder";
    case UrdfGeometry::Kind::Capsule: return "capsule";
    case UrdfGeometry::Kind::Mesh: return "mesh";
  }
  return "?";
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  return fs::equivalent(a, b, error);
}

TEST(UrdfCorpus, IsPresent) {
  SKIP_WITHOUT_URDF_CORPUS();
  EXPECT_EQ(model_names().size(), 33u);
}

class UrdfCorpusModel : public ::testing::TestWithParam<std::string> {
 protected:
  const json& entry() const { return manifest_entry(GetParam()); }
  std::string urdf_path() const { return kCorpus + "/" + entry()["urdf"].get<std::string>(); }
};

// --- the parse, against urdfdom's facts -----------------------------------------------------------------

void expect_same_joint(const UrdfJoint& ours, const json& facts) {
  SCOPED_TRACE("joint " + ours.name);
  EXPECT_EQ(urdf_joint_type_name(ours.type), facts["type"].get<std::string>());
  EXPECT_EQ(ours.parent, facts["parent"].get<std::string>());
  EXPECT_EQ(ours.child, facts["child"].get<std::string>());
  EXPECT_LT((ours.X_PJ.translation() - vec3(facts["origin_xyz"])).norm(), kDerivedTolerance);
  EXPECT_LT((ours.X_PJ.linear() - rotation_from_quat_xyzw(facts["origin_quat_xyzw"])).norm(), kDerivedTolerance);
  if (ours.type != UrdfJointType::Fixed && ours.type != UrdfJointType::Floating) {
    EXPECT_EQ(ours.axis, vec3(facts["axis"]));
  }
  ASSERT_EQ(ours.limit.has_value(), !facts["limit"].is_null());
  if (ours.limit) {
    EXPECT_EQ(ours.limit->lower, facts["limit"]["lower"].get<double>());
    EXPECT_EQ(ours.limit->upper, facts["limit"]["upper"].get<double>());
    EXPECT_EQ(ours.limit->effort, facts["limit"]["effort"].get<double>());
    EXPECT_EQ(ours.limit->velocity, facts["limit"]["velocity"].get<double>());
  }
  ASSERT_EQ(ours.dynamics.has_value(), !facts["dynamics"].is_null());
  if (ours.dynamics) {
    EXPECT_EQ(ours.dynamics->damping, facts["dynamics"]["damping"].get<double>());
    EXPECT_EQ(ours.dynamics->friction, facts["dynamics"]["friction"].get<double>());
  }
  ASSERT_EQ(ours.mimic.has_value(), !facts["mimic"].is_null());
  if (ours.mimic) {
    EXPECT_EQ(ours.mimic->joint, facts["mimic"]["joint"].get<std::string>());
    EXPECT_EQ(ours.mimic->multiplier, facts["mimic"]["multiplier"].get<double>());
    EXPECT_EQ(ours.mimic->offset, facts["mimic"]["offset"].get<double>());
  }
}

void expect_same_geometry(const UrdfCollision& ours, const json& facts) {
  EXPECT_LT((ours.X_LG.translation() - vec3(facts["origin_xyz"])).norm(), kDerivedTolerance);
  const Eigen::Vector3d rpy = vec3(facts["origin_rpy"]);
  const bool snapped = std::abs(rpy.y()) == std::numbers::pi / 2;
  EXPECT_LT((ours.X_LG.linear() - xml::rotation_from_rpy(rpy)).norm(),
            snapped ? kGimbalSnapTolerance : kRpyRoundTripTolerance);
  const json& g = facts["geometry"];
  EXPECT_EQ(kind_name(ours.geometry.kind), g["type"].get<std::string>());
  switch (ours.geometry.kind) {
    case UrdfGeometry::Kind::Box: EXPECT_EQ(ours.geometry.size, vec3(g["size"])); break;
    case UrdfGeometry::Kind::Sphere: EXPECT_EQ(ours.geometry.radius, g["radius"].get<double>()); break;
    case UrdfGeometry::Kind::Cylinder:
      EXPECT_EQ(ours.geometry.radius, g["radius"].get<double>());
      EXPECT_EQ(ours.geometry.length, g["length"].get<double>());
      break;
    case UrdfGeometry::Kind::Mesh:
      EXPECT_EQ(ours.geometry.filename, g["filename"].get<std::string>());
      EXPECT_EQ(ours.geometry.scale, vec3(g["scale"]));
      break;
    case UrdfGeometry::Kind::Capsule: ADD_FAILURE() << "urdfdom has no capsule"; break;
  }
}

void expect_same_link(const UrdfLink& ours, const json& facts, bool urdfdom_dropped_collisions) {
  SCOPED_TRACE("link " + ours.name);
  ASSERT_EQ(ours.inertial.has_value(), !facts["inertial"].is_null());
  if (ours.inertial) {
    const json& in = facts["inertial"];
    EXPECT_EQ(ours.inertial->mass, in["mass"].get<double>());
    EXPECT_EQ(Eigen::Vector3d(ours.inertial->X_LI.translation()), vec3(in["origin_xyz"]));
    EXPECT_LT((ours.inertial->X_LI.linear() - rotation_from_quat_xyzw(in["origin_quat_xyzw"])).norm(), kDerivedTolerance);
    EXPECT_EQ(ours.inertial->I_I, inertia_matrix(in["inertia"]));
  }
  // urdfdom 3.0.1 stops reading a link's collisions at the first one it cannot parse (a capsule):
  // its list is then a prefix of ours, and what follows starts with a capsule.
  const json& collisions = facts["collision"];
  if (urdfdom_dropped_collisions) {
    ASSERT_GT(ours.collisions.size(), collisions.size());
    EXPECT_EQ(ours.collisions[collisions.size()].geometry.kind, UrdfGeometry::Kind::Capsule);
  } else {
    ASSERT_EQ(ours.collisions.size(), collisions.size());
  }
  for (std::size_t i = 0; i < collisions.size(); ++i) expect_same_geometry(ours.collisions[i], collisions[i]);
}

TEST_P(UrdfCorpusModel, ParsesAsUrdfdomDoes) {
  const json& model = entry();
  ScopedPackagePath packages(package_path_for(model));
  if (!model["urdfdom"]["parse_ok"].get<bool>()) {
    // husky: urdfdom refuses an unexpanded xacro expression; so do we, at its line, saying why.
    int expected_line = 0;
    std::ifstream in(urdf_path());
    std::string text;
    for (int line = 1; std::getline(in, text); ++line)
      if (text.find("$(") != std::string::npos) {
        expected_line = line;
        break;
      }
    ASSERT_GT(expected_line, 0);
    try {
      read_urdf(urdf_path());
      FAIL() << "expected a refusal";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), urdf_path());
      EXPECT_EQ(e.line(), expected_line);
      EXPECT_NE(e.message().find("run xacro first"), std::string::npos) << e.what();
    }
    return;
  }
  const UrdfModel urdf = read_urdf(urdf_path());
  const json facts = read_json(facts_file(GetParam()));

  EXPECT_EQ(urdf.name, facts["robot_name"].get<std::string>());
  EXPECT_EQ(urdf.links.size(), facts["num_links"].get<std::size_t>());
  EXPECT_EQ(urdf.joints.size(), facts["num_joints"].get<std::size_t>());
  EXPECT_EQ(urdf.links[urdf.root].name, facts["root_link"].get<std::string>());
  std::map<std::string, int> types;
  for (const UrdfJoint& joint : urdf.joints) ++types[urdf_joint_type_name(joint.type)];
  for (const auto& [type, count] : facts["joint_types"].items()) EXPECT_EQ(types[type], count.get<int>()) << type;
  EXPECT_NEAR(urdf.total_mass(), facts["total_mass"].get<double>(),
              kMassRelativeTolerance * std::max(1.0, facts["total_mass"].get<double>()));

  std::set<std::string> without_inertial;
  for (const UrdfLink& link : urdf.links)
    if (!link.inertial) without_inertial.insert(link.name);
  EXPECT_EQ(without_inertial, facts["links_without_inertial"].get<std::set<std::string>>());

  std::set<std::string> dropped;  // links whose collisions urdfdom stopped reading
  for (const json& message : model["urdfdom"]["messages"]) {
    const std::string text = message["text"];
    const std::string marker = "Could not parse collision element for Link [";
    if (text.starts_with(marker)) dropped.insert(text.substr(marker.size(), text.size() - marker.size() - 1));
  }
  for (const json& link : facts["links"]) {
    const int i = urdf.find_link(link["name"]);
    ASSERT_GE(i, 0) << link["name"];
    expect_same_link(urdf.links[i], link, dropped.count(link["name"]) > 0);
  }
  for (const json& joint : facts["joints"]) {
    const int j = urdf.find_joint(joint["name"]);
    ASSERT_GE(j, 0) << joint["name"];
    expect_same_joint(urdf.joints[j], joint);
  }

  // Collision shapes as the XML holds them (for humanoid more than urdfdom kept: its capsules).
  std::map<std::string, int> shapes;
  for (const UrdfLink& link : urdf.links)
    for (const UrdfCollision& c : link.collisions) ++shapes[kind_name(c.geometry.kind)];
  std::map<std::string, int> raw;
  for (const auto& [kind, count] : model["raw_xml"]["geometry_elements"]["collision"].items())
    if (kind != "declare_convex") raw[kind] = count;  // atlas: <drake:declare_convex/> beside a mesh
  EXPECT_EQ(shapes, raw);

  // Mesh references: every (link, role, filename, scale) urdfdom reports, resolved to the corpus file.
  std::multiset<std::string> ours, theirs;
  const auto key = [](const std::string& link, const std::string& role, const std::string& file, const Eigen::Vector3d& s) {
    std::ostringstream k;
    k << link << "|" << role << "|" << file << "|" << s.transpose();
    return k.str();
  };
  std::map<std::string, std::string> resolved;  // filename → path we resolved it to
  for (const UrdfLink& link : urdf.links) {
    for (const UrdfCollision& c : link.collisions)
      if (c.geometry.kind == UrdfGeometry::Kind::Mesh) {
        ours.insert(key(link.name, "collision", c.geometry.filename, c.geometry.scale));
        resolved[c.geometry.filename] = c.geometry.path;
      }
    for (const UrdfVisualMesh& v : link.visual_meshes) {
      ours.insert(key(link.name, "visual", v.filename, v.scale));
      if (!v.path.empty()) resolved[v.filename] = v.path;
    }
  }
  for (const json& m : facts["meshes"]) theirs.insert(key(m["link"], m["role"], m["filename"], vec3(m["scale"])));
  EXPECT_EQ(ours, theirs);
  for (const json& m : model["meshes"]) {
    const std::string filename = m["filename"];
    ASSERT_TRUE(resolved.count(filename)) << filename;
    EXPECT_TRUE(m["exists"].get<bool>());
    EXPECT_TRUE(same_file(resolved[filename], kCorpus + "/" + m["corpus_path"].get<std::string>()))
        << filename << " resolved to " << resolved[filename];
  }
}

// --- the conversion, with its outcome derived from the facts ----------------------------------------------

/// How the conversion treats inertias: repaired with warnings (the default), refused (strict), or the
/// triangle inequality not checked at all.
enum class Policy { Repair, Strict, Unchecked };

/// What the default must repair, from urdfdom's facts: links whose inertia breaks the triangle
/// inequality, joints that move no inertia.
struct ExpectedRepairs {
  std::vector<std::string> links, joints;
};

/// Why the conversion must refuse a model, from urdfdom's facts and the manifest; empty if it must not.
/// Checked in the converter's order: inertials, joints, collision meshes.
std::vector<std::string> expected_refusals(const json& facts, Policy policy,
                                           ExpectedRepairs* repairs = nullptr) {
  std::vector<std::string> reasons;
  for (const json& link : facts["links"]) {
    if (link["inertial"].is_null()) continue;
    const Eigen::Matrix3d I = inertia_matrix(link["inertial"]["inertia"]);
    const Eigen::Vector3d l = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues();
    const double tolerance = kInertiaRoundingTolerance * I.trace();
    if (l[0] < -tolerance) reasons.push_back("positive definite");
    else if (policy != Policy::Unchecked && l[0] + l[1] < l[2] - tolerance) {
      if (policy == Policy::Strict) reasons.push_back("triangle inequality");
      else if (repairs) repairs->links.push_back(link["name"]);
    }
  }
  // A moving joint whose child and descendants have neither mass nor rotational inertia.
  std::map<std::string, double> inertia_weight;  // per link: mass + tr(I), 0 for a bare frame
  std::map<std::string, std::vector<std::string>> children;
  for (const json& link : facts["links"])
    inertia_weight[link["name"]] = link["inertial"].is_null()
                                       ? 0.0
                                       : link["inertial"]["mass"].get<double>() + inertia_matrix(link["inertial"]["inertia"]).trace();
  for (const json& joint : facts["joints"]) children[joint["parent"]].push_back(joint["child"]);
  const std::function<double(const std::string&)> subtree = [&](const std::string& link) {
    double w = inertia_weight[link];
    for (const std::string& c : children[link]) w += subtree(c);
    return w;
  };
  for (const json& joint : facts["joints"])
    if (joint["type"] != "fixed" && subtree(joint["child"]) == 0) {
      if (policy == Policy::Strict) reasons.push_back("moves no inertia");
      else if (repairs) repairs->joints.push_back(joint["name"]);
    }
  return reasons;
}

void check_conversion(const UrdfModel& urdf, const json& model, const json& facts, Policy policy) {
  ExpectedRepairs repairs;
  const std::vector<std::string> reasons = expected_refusals(facts, policy, &repairs);
  UrdfPlacement placement;
  placement.prefix = "m";
  placement.check_triangle_inequality = policy != Policy::Unchecked;
  placement.strict = policy == Policy::Strict;
  if (!reasons.empty()) {
    try {
      urdf_to_multibody(urdf, placement);
      ADD_FAILURE() << "expected a refusal (" << reasons.front() << ")";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), urdf.file);
      EXPECT_GT(e.line(), 0);
      EXPECT_NE(e.message().find(reasons.front()), std::string::npos) << e.what();
    }
    return;
  }
  const UrdfMultibody out = urdf_to_multibody(urdf, placement);
  EXPECT_EQ(out.multibody.links.size(), urdf.links.size());
  int nv = 0;
  for (const UrdfJoint& joint : urdf.joints)
    nv += joint.type == UrdfJointType::Fixed      ? 0
          : joint.type == UrdfJointType::Floating ? 6
          : joint.type == UrdfJointType::Planar   ? 3
                                                  : 1;
  EXPECT_EQ(out.multibody.nv, nv);
  // Each repair is a warning at a line of the URDF naming what was repaired; nothing else warns.
  ASSERT_EQ(out.instance.warnings.size(), repairs.links.size() + repairs.joints.size());
  std::vector<std::string> named;
  for (const std::string& link : repairs.links) named.push_back("link '" + link + "'");
  for (const std::string& joint : repairs.joints) named.push_back("joint 'm/" + joint + "'");
  for (const std::string& what : named) {
    const auto w = std::find_if(out.instance.warnings.begin(), out.instance.warnings.end(),
                                [&](const LoadWarning& w) { return w.message.find(what) != std::string::npos; });
    ASSERT_NE(w, out.instance.warnings.end()) << "no warning names " << what;
    EXPECT_EQ(w->file, urdf.file);
    EXPECT_GT(w->line, 0);
  }
  // Total mass: urdfdom's, plus what inertia floors added (none for a revolute joint's floor), which is
  // bounded by kInertiaFloorFraction of the model per floor.
  double mass = 0;
  for (const Link& link : out.multibody.links) mass += link.inertia.mass;
  const double facts_mass = facts["total_mass"].get<double>();
  EXPECT_LE(out.instance.mass_added, kInertiaFloorFraction * facts_mass * repairs.joints.size());
  EXPECT_NEAR(mass, facts_mass + out.instance.mass_added, kMassRelativeTolerance * std::max(1.0, mass));
  std::size_t collisions = 0;
  for (const UrdfLink& link : urdf.links) collisions += link.collisions.size();
  EXPECT_EQ(out.geometries.size(), collisions);
  for (const Geometry& g : out.geometries)
    if (const Mesh* mesh = std::get_if<Mesh>(&g.shape)) {
      EXPECT_FALSE(mesh->triangles.empty()) << mesh->filename;
      EXPECT_TRUE(fs::is_regular_file(mesh->filename));
    }
  // `impetus check`'s summary against the manifest's facts: links, joints by type, mimic joints, total
  // mass (as written; as simulated after floors), collision geometries as the XML holds them.
  const UrdfSummary summary = summarize_urdf("m", urdf, out.instance, out.multibody, out.geometries);
  EXPECT_EQ(summary.links, model["num_links"].get<int>());
  for (const auto& [type, count] : model["joint_types"].items())
    if (type != "unknown") {
      EXPECT_EQ(summary.joints_by_type.at(type), count.get<int>()) << type;
    }
  EXPECT_EQ(summary.mimic_joints, static_cast<int>(model["mimic_joints"].size()));
  // The couplings as loaded into the dynamics (dynamics/mimic.hpp) are the manifest's: follower, leader,
  // multiplier and offset.
  for (const json& m : model["mimic_joints"]) {
    const int u = urdf.find_joint(m["joint"].get<std::string>());
    ASSERT_GE(u, 0) << m["joint"];
    const Joint& follower = out.multibody.links[out.instance.joint_link[u]].joint;
    ASSERT_GE(follower.mimic, 0) << m["joint"];
    EXPECT_EQ(follower.mimic, out.instance.joint_link[urdf.find_joint(m["mimics"].get<std::string>())]) << m["joint"];
    EXPECT_EQ(follower.mimic_multiplier, m["multiplier"].get<double>()) << m["joint"];
    EXPECT_EQ(follower.mimic_offset, m["offset"].get<double>()) << m["joint"];
  }
  EXPECT_NEAR(summary.mass_as_written, model["total_mass"].get<double>(), kMassRelativeTolerance * std::max(1.0, mass));
  EXPECT_NEAR(summary.mass, model["total_mass"].get<double>() + out.instance.mass_added,
              kMassRelativeTolerance * std::max(1.0, mass));
  std::map<std::string, int> raw_shapes;
  for (const auto& [kind, count] : model["raw_xml"]["geometry_elements"]["collision"].items())
    if (kind != "declare_convex" && count.get<int>() > 0) raw_shapes[kind] = count;
  EXPECT_EQ(summary.collision_geometries, raw_shapes);
  EXPECT_EQ(summary.dof, out.multibody.nv);
  EXPECT_EQ(summary.warnings.size(), out.instance.warnings.size());
  // Parents precede children and every link is named MODEL/LINK.
  for (std::size_t i = 0; i < out.multibody.links.size(); ++i) {
    EXPECT_LT(out.multibody.links[i].parent, static_cast<int>(i));
    EXPECT_TRUE(out.multibody.links[i].name.starts_with("m/"));
  }
}

TEST_P(UrdfCorpusModel, ConvertsOrIsRefusedForAReason) {
  const json& model = entry();
  ScopedPackagePath packages(package_path_for(model));
  if (!model["urdfdom"]["parse_ok"].get<bool>()) {  // husky: nothing to convert (ParsesAsUrdfdomDoes)
    EXPECT_THROW(read_urdf(urdf_path()), LoadError);
    return;
  }
  const UrdfModel urdf = read_urdf(urdf_path());
  const json facts = read_json(facts_file(GetParam()));
  {
    SCOPED_TRACE("inertias repaired (the default)");
    check_conversion(urdf, model, facts, Policy::Repair);
  }
  {
    SCOPED_TRACE("strict: refused instead of repaired");
    check_conversion(urdf, model, facts, Policy::Strict);
  }
  {
    SCOPED_TRACE("triangle inequality not checked");
    check_conversion(urdf, model, facts, Policy::Unchecked);
  }
}

TEST(UrdfCorpus, StrictRefusesTheModelsTheDefaultRepairs) {
  // Six models whose inertias break the triangle inequality, and widowx, whose
  // revolute joint turns only a bare frame. Each loads by default and is refused when strict, with the
  // URDF's file and a line.
  const std::set<std::string> expected = {"anymal_c", "allegro_right", "pr2", "xarm6_gripper", "hyq",
                                          "edge-cases/inertial_rpy", "widowx"};
  SKIP_WITHOUT_URDF_CORPUS();
  std::set<std::string> refused;
  for (const std::string& name : model_names()) {
    const json& model = manifest_entry(name);
    if (!model["urdfdom"]["parse_ok"].get<bool>()) continue;  // husky: refused by the reader
    ScopedPackagePath packages(package_path_for(model));
    const UrdfModel urdf = read_urdf(kCorpus + "/" + model["urdf"].get<std::string>());
    UrdfPlacement strict;
    strict.strict = true;
    try {
      urdf_to_multibody(urdf, strict);
    } catch (const LoadError& e) {
      refused.insert(name);
      EXPECT_EQ(e.file(), urdf.file);
      EXPECT_GT(e.line(), 0);
    }
  }
  SKIP_WITHOUT_URDF_CORPUS();
  EXPECT_EQ(refused, expected);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, UrdfCorpusModel, ::testing::ValuesIn(model_names()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(UrdfCorpusModel);

}  // namespace
}  // namespace impetus
