// <model>: a URDF placed in the scene, with initial joint coordinates.
#include <filesystem>
#include <map>

#include "base/load_error.hpp"
#include "sim/scene/scene_parts.hpp"
#include "sim/urdf/urdf_parser.hpp"

namespace impetus::scene {
namespace {

bool is_one_dof(UrdfJointType type) {
  return type == UrdfJointType::Revolute || type == UrdfJointType::Continuous || type == UrdfJointType::Prismatic;
}

}  // namespace

void add_model(const xml::Element& element, SceneBuild& build) {
  element.allow_only({"name", "urdf", "base", "check_triangle_inequality", "self_collision", "mesh_collision"},
                     {"origin", "joint", "actuator", "controller"});
  const std::string name = element.text("name");
  claim_name(element, name, ".", build);

  const std::string reference = element.text("urdf");
  const ResolvedPath urdf_path = resolve_resource(reference, build.base_dir, build.package_path);
  if (!urdf_path.ok()) element.fail("attribute urdf: " + urdf_path.error);
  std::error_code error;
  if (!std::filesystem::is_regular_file(urdf_path.path, error))
    element.fail("attribute urdf: file not found: '" + urdf_path.path + "' (from '" + reference + "')");
  const std::string base = element.text("base");
  if (base != "floating" && base != "fixed") element.fail_value("base", "floating or fixed");

  const std::string self_collision = element.text_or("self_collision", "off");
  ModelCollision policy{name, SelfCollision::Off, element.line()};
  if (self_collision == "filtered") policy.self_collision = SelfCollision::Filtered;
  else if (self_collision == "on") policy.self_collision = SelfCollision::On;
  else if (self_collision != "off") element.fail_value("self_collision", "off, filtered or on");

  UrdfPlacement placement;
  placement.prefix = name;
  placement.floating_base = base == "floating";
  placement.check_triangle_inequality = element.boolean_or("check_triangle_inequality", true);
  placement.strict = build.strict;
  placement.exact_meshes = exact_mesh_collision(element);
  if (const std::optional<xml::Element> origin = element.unique_child("origin")) {
    origin->allow_only({"xyz", "rpy"}, {});
    placement.X_WR = origin->pose();
  }

  const UrdfModel urdf = read_urdf(urdf_path.path, build.package_path);

  // Initial joint coordinates, checked against the URDF before anything is added.
  struct Setting { int joint; double position, velocity; };
  std::vector<Setting> settings;
  std::map<std::string, int> seen;
  for (const xml::Element& joint : element.children("joint")) {
    joint.allow_only({"name", "position", "velocity"}, {});
    const std::string joint_name = joint.text("name");
    if (const auto [it, inserted] = seen.emplace(joint_name, joint.line()); !inserted)
      joint.fail("joint '" + joint_name + "' already set at line " + std::to_string(it->second));
    const int j = urdf.find_joint(joint_name);
    if (j < 0) joint.fail_value("name", "a joint of " + urdf_path.path);
    const UrdfJoint& uj = urdf.joints[j];
    if (!is_one_dof(uj.type))
      joint.fail("joint '" + joint_name + "' is " + urdf_joint_type_name(uj.type) +
                 "; only revolute, continuous and prismatic joints take a position and velocity");
    if (uj.mimic)
      joint.fail("joint '" + joint_name + "' mimics joint '" + uj.mimic->joint +
                 "' (q = multiplier·q_leader + offset): set the leader's position and velocity instead");
    const double position = joint.real_or("position", 0), velocity = joint.real_or("velocity", 0);
    if (uj.type != UrdfJointType::Continuous && uj.limit && (position < uj.limit->lower || position > uj.limit->upper))
      joint.fail_value("position", "a position within the joint's limits [" + std::to_string(uj.limit->lower) + ", " +
                                       std::to_string(uj.limit->upper) + "]");
    settings.push_back({j, position, velocity});
  }
  std::vector<std::pair<int, JointActuator>> actuated;   // URDF joint, its actuator (link set below)
  std::map<std::string, int> driven;
  for (const xml::Element& actuator : element.children("actuator")) {
    const std::string joint_name = actuator.text("joint");
    if (const auto [it, inserted] = driven.emplace(joint_name, actuator.line()); !inserted)
      actuator.fail("joint '" + joint_name + "' already has an <actuator> at line " + std::to_string(it->second));
    const int j = urdf.find_joint(joint_name);
    if (j < 0) actuator.fail_value("joint", "a joint of " + urdf_path.path);
    if (!is_one_dof(urdf.joints[j].type))
      actuator.fail("joint '" + joint_name + "' is " + urdf_joint_type_name(urdf.joints[j].type) +
                    "; only revolute, continuous and prismatic joints take an actuator");
    actuated.emplace_back(j, read_actuator(actuator, -1));
  }

  std::optional<ControllerDraft> controller;
  if (const std::optional<xml::Element> c = element.unique_child("controller")) controller = read_controller(*c, urdf, urdf_path.path);

  MultibodyModel& multibody = build.model.multibody;
  const UrdfInstance instance = add_urdf_to_model(urdf, placement, multibody, build.model.geometries, build.meshes);
  build.tree_lines.resize(multibody.trees.size(), element.line());
  build.model.warnings.insert(build.model.warnings.end(), instance.warnings.begin(), instance.warnings.end());
  build.urdf_models.push_back(summarize_urdf(name, urdf, instance, multibody, build.model.geometries));
  build.model.collision.models.push_back(policy);
  build.model_links.push_back(instance.link_index);
  for (const auto& pose : instance.floating_poses) build.initial.floating_poses.push_back(pose);
  for (const Setting& s : settings)
    build.initial.joint_values.push_back({instance.joint_link[s.joint], s.position, s.velocity});
  for (auto [j, actuator] : actuated) {
    actuator.link = instance.joint_link[j];
    build.model.actuators.push_back(actuator);
  }
  if (controller) {
    std::map<int, double> initial_position;
    for (const Setting& s : settings) initial_position[s.joint] = s.position;
    add_controller(*controller, element, name, urdf, instance, initial_position, build);
  }
  for (std::size_t j = 0; j < urdf.joints.size(); ++j) {
    if (!is_one_dof(urdf.joints[j].type)) continue;
    const Joint& joint = multibody.links[instance.joint_link[j]].joint;
    build.model.recorded_joints.push_back({name + "." + urdf.joints[j].name, joint.q_index, joint.v_index});
  }
}

}  // namespace impetus::scene
