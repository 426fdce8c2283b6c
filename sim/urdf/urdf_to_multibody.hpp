// A parsed URDF (urdf_model.hpp) → links of the multibody model (dynamics/model.hpp) and collision
// geometries (collision/geometry.hpp).
//
// Links and joints:
//   - link IDs are PREFIX/LINK (LINK when the prefix is empty), joint names PREFIX/JOINT;
//   - the root link is attached to the world by a fixed joint at X_WR, or by a floating joint whose
//     initial pose is X_WR (UrdfPlacement);
//   - joint X_PJ is the URDF joint <origin>; the axis is normalised (a zero axis is refused);
//   - fixed, revolute (limits from <limit>), continuous (no position limits; <limit> effort and
//     velocity kept), prismatic (limits) map one to one; <dynamics> damping and friction are kept;
//   - floating: the multibody model measures a floating joint's coordinates in the world, so a
//     URDF floating joint is accepted only where its parent link is welded to the world (fixed
//     joints all the way to a fixed-base root); the child's subtree then becomes a tree of its own,
//     starting at X_W,parent · X_PJ. Elsewhere it is refused;
//   - planar: refused (no planar joint in the model; write it as two prismatic joints and a
//     revolute one);
//   - mimic: NOT enforced. The mimicking joint becomes an independent joint of its type (as in
//     PyBullet's default loading); UrdfModel keeps the relation for a future coupling constraint.
// Mass:
//   - a link without <inertial> has no mass (urdfdom; Drake, Pinocchio); its inertia is eq. (1) of
//     inertia_checks.hpp;
//   - refused, at the line of the <mass> or <inertia>: a negative mass; an inertia with a negative
//     principal moment, or (unless UrdfPlacement::check_triangle_inequality is false) breaking the
//     triangle inequality (inertia_checks.hpp);
//   - a zero mass is accepted on a link (urdfdom does; Bullet-exported arms put 0 on their base), but
//     every joint must move inertia: with Iᶜ the composite inertia of the link it moves and all that
//     link's descendants at the zero configuration,
//         revolute/continuous   aᵀ Iᶜ_O a > ε·tr(Iᶜ_O)    (about the joint origin O, unit axis a)
//         prismatic             mᶜ > 0
//         floating              mᶜ > 0 and λ_min(Iᶜ_C) > ε·tr(Iᶜ_C)
//     with ε = kJointInertiaTolerance. A zero-mass leaf on a fixed joint is a bare frame and fine; a
//     zero-mass leaf on a moving joint (its joint-space inertia M would be singular) is refused.
// Geometry: each <collision> becomes a Geometry on its link with X_LG = <origin>; meshes are read by
// collision/mesh_io.hpp (STL, OBJ; .dae and .gltf refused) with their scale.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "collision/geometry.hpp"
#include "dynamics/model.hpp"
#include "sim/urdf/urdf_model.hpp"

namespace impetus {

/// Relative size below which a joint counts as moving no inertia: exact zeros (massless subtrees,
/// mass on the axis) give 0 up to round-off (~1e-16 relative), while real parts are many orders above.
constexpr double kJointInertiaTolerance = 1e-12;

struct UrdfPlacement {
  std::string prefix;                                      // link IDs PREFIX/LINK; empty: LINK
  bool floating_base = false;                              // root on a floating joint, else welded
  Eigen::Isometry3d X_WR = Eigen::Isometry3d::Identity();  // the root link's (initial) pose in the world
  bool check_triangle_inequality = true;                   // see inertia_checks.hpp (3)
};

/// Where the URDF's parts went in the model.
struct UrdfInstance {
  std::vector<int> trees;                                  // trees added, the root's first
  std::vector<int> link_index;                             // per URDF link: index in MultibodyModel::links
  std::vector<int> joint_link;                             // per URDF joint: the link it moves (its child)
  /// Links on floating joints and their initial pose X_WL (for the initial state).
  std::vector<std::pair<int, Eigen::Isometry3d>> floating_poses;
};

/// Meshes already read, by resolved path (unscaled), shared across models of one scene.
using MeshCache = std::map<std::string, Mesh>;

/// The collision shape of a <geometry> as read (urdf_parser.hpp); a mesh is read once into `meshes`
/// and scaled. A mesh that cannot be read is refused at `file`, the geometry's line.
Shape collision_shape(const UrdfGeometry& geometry, const std::string& file, MeshCache& meshes);

/// Checks the URDF as above and appends its trees to `multibody` and its collision geometries to
/// `geometries`. Refuses with a LoadError (URDF file and line); nothing is appended then.
UrdfInstance add_urdf_to_model(const UrdfModel& urdf, const UrdfPlacement& placement, MultibodyModel& multibody,
                               std::vector<Geometry>& geometries, MeshCache& meshes);

/// A URDF on its own: a model holding only it.
struct UrdfMultibody {
  MultibodyModel multibody;
  std::vector<Geometry> geometries;
  UrdfInstance instance;
};
UrdfMultibody urdf_to_multibody(const UrdfModel& urdf, const UrdfPlacement& placement = {});

}  // namespace impetus
