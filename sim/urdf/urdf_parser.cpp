#include "sim/urdf/urdf_parser.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "base/load_error.hpp"
#include "sim/xml/values.hpp"

namespace impetus {
namespace {

using xml::Element;

// --- model queries -----------------------------------------------------------------------------------

template <class Item>
int find_by_name(const std::vector<Item>& items, const std::string& name) {
  for (int i = 0; i < static_cast<int>(items.size()); ++i)
    if (items[i].name == name) return i;
  return -1;
}

// --- xacro ---------------------------------------------------------------------------------------------

/// An unexpanded xacro file holds <xacro:…> elements; refuse at the first one.
void refuse_xacro_elements(const tinyxml2::XMLElement* element, const std::string& file) {
  for (const tinyxml2::XMLElement* c = element->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string_view(c->Name()).starts_with("xacro:"))
      throw LoadError(file, c->GetLineNum(),
                      "<" + std::string(c->Name()) + ">: xacro macros are not expanded here; run xacro first "
                      "(xacro FILE.urdf.xacro > FILE.urdf)");
    refuse_xacro_elements(c, file);
  }
}

// --- elements --------------------------------------------------------------------------------------------

std::string required_name(const Element& e) {
  const std::string name = e.text("name");
  if (name.empty()) e.fail_value("name", "a non-empty name");
  return name;
}

Eigen::Isometry3d origin_of(const Element& parent, bool strict) {
  const std::optional<Element> origin = strict ? parent.unique_child("origin") : parent.child("origin");
  if (!origin) return Eigen::Isometry3d::Identity();
  if (strict) origin->allow_only({"xyz", "rpy"}, {});
  return origin->pose();
}

UrdfCollision read_collision(const Element& e, const std::string& base_dir, const std::vector<std::string>& packages) {
  UrdfCollision c;
  c.line = e.line();
  if (const char* name = e.attribute("name")) c.name = name;
  c.X_LG = origin_of(e, false);
  const std::optional<Element> geometry = e.child("geometry");
  if (!geometry) e.fail("missing child element <geometry>");
  c.geometry = read_geometry(*geometry, false, base_dir, packages);
  return c;
}

/// Visuals are not simulated: keep their mesh references when they read cleanly, never refuse.
void read_visual_mesh(const Element& visual, const std::string& base_dir, const std::vector<std::string>& packages,
                      std::vector<UrdfVisualMesh>& out) {
  const std::optional<Element> geometry = visual.child("geometry");
  if (!geometry || geometry->children().empty()) return;
  const Element shape = geometry->children().front();
  const char* filename = shape.attribute("filename");
  if (shape.tag() != "mesh" || !filename) return;
  UrdfVisualMesh mesh;
  mesh.filename = filename;
  mesh.line = shape.line();
  if (const char* scale = shape.attribute("scale")) {
    const std::optional<std::vector<double>> s = xml::parse_reals(scale);
    if (!s || s->size() != 3) return;
    mesh.scale = Eigen::Vector3d((*s)[0], (*s)[1], (*s)[2]);
  }
  const ResolvedPath resolved = resolve_resource(mesh.filename, base_dir, packages);
  if (resolved.ok()) mesh.path = resolved.path;
  out.push_back(mesh);
}

UrdfLink read_link(const Element& e, const std::string& base_dir, const std::vector<std::string>& packages) {
  UrdfLink link;
  link.line = e.line();
  link.name = required_name(e);
  if (const std::optional<Element> inertial = e.child("inertial")) link.inertial = read_inertial(*inertial, false);
  for (const Element& collision : e.children("collision"))
    link.collisions.push_back(read_collision(collision, base_dir, packages));
  for (const Element& visual : e.children("visual")) read_visual_mesh(visual, base_dir, packages, link.visual_meshes);
  return link;
}

UrdfJointType joint_type(const Element& e) {
  const std::string type = e.text("type");
  if (type == "revolute") return UrdfJointType::Revolute;
  if (type == "continuous") return UrdfJointType::Continuous;
  if (type == "prismatic") return UrdfJointType::Prismatic;
  if (type == "fixed") return UrdfJointType::Fixed;
  if (type == "floating") return UrdfJointType::Floating;
  if (type == "planar") return UrdfJointType::Planar;
  e.fail_value("type", "revolute, continuous, prismatic, fixed, floating or planar");
}

std::string link_reference(const Element& joint, const char* tag) {
  const std::optional<Element> e = joint.child(tag);
  if (!e || !e->has("link")) joint.fail(std::string("missing <") + tag + " link=\"…\">");
  const std::string name = e->text("link");
  if (name.empty()) e->fail_value("link", "a link name");
  return name;
}

UrdfJoint read_joint(const Element& e) {
  UrdfJoint joint;
  joint.line = e.line();
  joint.name = required_name(e);
  joint.type = joint_type(e);
  joint.X_PJ = origin_of(e, false);
  joint.parent = link_reference(e, "parent");
  joint.child = link_reference(e, "child");
  if (joint.type != UrdfJointType::Fixed && joint.type != UrdfJointType::Floating)
    if (const std::optional<Element> axis = e.child("axis"))
      joint.axis = axis->has("xyz") ? axis->vector3("xyz") : Eigen::Vector3d::Zero();  // as urdfdom
  if (const std::optional<Element> limit = e.child("limit")) {
    UrdfLimit l;
    l.line = limit->line();
    l.lower = limit->real_or("lower", 0);
    l.upper = limit->real_or("upper", 0);
    l.effort = limit->real("effort");
    l.velocity = limit->real("velocity");
    joint.limit = l;
  } else if (joint.type == UrdfJointType::Revolute || joint.type == UrdfJointType::Prismatic) {
    e.fail(std::string("a ") + urdf_joint_type_name(joint.type) + " joint needs <limit effort=\"…\" velocity=\"…\">");
  }
  if (const std::optional<Element> safety = e.child("safety_controller")) {
    safety->real("k_velocity");
    for (const char* a : {"soft_lower_limit", "soft_upper_limit", "k_position"}) safety->real_or(a, 0);
  }
  if (const std::optional<Element> calibration = e.child("calibration"))
    for (const char* a : {"rising", "falling"}) calibration->real_or(a, 0);
  if (const std::optional<Element> mimic = e.child("mimic")) {
    UrdfMimic m;
    m.line = mimic->line();
    m.joint = mimic->text("joint");
    m.multiplier = mimic->real_or("multiplier", 1);
    m.offset = mimic->real_or("offset", 0);
    joint.mimic = m;
  }
  if (const std::optional<Element> dynamics = e.child("dynamics")) {
    if (!dynamics->has("damping") && !dynamics->has("friction"))
      dynamics->fail("needs damping or friction (or both)");
    joint.dynamics = UrdfDynamics{dynamics->real_or("damping", 0), dynamics->real_or("friction", 0), dynamics->line()};
  }
  return joint;
}

// --- topology ----------------------------------------------------------------------------------------------

[[noreturn]] void fail_at(const UrdfModel& model, int line, const std::string& message) {
  throw LoadError(model.file, line, message);
}

void check_names_and_references(UrdfModel& model) {
  std::unordered_map<std::string, int> link_index, joint_index;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    const UrdfLink& link = model.links[i];
    const auto [it, inserted] = link_index.emplace(link.name, i);
    if (!inserted)
      fail_at(model, link.line, "duplicate link name '" + link.name + "' (first defined at line " +
                                    std::to_string(model.links[it->second].line) + ")");
  }
  model.parent_joint.assign(model.links.size(), -1);
  model.child_joints.assign(model.links.size(), {});
  for (int j = 0; j < static_cast<int>(model.joints.size()); ++j) {
    const UrdfJoint& joint = model.joints[j];
    const auto [it, inserted] = joint_index.emplace(joint.name, j);
    if (!inserted)
      fail_at(model, joint.line, "duplicate joint name '" + joint.name + "' (first defined at line " +
                                     std::to_string(model.joints[it->second].line) + ")");
    const auto parent = link_index.find(joint.parent);
    if (parent == link_index.end())
      fail_at(model, joint.line, "joint '" + joint.name + "' names parent link '" + joint.parent + "', which is not defined");
    const auto child = link_index.find(joint.child);
    if (child == link_index.end())
      fail_at(model, joint.line, "joint '" + joint.name + "' names child link '" + joint.child + "', which is not defined");
    if (parent->second == child->second)
      fail_at(model, joint.line, "joint '" + joint.name + "' joins link '" + joint.child + "' to itself (a kinematic cycle)");
    int& parent_joint = model.parent_joint[child->second];
    if (parent_joint >= 0)
      fail_at(model, joint.line, "link '" + joint.child + "' is the child of two joints, '" +
                                     model.joints[parent_joint].name + "' (line " +
                                     std::to_string(model.joints[parent_joint].line) + ") and '" + joint.name +
                                     "' (a kinematic loop; URDF describes trees)");
    parent_joint = j;
    model.child_joints[parent->second].push_back(j);
  }
  for (const UrdfJoint& joint : model.joints) {
    if (!joint.mimic) continue;
    const auto target = joint_index.find(joint.mimic->joint);
    if (target == joint_index.end())
      fail_at(model, joint.mimic->line, "joint '" + joint.name + "' mimics joint '" + joint.mimic->joint + "', which is not defined");
    if (target->second == joint_index[joint.name])
      fail_at(model, joint.mimic->line, "joint '" + joint.name + "' mimics itself");
  }
}

