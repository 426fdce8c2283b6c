#include "sim/urdf/urdf_to_multibody.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <optional>
#include <sstream>

#include "collision/mass_properties.hpp"
#include "collision/mesh_io.hpp"
#include "base/load_error.hpp"
#include "sim/urdf/inertia_checks.hpp"

namespace impetus {
namespace {

/// The links of one tree in parent-first order (URDF link indices) and the URDF joint that attaches
/// its root (−1: the URDF root, attached as UrdfPlacement says).
struct TreePlan {
  std::vector<int> links;
  int root_joint = -1;
};

class Converter {
 public:
  Converter(const UrdfModel& urdf, const UrdfPlacement& placement) : urdf_(urdf), placement_(placement) {}

  UrdfInstance run(MultibodyModel& multibody, std::vector<Geometry>& geometries, MeshCache& meshes);

 private:
  [[noreturn]] void fail(int line, const std::string& message) const { throw LoadError(urdf_.file, line, message); }
  std::string id(const std::string& name) const { return placement_.prefix.empty() ? name : placement_.prefix + "/" + name; }
  int parent_link(int link) const {
    const int j = urdf_.parent_joint[link];
    return j < 0 ? -1 : urdf_.find_link(urdf_.joints[j].parent);
  }

  void check_inertials();
  void check_joint(const UrdfJoint& joint) const;
  std::vector<TreePlan> plan_trees() const;
  std::vector<Link> tree_links(const TreePlan& plan) const;
  void check_joint_inertia(const TreePlan& plan, std::vector<Link>& links);
  void check_mimic_limits(const TreePlan& plan, const std::vector<Link>& links) const;
  void warn(int line, const std::string& message) { warnings_.push_back({urdf_.file, line, message}); }
  std::vector<Geometry> link_geometries(int link, MeshCache& meshes) const;

