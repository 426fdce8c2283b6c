// <controller>, inside a <model>: stage 3's controller of that model (control/controller.hpp,
// sim/control_stage.hpp). README documents every attribute.
#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <variant>

#include "base/load_error.hpp"
#include "sim/scene/scene_parts.hpp"

namespace impetus::scene {
namespace {

/// <trot legs base_height foot_height [duration cycle duty step_height speed max_offset max_turn anchor_aim]/>.
ControllerDraft::Trot read_trot(const xml::Element& trot, const UrdfModel& urdf, const std::string& urdf_path) {
  trot.allow_only({"legs", "base_height", "foot_height", "duration", "cycle", "duty", "step_height", "speed",
                   "max_offset", "max_turn", "anchor_aim"},
                  {});
  ControllerDraft::Trot out;
  out.line = trot.line();
  std::istringstream legs(trot.text("legs"));
  for (std::string name; legs >> name;) {
    if (urdf.find_link(name) < 0) trot.fail("attribute legs: '" + name + "' is not a link of " + urdf_path);
    out.legs.push_back(name);
  }
  if (out.legs.size() != kLegs) trot.fail_value("legs", "four abduction links (LF RF LH RH)");
  ClosedLoopTrotParameters& p = out.parameters;
  p.plan.base_height = trot.positive("base_height");
  p.plan.foot_height = trot.real("foot_height");
  if (p.plan.foot_height >= p.plan.base_height) trot.fail_value("foot_height", "a height below base_height");
  p.plan.path.duration = trot.has("duration") ? trot.positive("duration") : -1;
  p.plan.gait.cycle = trot.positive_or("cycle", p.plan.gait.cycle);
  p.plan.gait.duty = trot.positive_or("duty", p.plan.gait.duty);
  if (p.plan.gait.duty >= 1) trot.fail_value("duty", "a number in (0, 1)");
  p.plan.gait.step_height = trot.non_negative_or("step_height", p.plan.gait.step_height);
  p.plan.path.speed = trot.positive_or("speed", p.plan.path.speed);
  p.max_offset = trot.non_negative_or("max_offset", p.max_offset);
  p.max_turn = trot.non_negative_or("max_turn", p.max_turn);
  p.anchor_aim = trot.non_negative_or("anchor_aim", p.anchor_aim);
  if (p.anchor_aim > 1) trot.fail_value("anchor_aim", "a number in [0, 1]");
  return out;
}

/// The index of the URDF joint that moves model link `link`, −1 if none.
int urdf_joint_of(const UrdfInstance& instance, int link) {
  for (std::size_t j = 0; j < instance.joint_link.size(); ++j)
    if (instance.joint_link[j] == link) return static_cast<int>(j);
  return -1;
}

/// The closed-loop trot of a placed model: legs from the links named, standing angles from the initial
/// joint positions, foot points from the knee links' spheres.
std::shared_ptr<const TrajectorySource> make_trot(const ControllerDraft::Trot& draft, const UrdfModel& urdf,
                                                  const UrdfInstance& instance,
                                                  const std::map<int, double>& initial_position,
                                                  const std::vector<int>& driven_links, const SceneBuild& build,
                                                  const std::function<void(int, const std::string&)>& fail) {
  const MultibodyModel& mb = build.model.multibody;
  std::array<TrotLeg, kLegs> legs;
  for (int f = 0; f < kLegs; ++f) {
    TrotLeg& leg = legs[f];
    leg.abduction_link = instance.link_index[urdf.find_link(draft.legs[f])];
    int link = leg.abduction_link;
    for (int k = 0; k < 3; ++k) {
      if (link < 0) fail(draft.line, "leg '" + draft.legs[f] + "' has fewer than three links");
      const int j = urdf_joint_of(instance, link);
      const auto it = initial_position.find(j);
      leg.standing[k] = it == initial_position.end() ? 0.0 : it->second;
      if (k == 2) break;
      int child = -1;
      for (int i = 0; i < static_cast<int>(mb.links.size()); ++i)
        if (mb.links[i].parent == link) child = i;
      link = child;
    }
    int spheres = 0;
    for (const Geometry& g : build.model.geometries)
      if (g.link == link && std::holds_alternative<Sphere>(g.shape)) {
        leg.p_KF = g.X_LG.translation();
        leg.foot_radius = std::get<Sphere>(g.shape).radius;
        ++spheres;
      }
    if (spheres != 1)
      fail(draft.line, "leg '" + draft.legs[f] + "': its third link '" + mb.links[link].name +
                           "' must carry exactly one sphere (the foot)");
  }
  ClosedLoopTrotParameters parameters = draft.parameters;
  if (parameters.plan.path.duration < 0) parameters.plan.path.duration = build.model.physics.duration;
  try {
    return std::make_shared<ClosedLoopTrot>(mb, legs, parameters, driven_links);
  } catch (const std::invalid_argument& e) {
    fail(draft.line, e.what());
  }
  return nullptr;
}

}  // namespace

ControllerDraft read_controller(const xml::Element& element, const UrdfModel& urdf, const std::string& urdf_path) {
  ControllerDraft draft;
  draft.line = element.line();
  const std::string type = element.text("type");
  std::map<std::string, std::string> options;
  for (const auto& [key, value] : element.attributes())
    if (key != "type" && key != "trajectory") options[key] = value;
  try {
    draft.settings = parse_controller_settings(type, options);
  } catch (const std::invalid_argument& e) {
    element.fail(e.what());
  }
  draft.trajectory_file = element.text_or("trajectory", "");

  for (const xml::Element& joint : element.children()) {
    if (joint.tag() == "trot") {
      if (draft.trot) joint.fail("a <controller> takes one <trot>");
      if (!draft.trajectory_file.empty()) joint.fail("give either the attribute trajectory or <trot>, not both");
      draft.trot = read_trot(joint, urdf, urdf_path);
      continue;
    }
    if (joint.tag() != "joint") joint.fail("unknown element <" + std::string(joint.tag()) + "> in <controller> (expected <joint> or <trot>)");
    joint.allow_only({"name", "q", "offset", "amplitude", "frequency", "phase"}, {});
    ControllerDraft::DrivenJoint driven;
    driven.name = joint.text("name");
    driven.line = joint.line();
    const int j = urdf.find_joint(driven.name);
    if (j < 0) joint.fail_value("name", "a joint of " + urdf_path);
    const UrdfJointType t = urdf.joints[j].type;
    if (t != UrdfJointType::Revolute && t != UrdfJointType::Continuous && t != UrdfJointType::Prismatic)
      joint.fail("joint '" + driven.name + "' is " + urdf_joint_type_name(t) +
                 "; a controller drives only revolute, continuous and prismatic joints");
    for (const ControllerDraft::DrivenJoint& other : draft.joints)
      if (other.urdf_joint == j) joint.fail("joint '" + driven.name + "' is already driven at line " + std::to_string(other.line));
    driven.urdf_joint = j;
    const bool sinusoid = joint.has("offset") || joint.has("amplitude") || joint.has("frequency") || joint.has("phase");
    if (sinusoid && joint.has("q")) joint.fail("give either q (constant) or offset/amplitude/frequency/phase (sinusoid), not both");
    if (draft.trot && (sinusoid || joint.has("q")))
      joint.fail("the controller's trajectory is its <trot>; q, offset, amplitude, frequency and phase are for the "
                 "built-in generators");
    if (!draft.trajectory_file.empty() && (sinusoid || joint.has("q")))
      joint.fail("the controller reads its trajectory from '" + draft.trajectory_file +
                 "'; q, offset, amplitude, frequency and phase are for the built-in generators");
    if (joint.has("q")) {
      driven.generator.offset = joint.real("q");
      driven.has_generator = true;
    } else if (sinusoid) {
      driven.generator.offset = joint.real_or("offset", 0);
      driven.generator.amplitude = joint.real_or("amplitude", 0);
      driven.generator.frequency = joint.non_negative_or("frequency", 0);
      driven.generator.phase = joint.real_or("phase", 0);
      driven.has_generator = true;
    }
    draft.joints.push_back(driven);
  }
  return draft;
}

void add_controller(const ControllerDraft& draft, const xml::Element& model_element, const std::string& model_name,
                    const UrdfModel& urdf, const UrdfInstance& instance,
                    const std::map<int, double>& initial_position, SceneBuild& build) {
  const MultibodyModel& mb = build.model.multibody;
  ControllerSpec spec;
  spec.model = model_name;
  spec.settings = draft.settings;
  std::vector<ControllerDraft::DrivenJoint> joints = draft.joints;
  if (joints.empty())   // every 1-DoF joint of the model, in URDF order
    for (std::size_t j = 0; j < urdf.joints.size(); ++j) {
      const UrdfJointType t = urdf.joints[j].type;
      if (t == UrdfJointType::Revolute || t == UrdfJointType::Continuous || t == UrdfJointType::Prismatic)
        joints.push_back({urdf.joints[j].name, static_cast<int>(j), draft.line, false, {}});
    }
  const auto fail = [&](int line, const std::string& message) {
    throw LoadError(build.file, line, "<controller type=\"" + draft.settings.type + "\">: " + message);
  };
  if (joints.empty()) fail(draft.line, "model '" + model_name + "' has no joint a controller can drive");
  std::vector<std::string> names;
  std::vector<JointSinusoid> generators;
  for (const ControllerDraft::DrivenJoint& joint : joints) {
    const int link = instance.joint_link[joint.urdf_joint];
    if (mb.links[link].joint.effort < 0) fail(joint.line, "joint '" + joint.name + "' has a negative effort limit");
    spec.links.push_back(link);
    spec.joints.push_back(model_name + "." + joint.name);
    names.push_back(joint.name);
    JointSinusoid g = joint.generator;
    if (!joint.has_generator) {   // hold the initial position
      auto it = initial_position.find(joint.urdf_joint);
      g = JointSinusoid{it == initial_position.end() ? 0.0 : it->second, 0, 0, 0};
    }
    generators.push_back(g);
  }
  spec.tree = mb.links[spec.links.front()].tree;
  for (std::size_t a = 0; a < spec.links.size(); ++a)
    if (mb.links[spec.links[a]].tree != spec.tree)
      fail(joints[a].line, "joint '" + joints[a].name + "' is not in the tree of the controller's first joint");
  // The controllers' inverse dynamics works in the tree's full coordinates, the contact stage in its
  // independent ones (dynamics/mimic.hpp): not mixed.
  if (mb.trees[spec.tree].has_mimic())
    fail(draft.line, "model '" + model_name + "' has mimic joints; a <controller> drives trees without them "
                     "(use <actuator> elements instead)");
  if (draft.trot) {
    if (mb.links[mb.trees[spec.tree].first_link].joint.type != JointType::Floating)
      fail(draft.trot->line, "<trot> needs a floating base (model '" + model_name + "' is fixed)");
    spec.source = make_trot(*draft.trot, urdf, instance, initial_position, spec.links, build, fail);
    spec.trajectory = DesiredTrajectory::generators(generators);
  } else if (draft.trajectory_file.empty()) {
    spec.trajectory = DesiredTrajectory::generators(generators);
  } else {
    const ResolvedPath path = resolve_resource(draft.trajectory_file, build.base_dir, build.package_path);
    if (!path.ok()) fail(draft.line, "attribute trajectory: " + path.error);
    try {
      spec.trajectory = DesiredTrajectory::from_csv(path.path, names);
    } catch (const TrajectoryError& e) {
      if (e.line == 0) fail(draft.line, "attribute trajectory: '" + e.file + "': " + e.message);
      throw LoadError(e.file, e.line, e.message + " (trajectory of the controller at " + build.file + ":" +
                                          std::to_string(draft.line) + ")");
    }
  }
  (void)model_element;
  build.model.controllers.push_back(std::move(spec));
}

}  // namespace impetus::scene