void find_root(UrdfModel& model) {
  std::vector<int> roots;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i)
    if (model.parent_joint[i] < 0) roots.push_back(i);
  if (roots.size() > 1) {
    std::string names;
    for (int r : roots) names += (names.empty() ? "'" : ", '") + model.links[r].name + "'";
    fail_at(model, model.links[roots[1]].line,
            "several root links (links that no joint has as child): " + names +
                "; a URDF describes one tree: join them with joints");
  }
  // Every link has one parent: following parents from any link either reaches the root or cycles.
  std::vector<int> state(model.links.size(), 0);  // 0 unseen, 1 on the current path, 2 reaches the root
  for (int start = 0; start < static_cast<int>(model.links.size()); ++start) {
    std::vector<int> path;
    int link = start;
    while (link >= 0 && state[link] == 0) {
      state[link] = 1;
      path.push_back(link);
      const int joint = model.parent_joint[link];
      link = joint < 0 ? -1 : model.find_link(model.joints[joint].parent);
    }
    if (link >= 0 && state[link] == 1) {  // back on the current path: a cycle through `link`
      std::string cycle = model.links[link].name;
      int line = 0;
      for (int l = link;;) {
        const UrdfJoint& joint = model.joints[model.parent_joint[l]];
        line = std::max(line, joint.line);  // report the joint that closes the cycle in file order
        l = model.find_link(joint.parent);
        cycle += " ← " + model.links[l].name;
        if (l == link) break;
      }
      fail_at(model, line, "kinematic cycle: " + cycle + " (each link shown with its parent; URDF describes trees)");
    }
    for (int l : path) state[l] = 2;
  }
  if (roots.empty()) fail_at(model, model.links.front().line, "no root link: every link is the child of a joint");
  model.root = roots.front();
}