  const UrdfModel& urdf_;
  const UrdfPlacement& placement_;
  std::vector<Eigen::Isometry3d> X_W_welded_;  // pose in W of links welded to the world (fixed chain)
  std::vector<bool> welded_;
  std::vector<std::optional<UrdfInertial>> inertials_;  // per URDF link, after repairs
  double smallest_mass_ = 0, smallest_moment_ = 0;      // positive ones over the links: the floor's scale
  std::vector<LoadWarning> warnings_;
  double mass_added_ = 0;
};

void Converter::check_inertials() {
  inertials_.assign(urdf_.links.size(), std::nullopt);
  for (std::size_t u = 0; u < urdf_.links.size(); ++u) {
    const UrdfLink& link = urdf_.links[u];
    if (!link.inertial) continue;
    UrdfInertial in = *link.inertial;
    if (in.mass < 0) fail(in.mass_line, "link '" + link.name + "': " + inertia_defect(in.mass, in.I_I, false));
    const bool check_triangle = placement_.check_triangle_inequality;
    const std::string defect = inertia_defect(in.mass, in.I_I, check_triangle && placement_.strict);
    if (!defect.empty()) fail(in.inertia_line, "link '" + link.name + "': " + defect);
    if (check_triangle && breaks_triangle_inequality(in.I_I)) {  // repaired: inertia_checks.hpp (4)
      const Eigen::Vector3d before = principal_moments(in.I_I);
      in.I_I = restore_triangle_inequality(in.I_I);
      const Eigen::Vector3d after = principal_moments(in.I_I);
      std::ostringstream message;
      message << "link '" << link.name << "': " << inertia_defect(in.mass, link.inertial->I_I, true)
              << "; repaired: principal moments moved to (" << after[0] << ", " << after[1] << ", " << after[2]
              << ") kg·m², the smallest change that restores it (by " << (after - before).norm()
              << "), about the same axes; mass and centre of mass unchanged (--strict refuses instead)";
      warn(in.inertia_line, message.str());
    }
    if (in.mass > 0 && (smallest_mass_ == 0 || in.mass < smallest_mass_)) smallest_mass_ = in.mass;
    for (double lambda : principal_moments(in.I_I))
      if (lambda > kInertiaRoundingTolerance * in.I_I.trace() && (smallest_moment_ == 0 || lambda < smallest_moment_))
        smallest_moment_ = lambda;
    inertials_[u] = in;
  }
}

void Converter::check_joint(const UrdfJoint& joint) const {
  const std::string what = std::string(urdf_joint_type_name(joint.type)) + " joint '" + joint.name + "'";
  const bool moving = joint.type == UrdfJointType::Revolute || joint.type == UrdfJointType::Continuous ||
                      joint.type == UrdfJointType::Prismatic || joint.type == UrdfJointType::Planar;
  if (moving && !(joint.axis.norm() > 0))
    fail(joint.line, what + ": <axis xyz> has zero length (give the axis, e.g. xyz=\"0 0 1\")");
  if (joint.limit && moving) {
    if (joint.limit->effort < 0) fail(joint.limit->line, what + ": effort limit must not be negative");
    if (joint.limit->velocity < 0) fail(joint.limit->line, what + ": velocity limit must not be negative");
  }
  if (joint.dynamics && (joint.dynamics->damping < 0 || joint.dynamics->friction < 0))
    fail(joint.dynamics->line, what + ": damping and friction must not be negative");
  if (joint.mimic) {  // dynamics/mimic.hpp: q = multiplier·q_leader + offset between 1-DoF joints, no cycle
    const auto one_dof = [](UrdfJointType t) {
      return t == UrdfJointType::Revolute || t == UrdfJointType::Continuous || t == UrdfJointType::Prismatic;
    };
    const UrdfJoint& leader = urdf_.joints[urdf_.find_joint(joint.mimic->joint)];
    if (!one_dof(joint.type) || !one_dof(leader.type))
      fail(joint.mimic->line, what + " mimics " + urdf_joint_type_name(leader.type) + " joint '" + leader.name +
                                  "': a mimic couples two revolute, continuous or prismatic joints");
    const UrdfJoint* j = &leader;
    for (std::size_t steps = 0; j->mimic; ++steps) {
      if (steps > urdf_.joints.size())
        fail(joint.mimic->line, what + ": its chain of mimic leaders comes back to itself (a cycle)");
      j = &urdf_.joints[urdf_.find_joint(j->mimic->joint)];
    }
  }
}

std::vector<TreePlan> Converter::plan_trees() const {
  std::vector<TreePlan> plans;
  std::vector<TreePlan> pending{{{urdf_.root}, -1}};
  while (!pending.empty()) {
    TreePlan plan{{}, pending.back().root_joint};
    std::vector<int> stack{pending.back().links.front()};
    pending.pop_back();
    while (!stack.empty()) {  // depth first, children in file order: parents come first
      const int link = stack.back();
      stack.pop_back();
      plan.links.push_back(link);
      const std::vector<int>& children = urdf_.child_joints[link];
      for (auto j = children.rbegin(); j != children.rend(); ++j) {
        const UrdfJoint& joint = urdf_.joints[*j];
        const int child = urdf_.find_link(joint.child);
        // A floating joint under a welded link roots a tree of its own (on the world: a free body's
        // convention and integrator); under a moving link it is the relative 6-DoF joint (model.hpp).
        if (joint.type == UrdfJointType::Floating && welded_[link]) pending.push_back({{child}, *j});
        else stack.push_back(child);
      }
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::vector<Link> Converter::tree_links(const TreePlan& plan) const {
  std::vector<Link> links(plan.links.size());
  for (std::size_t k = 0; k < plan.links.size(); ++k) {
    const int u = plan.links[k];
    const UrdfLink& source = urdf_.links[u];
    Link& link = links[k];
    link.name = id(source.name);
    if (inertials_[u]) link.inertia = link_inertia(*inertials_[u]);
    Joint& joint = link.joint;
    if (k == 0) {
      link.parent = -1;
      if (plan.root_joint < 0) {  // the URDF root: attached as placed
        joint.name = id(source.name) + "/base";
        joint.type = placement_.floating_base ? JointType::Floating : JointType::Fixed;
        joint.X_PJ = placement_.floating_base ? Eigen::Isometry3d::Identity() : placement_.X_WR;
      } else {                    // a floating joint hanging from a welded link: its own tree
        joint.name = id(urdf_.joints[plan.root_joint].name);
        joint.type = JointType::Floating;
      }
      continue;
    }
    const int parent = parent_link(u);
    link.parent = static_cast<int>(std::find(plan.links.begin(), plan.links.end(), parent) - plan.links.begin());
    const UrdfJoint& uj = urdf_.joints[urdf_.parent_joint[u]];
    joint.name = id(uj.name);
    joint.X_PJ = uj.X_PJ;
    switch (uj.type) {
      case UrdfJointType::Fixed: joint.type = JointType::Fixed; break;
      case UrdfJointType::Revolute: joint.type = JointType::Revolute; break;
      case UrdfJointType::Continuous: joint.type = JointType::Continuous; break;
      case UrdfJointType::Prismatic: joint.type = JointType::Prismatic; break;
      case UrdfJointType::Planar: joint.type = JointType::Planar; break;
      case UrdfJointType::Floating: joint.type = JointType::Floating; break;  // under a moving link
    }
    if (joint.type == JointType::Fixed || joint.type == JointType::Floating) continue;  // no axis, no limits
    joint.axis = uj.axis.normalized();
    if (uj.limit && joint.type != JointType::Planar) {  // a planar joint's <limit> means nothing (urdfdom)
      joint.has_limits = joint.type != JointType::Continuous;  // a continuous joint's position limits mean nothing
      if (joint.has_limits) {
        joint.lower = uj.limit->lower;
        joint.upper = uj.limit->upper;
      }
      joint.effort = uj.limit->effort;
      joint.velocity_limit = uj.limit->velocity;
    }
    if (uj.dynamics) {
      joint.damping = uj.dynamics->damping;
      joint.friction = uj.dynamics->friction;
    }
    if (uj.mimic) {
      const UrdfJoint& leader = urdf_.joints[urdf_.find_joint(uj.mimic->joint)];
      const auto at = std::find(plan.links.begin(), plan.links.end(), urdf_.find_link(leader.child));
      if (at == plan.links.end())
        fail(uj.mimic->line, "joint '" + uj.name + "' mimics joint '" + leader.name +
                                 "', which a floating joint puts in another tree; a mimic couples joints of one tree");
      joint.mimic = static_cast<int>(at - plan.links.begin());
      joint.mimic_multiplier = uj.mimic->multiplier;
      joint.mimic_offset = uj.mimic->offset;
    }
  }
  return links;
}

void Converter::check_mimic_limits(const TreePlan& plan, const std::vector<Link>& links) const {
  // The limits of a leader and its mimics, mapped onto the leader (dynamics/mimic.hpp), must admit a
  // common position; the mimic map of a trial tree computes them.
  if (std::none_of(links.begin(), links.end(), [](const Link& l) { return l.joint.mimic >= 0; })) return;
  MultibodyModel trial;
  trial.add_tree("trial", links);
  const Tree& tree = trial.trees[0];
  for (std::size_t k = 0; k < links.size(); ++k) {
    const Joint& j = trial.links[k].joint;
    if (j.mimic >= 0 || joint_nv(j.type) != 1) continue;
    const int c = tree.u_column[j.v_index];
    if (tree.u_lower[c] <= tree.u_upper[c]) continue;
    const UrdfJoint& leader = urdf_.joints[urdf_.parent_joint[plan.links[k]]];
    std::ostringstream message;
    message << "joint '" << leader.name << "' and the joints that mimic it have limits with no position in common "
            << "(mapped onto '" << leader.name << "': [" << tree.u_lower[c] << ", " << tree.u_upper[c] << "])";
    fail(leader.line, message.str());
  }
}

void Converter::check_joint_inertia(const TreePlan& plan, std::vector<Link>& links) {
  const std::size_t n = links.size();
  // Poses in the tree root's frame R at the zero configuration: X_RL = X_RP · X_PJ.
  std::vector<Eigen::Isometry3d> X_RL(n, Eigen::Isometry3d::Identity());
  for (std::size_t k = 1; k < n; ++k) X_RL[k] = X_RL[links[k].parent] * links[k].joint.X_PJ;
  // Composite inertias: each link plus its descendants, in R (children come after parents).
  std::vector<MassProperties> composite(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Inertia& in = links[k].inertia;
    composite[k] = transformed(MassProperties{in.mass, in.com, in.I_C}, X_RL[k]);
  }
  for (std::size_t k = n; k-- > 1;) composite[links[k].parent] = combined({composite[links[k].parent], composite[k]});

  for (std::size_t k = 0; k < n; ++k) {
    const Joint& joint = links[k].joint;
    if (joint.type == JointType::Fixed) continue;
    const MassProperties& c = composite[k];
    const UrdfLink& moved = urdf_.links[plan.links[k]];
    const std::string what = std::string(joint_type_name(joint.type)) + " joint '" + joint.name + "'";
    const std::string bodies = "link '" + moved.name + "' and its descendants";
    bool singular = false;
    std::string why;
    if (joint.type == JointType::Prismatic) {
      singular = !(c.mass > 0);
      why = bodies + " have no mass";
    } else if (joint.type == JointType::Planar) {  // slides need mass, the turn inertia about n through O
      const Eigen::Vector3d n = X_RL[k].linear() * joint.axis;
      const Eigen::Vector3d d = c.com - X_RL[k].translation();
      const Eigen::Matrix3d I_O = c.I_C + c.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
      singular = !(c.mass > 0) || !(n.dot(I_O * n) > kJointInertiaTolerance * I_O.trace());
      why = bodies + (c.mass > 0 ? " have no inertia about its normal" : " have no mass");
    } else if (joint.type == JointType::Floating) {
      const double lambda_min = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(c.I_C, Eigen::EigenvaluesOnly).eigenvalues()[0];
      singular = !(c.mass > 0) || !(lambda_min > kJointInertiaTolerance * c.I_C.trace());
      why = bodies + (c.mass > 0 ? " have no rotational inertia about some axis" : " have no mass");
    } else {  // revolute, continuous: about the axis through the joint origin O
      const Eigen::Vector3d a = X_RL[k].linear() * joint.axis;
      const Eigen::Vector3d d = c.com - X_RL[k].translation();
      const Eigen::Matrix3d I_O = c.I_C + c.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
      singular = !(a.dot(I_O * a) > kJointInertiaTolerance * I_O.trace());
      why = bodies + (c.mass > 0 ? " have no inertia about its axis (their mass lies on the axis)" : " have no mass");
    }
    if (!singular) continue;
    const int line = plan.root_joint >= 0 || k > 0 ? urdf_.joints[urdf_.parent_joint[plan.links[k]]].line : moved.line;
    const std::string problem = what + " moves no inertia: " + why + "; its joint-space inertia would be singular";
    // The floor (urdf_to_multibody.hpp): what the joint lacks, on the link it moves.
    const bool needs_mass = joint.type != JointType::Revolute && joint.type != JointType::Continuous;
    const bool needs_moment = joint.type != JointType::Prismatic;
    const bool can_floor = (!needs_mass || smallest_mass_ > 0) && (!needs_moment || smallest_moment_ > 0);
    if (placement_.strict || !can_floor)
      fail(line, problem + ". Give the moved links an <inertial>, or make the joint fixed" +
                     (k == 0 && plan.root_joint < 0 ? " (attach the model with base=\"fixed\")" : ""));
    Inertia& inertia = links[k].inertia;
    std::ostringstream done;
    done << problem << "; floored: link '" << moved.name << "' given";
    if (needs_mass) {
      const double m_f = kInertiaFloorFraction * smallest_mass_;
      inertia.com = inertia.mass > 0 ? inertia.com : Eigen::Vector3d::Zero();
      inertia.mass += m_f;
      mass_added_ += m_f;
      done << " mass " << m_f << " kg at its origin (" << kInertiaFloorFraction << " of the model's smallest link mass)";
    }
    if (needs_moment) {
      const double I_f = std::max(kInertiaFloorFraction * smallest_moment_, kInertiaFloorFraction * c.I_C.trace());
      inertia.I_C += I_f * Eigen::Matrix3d::Identity();
      done << (needs_mass ? " and" : "") << " rotational inertia " << I_f << "·1 kg·m² (" << kInertiaFloorFraction
           << " of the model's smallest principal moment)" << (needs_mass ? "" : ", mass unchanged");
    }
    done << " (--strict refuses instead)";
    warn(line, done.str());
  }
}

std::vector<Geometry> Converter::link_geometries(int u, MeshCache& meshes) const {
  std::vector<Geometry> out;
  const UrdfLink& link = urdf_.links[u];
  for (std::size_t i = 0; i < link.collisions.size(); ++i) {
    const UrdfCollision& collision = link.collisions[i];
    Geometry geometry;
    geometry.name = collision.name.empty() ? id(link.name) + "#" + std::to_string(i) : collision.name;
    geometry.file = urdf_.file;
    geometry.line = collision.geometry.line;
    geometry.X_LG = collision.X_LG;
    geometry.shape = collision_shape(collision.geometry, urdf_.file, meshes);
    if (Mesh* mesh = std::get_if<Mesh>(&geometry.shape)) mesh->exact = placement_.exact_meshes;
    out.push_back(std::move(geometry));
  }
  return out;
}

UrdfInstance Converter::run(MultibodyModel& multibody, std::vector<Geometry>& geometries, MeshCache& meshes) {
  // Which links are welded to the world, and where they are.
  const std::size_t n = urdf_.links.size();
  welded_.assign(n, false);
  X_W_welded_.assign(n, Eigen::Isometry3d::Identity());
  std::vector<int> order{urdf_.root};
  for (std::size_t i = 0; i < order.size(); ++i)
    for (int j : urdf_.child_joints[order[i]]) order.push_back(urdf_.find_link(urdf_.joints[j].child));
  for (int link : order) {
    const int j = urdf_.parent_joint[link];
    if (j < 0) {
      welded_[link] = !placement_.floating_base;
      X_W_welded_[link] = placement_.X_WR;
    } else {
      const int parent = urdf_.find_link(urdf_.joints[j].parent);
      welded_[link] = welded_[parent] && urdf_.joints[j].type == UrdfJointType::Fixed;
      X_W_welded_[link] = X_W_welded_[parent] * urdf_.joints[j].X_PJ;
    }
  }

  // Everything is checked and read before anything is appended.
  warnings_.clear();
  mass_added_ = 0;
  check_inertials();
  for (const UrdfJoint& joint : urdf_.joints) check_joint(joint);
  const std::vector<TreePlan> plans = plan_trees();
  std::vector<std::vector<Link>> trees;
  for (const TreePlan& plan : plans) {
    trees.push_back(tree_links(plan));
    check_joint_inertia(plan, trees.back());
    check_mimic_limits(plan, trees.back());
  }
  std::vector<std::vector<Geometry>> link_geometry(n);
  for (std::size_t u = 0; u < n; ++u) link_geometry[u] = link_geometries(static_cast<int>(u), meshes);

  UrdfInstance instance;
  instance.warnings = warnings_;
  instance.mass_added = mass_added_;
  instance.link_index.assign(n, -1);
  instance.joint_link.assign(urdf_.joints.size(), -1);
  for (std::size_t t = 0; t < plans.size(); ++t) {
    const TreePlan& plan = plans[t];
    const std::string name = t == 0 ? (placement_.prefix.empty() ? urdf_.name : placement_.prefix)
                                    : id(urdf_.links[plan.links.front()].name);
    const int first = static_cast<int>(multibody.links.size());
    instance.trees.push_back(multibody.add_tree(name, std::move(trees[t])));
    for (std::size_t k = 0; k < plan.links.size(); ++k) instance.link_index[plan.links[k]] = first + static_cast<int>(k);
    if (plan.root_joint >= 0) {
      const UrdfJoint& joint = urdf_.joints[plan.root_joint];
      instance.floating_poses.emplace_back(first, X_W_welded_[urdf_.find_link(joint.parent)] * joint.X_PJ);
    } else if (placement_.floating_base) {
      instance.floating_poses.emplace_back(first, placement_.X_WR);
    }
  }
  for (std::size_t j = 0; j < urdf_.joints.size(); ++j)
    instance.joint_link[j] = instance.link_index[urdf_.find_link(urdf_.joints[j].child)];
  for (std::size_t u = 0; u < n; ++u)
    for (Geometry& g : link_geometry[u]) {
      g.link = instance.link_index[u];
      geometries.push_back(std::move(g));
    }
  return instance;
}

}  // namespace

Shape collision_shape(const UrdfGeometry& g, const std::string& file, MeshCache& meshes) {
  switch (g.kind) {
    case UrdfGeometry::Kind::Box: return Box{g.size};
    case UrdfGeometry::Kind::Sphere: return Sphere{g.radius};
    case UrdfGeometry::Kind::Cylinder: return Cylinder{g.radius, g.length};
    case UrdfGeometry::Kind::Capsule: return Capsule{g.radius, g.length};
    case UrdfGeometry::Kind::Mesh: break;
  }
  try {
    auto cached = meshes.find(g.path);
    if (cached == meshes.end()) cached = meshes.emplace(g.path, load_mesh(g.path)).first;
    return scaled_mesh(cached->second, g.scale);
  } catch (const LoadError& e) {
    throw LoadError(file, g.line, "<mesh filename=\"" + g.filename + "\">: " + e.message() + " (" + e.file() +
                                      (e.line() > 0 ? ":" + std::to_string(e.line()) : "") + ")");
  }
}

UrdfInstance add_urdf_to_model(const UrdfModel& urdf, const UrdfPlacement& placement, MultibodyModel& multibody,
                               std::vector<Geometry>& geometries, MeshCache& meshes) {
  return Converter(urdf, placement).run(multibody, geometries, meshes);
}

UrdfMultibody urdf_to_multibody(const UrdfModel& urdf, const UrdfPlacement& placement) {
  UrdfMultibody out;
  MeshCache meshes;
  out.instance = add_urdf_to_model(urdf, placement, out.multibody, out.geometries, meshes);
  return out;
}

}  // namespace impetus
