#include "sim/scene/scene_loader.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "dynamics/crba.hpp"
#include "dynamics/integration.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/mimic.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_collision.hpp"
#include "sim/scene/scene_parts.hpp"
#include "sim/urdf/package_path.hpp"

namespace impetus {
namespace scene {

void claim_name(const xml::Element& element, const std::string& name, const std::string& extra_forbidden,
                SceneBuild& build) {
  if (name.empty()) element.fail_value("name", "a non-empty name");
  if (name.find_first_of("/" + extra_forbidden) != std::string::npos)
    element.fail_value("name", "a name without '/'" + (extra_forbidden.empty() ? "" : " or '" + extra_forbidden + "'") +
                                   " (they separate MODEL/LINK and MODEL.JOINT)");
  if (name == "ground") element.fail_value("name", "a name other than 'ground' (the ground plane's ID)");
  if (!build.names.insert(name).second) element.fail("the name '" + name + "' is already taken by another body or model");
}

bool exact_mesh_collision(const xml::Element& element) {
  const std::string value = element.text_or("mesh_collision", "hull");
  if (value != "hull" && value != "exact") element.fail_value("mesh_collision", "hull or exact");
  return value == "exact";
}

namespace {

/// q₀ and v₀ from the elements' requests (scene_loader.hpp, "the initial State").
State initial_state(const SceneBuild& build) {
  const MultibodyModel& multibody = build.model.multibody;
  State state;
  state.q = multibody.neutral_configuration();
  // A joint whose limits exclude 0 starts at its nearest limit (NAO's elbow rolls: [0.035, 1.54]),
  // rather than 0 outside them, which the joint-limit rows would push back at (violation)/dt.
  for (const Link& link : multibody.links)
    if (link.joint.has_limits && joint_nv(link.joint.type) == 1)
      state.q[link.joint.q_index] = std::clamp(0.0, link.joint.lower, link.joint.upper);
  // A mimic's leader starts where it and its followers are all within their limits (dynamics/mimic.hpp).
  for (const Link& link : multibody.links) {
    const Tree& tree = multibody.trees[link.tree];
    if (!tree.has_mimic() || link.joint.mimic >= 0 || joint_nv(link.joint.type) != 1) continue;
    const int c = tree.u_column[link.joint.v_index - tree.v_offset];
    if (tree.u_lower[c] <= tree.u_upper[c]) state.q[link.joint.q_index] = std::clamp(0.0, tree.u_lower[c], tree.u_upper[c]);
  }
  state.v = Eigen::VectorXd::Zero(multibody.nv);
  for (const auto& [link, X_WL] : build.initial.floating_poses) {
    const int iq = multibody.links[link].joint.q_index;
    state.q.segment<3>(iq) = X_WL.translation();
    set_quaternion_at(state.q, iq + 3, Eigen::Quaterniond(X_WL.linear()).normalized());
  }
  for (const InitialValues::BodyVelocity& b : build.initial.body_velocities) {
    const Link& link = multibody.links[b.link];
    Eigen::Isometry3d X_WL = Eigen::Isometry3d::Identity();
    for (const auto& [l, X] : build.initial.floating_poses)
      if (l == b.link) X_WL = X;
    // The floating joint's linear velocity is its centre of mass's: v_WC = v_WL + ω × (p_WC − p_WL).
    const Eigen::Vector3d v_WC = b.v_WL + b.w_WL.cross(X_WL.linear() * link.inertia.com);
    state.v.segment<3>(link.joint.v_index) = v_WC;
    state.v.segment<3>(link.joint.v_index + 3) = b.w_WL;
  }
  for (const InitialValues::JointValue& j : build.initial.joint_values) {
    const Joint& joint = multibody.links[j.link].joint;
    state.q[joint.q_index] = j.position;
    state.v[joint.v_index] = j.velocity;
  }
  // Mimic joints follow their leaders from the start (dynamics/mimic.hpp).
  enforce_mimic_positions(multibody, state.q);
  enforce_mimic_velocities(multibody, state.v);
  state.t = 0;
  return state;
}

/// Every tree's M(q₀) must be positive definite: a singular direction is a motion that moves no mass.
void check_mass_matrices(const SceneBuild& build, const State& state) {
  const MultibodyModel& multibody = build.model.multibody;
  MultibodyData data(multibody);
  forward_kinematics(multibody, data, state.q, state.v);
  crba(multibody, data);
  for (std::size_t t = 0; t < multibody.trees.size(); ++t) {
    const Tree& tree = multibody.trees[t];
    if (tree.nv == 0) continue;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(data.M[t]);
    const Eigen::VectorXd& lambda = eigen.eigenvalues();
    if (lambda[0] > kMassMatrixTolerance * lambda[tree.nv - 1]) continue;
    // Name the joints along the null direction.
    const Eigen::VectorXd null = eigen.eigenvectors().col(0);
    std::string joints;
    for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
      const Joint& joint = multibody.links[i].joint;
      const int nv = joint_nv(joint.type);
      if (nv > 0 && null.segment(joint.v_index - tree.v_offset, nv).norm() > 0.1)
        joints += (joints.empty() ? "'" : ", '") + joint.name + "'";
    }
    std::ostringstream message;
    message << "the joint-space inertia of '" << tree.name << "' is singular at the initial configuration "
            << "(smallest eigenvalue " << lambda[0] << ", largest " << lambda[tree.nv - 1]
            << "): a motion of joints " << joints << " moves no inertia; give the links they move mass and "
            << "rotational inertia";
    throw LoadError(build.file, build.tree_lines[t], message.str());
  }
}

World load(const xml::Document& document, const SceneLoadOptions& options) {
  const xml::Element root = document.root("scene");
  root.allow_only({"name", "strict"}, {"physics", "ground", "body", "model", "contact", "load", "exclude", "include"});
  SceneBuild build;
  build.strict = options.strict || root.boolean_or("strict", false);
  build.file = document.file();
  build.base_dir = folder_of(document.file());
  build.package_path = ros_package_path();
  WorldModel& model = build.model;
  model.source_file = document.file();
  model.name = root.text_or("name", std::filesystem::path(document.file()).stem().string());
  if (model.name.empty() || model.name.find('/') != std::string::npos)
    root.fail_value("name", "a non-empty scene name without '/' (it names the output folder)");

  // <physics> first: its values are the defaults of <ground> and <contact>.
  if (const std::optional<xml::Element> physics = root.unique_child("physics")) read_physics(*physics, model);
  if (const std::optional<xml::Element> ground = root.unique_child("ground")) read_ground(*ground, model);
  for (const xml::Element& e : root.children()) {  // bodies and models in file order
    if (e.tag() == "body") add_body(e, build);
    else if (e.tag() == "model") add_model(e, build);
  }
  for (const xml::Element& contact : root.children("contact")) read_contact(contact, model);
  for (const xml::Element& load : root.children("load")) read_load(load, model);

  World world;
  world.initial = initial_state(build);
  check_mass_matrices(build, world.initial);
  check_geometries(build);
  resolve_collision_pairs(root, build, world.initial);
  world.model = std::move(build.model);
  world.urdf_models = std::move(build.urdf_models);
  return world;
}

}  // namespace
}  // namespace scene

World load_scene(const std::string& path, const SceneLoadOptions& options) {
  return scene::load(xml::Document::parse_file(path), options);
}

World load_scene_string(const std::string& text, const std::string& path, const SceneLoadOptions& options) {
  return scene::load(xml::Document::parse_string(text, path), options);
}

}  // namespace impetus