UrdfModel read_document(const xml::Document& document, const std::vector<std::string>& packages) {
  const Element robot = document.root("robot");
  refuse_xacro_elements(robot.raw_element(), document.file());
  UrdfModel model;
  model.file = document.file();
  model.name = robot.text("name");
  if (robot.has("version")) {
    const std::string version = robot.text("version");
    if (version != "1.0" && version != "1") robot.fail_value("version", "1.0 (the only URDF version)");
  }
  const std::string base_dir = folder_of(document.file());
  for (const Element& link : robot.children("link")) model.links.push_back(read_link(link, base_dir, packages));
  if (model.links.empty()) robot.fail("no <link> elements");
  for (const Element& joint : robot.children("joint")) model.joints.push_back(read_joint(joint));
  for (const UrdfJoint& joint : model.joints)
    if (joint.limit && joint.limit->lower > joint.limit->upper &&
        (joint.type == UrdfJointType::Revolute || joint.type == UrdfJointType::Prismatic))
      fail_at(model, joint.limit->line, "<limit> of joint '" + joint.name + "': lower (" +
                                            std::to_string(joint.limit->lower) + ") exceeds upper (" +
                                            std::to_string(joint.limit->upper) + ")");
  check_names_and_references(model);
  find_root(model);
  return model;
}

}  // namespace

// --- public ------------------------------------------------------------------------------------------------

const char* urdf_joint_type_name(UrdfJointType type) {
  switch (type) {
    case UrdfJointType::Revolute: return "revolute";
    case UrdfJointType::Continuous: return "continuous";
    case UrdfJointType::Prismatic: return "prismatic";
    case UrdfJointType::Fixed: return "fixed";
    case UrdfJointType::Floating: return "floating";
    case UrdfJointType::Planar: return "planar";
  }
  return "?";
}

int UrdfModel::find_link(const std::string& link_name) const { return find_by_name(links, link_name); }
int UrdfModel::find_joint(const std::string& joint_name) const { return find_by_name(joints, joint_name); }

double UrdfModel::total_mass() const {
  double m = 0;
  for (const UrdfLink& link : links)
    if (link.inertial) m += link.inertial->mass;
  return m;
}

UrdfInertial read_inertial(const Element& e, bool strict) {
  UrdfInertial inertial;
  inertial.line = e.line();
  if (strict) e.allow_only({}, {"origin", "mass", "inertia"});
  inertial.X_LI = origin_of(e, strict);
  const std::optional<Element> mass = strict ? e.unique_child("mass") : e.child("mass");
  if (!mass) e.fail("missing child element <mass value=\"…\">");
  if (strict) mass->allow_only({"value"}, {});
  inertial.mass = mass->real("value");
  inertial.mass_line = mass->line();
  const std::optional<Element> inertia = strict ? e.unique_child("inertia") : e.child("inertia");
  if (!inertia) e.fail("missing child element <inertia ixx=\"…\" ixy=\"…\" ixz=\"…\" iyy=\"…\" iyz=\"…\" izz=\"…\">");
  if (strict) inertia->allow_only({"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}, {});
  const double ixx = inertia->real("ixx"), ixy = inertia->real("ixy"), ixz = inertia->real("ixz");
  const double iyy = inertia->real("iyy"), iyz = inertia->real("iyz"), izz = inertia->real("izz");
  inertial.I_I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  inertial.inertia_line = inertia->line();
  return inertial;
}

UrdfGeometry read_geometry(const Element& geometry, bool strict, const std::string& base_dir,
                           const std::vector<std::string>& package_path) {
  const std::vector<Element> shapes = geometry.children();
  if (strict) geometry.allow_only({}, {"box", "sphere", "cylinder", "capsule", "mesh"});
  if (shapes.empty()) geometry.fail("no shape inside (expected box, sphere, cylinder, capsule or mesh)");
  if (strict && shapes.size() > 1) shapes[1].fail("a <geometry> holds one shape");
  const Element& shape = shapes.front();
  UrdfGeometry g;
  g.line = shape.line();
  const auto positive = [&](const char* attribute) { return shape.positive(attribute); };
  if (shape.tag() == "box") {
    if (strict) shape.allow_only({"size"}, {});
    g.kind = UrdfGeometry::Kind::Box;
    g.size = shape.vector3("size");
    if ((g.size.array() <= 0).any()) shape.fail_value("size", "3 positive edge lengths \"x y z\"");
  } else if (shape.tag() == "sphere") {
    if (strict) shape.allow_only({"radius"}, {});
    g.kind = UrdfGeometry::Kind::Sphere;
    g.radius = shape.non_negative_or("radius", -1);  // 0: a contact point (Drake's models use them)
    if (g.radius < 0) shape.fail_value("radius", "a non-negative number");
  } else if (shape.tag() == "cylinder" || shape.tag() == "capsule") {
    if (strict) shape.allow_only({"radius", "length"}, {});
    g.kind = shape.tag() == "cylinder" ? UrdfGeometry::Kind::Cylinder : UrdfGeometry::Kind::Capsule;
    g.radius = positive("radius");
    g.length = positive("length");
  } else if (shape.tag() == "mesh") {
    if (strict) shape.allow_only({"filename", "scale"}, {});
    g.kind = UrdfGeometry::Kind::Mesh;
    g.filename = shape.text("filename");
    g.scale = shape.vector3_or("scale", Eigen::Vector3d::Ones());
    if ((g.scale.array() == 0).any()) shape.fail_value("scale", "3 non-zero factors \"x y z\"");
    const ResolvedPath resolved = resolve_resource(g.filename, base_dir, package_path);
    if (!resolved.ok()) shape.fail(resolved.error);
    std::error_code error;
    if (!std::filesystem::is_regular_file(resolved.path, error))
      shape.fail("mesh file not found: '" + resolved.path + "' (from '" + g.filename + "')");
    g.path = resolved.path;
  } else {
    shape.fail("unknown geometry (expected box, sphere, cylinder, capsule or mesh)");
  }
  return g;
}

UrdfModel read_urdf(const std::string& path, const std::vector<std::string>& package_path) {
  return read_document(xml::Document::parse_file(path), package_path);
}

UrdfModel read_urdf_string(const std::string& text, const std::string& file,
                           const std::vector<std::string>& package_path) {
  return read_document(xml::Document::parse_string(text, file), package_path);
}

}  // namespace impetus
