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
//   - floating: where its parent link is welded to the world (fixed joints all the way to a
//     fixed-base root) the child's subtree becomes a tree of its own on a floating joint on the world
//     (a free body's coordinates, in W), starting at X_W,parent · X_PJ; under a moving link it is the
//     relative 6-DoF joint of dynamics/model.hpp (coordinates in J, starting at zero: the child at the
//     joint's <origin>, at rest relative to its parent);
//   - planar: the planar joint of dynamics/model.hpp, its normal the normalised <axis> (3 DoF;
//     <limit> ignored, as urdfdom does for planar joints);
//   - mimic: NOT enforced. The mimicking joint becomes an independent joint of its type (as in
//     PyBullet's default loading); UrdfModel keeps the relation for a future coupling constraint.
// Mass (policy: repair with a warning by default; UrdfPlacement::strict refuses instead):
//   - a link without <inertial> has no mass (urdfdom; Drake, Pinocchio); its inertia is eq. (1) of
//     inertia_checks.hpp;
//   - refused in every mode, at the line of the <mass> or <inertia>: a negative mass; an inertia with
//     a negative principal moment (non-finite values are refused by the reader);
//   - an inertia breaking the triangle inequality (unless UrdfPlacement::check_triangle_inequality is
//     false: then taken as written): repaired by eq. (4) of inertia_checks.hpp, the smallest change of
//     the principal moments, with a warning at the <inertia> line; strict: refused there;
//   - a zero mass is accepted on a link (urdfdom does; Bullet-exported arms put 0 on their base), but
//     every joint must move inertia: with Iᶜ the composite inertia of the link it moves and all that
//     link's descendants at the zero configuration,
//         revolute/continuous   aᵀ Iᶜ_O a > ε·tr(Iᶜ_O)    (about the joint origin O, unit axis a)
//         prismatic             mᶜ > 0
//         planar                mᶜ > 0 and nᵀ Iᶜ_O n > ε·tr(Iᶜ_O)   (n its unit normal)
//         floating              mᶜ > 0 and λ_min(Iᶜ_C) > ε·tr(Iᶜ_C)
//     with ε = kJointInertiaTolerance. A zero-mass leaf on a fixed joint is a bare frame and fine. A
//     joint that moves no inertia (widowx's gripper_revolute_joint turns only the bare frame
//     gripper_aux_link) would make M singular; the link it moves gets the inertia floor: what the
//     joint lacks, and only that —
//         revolute/continuous   rotational inertia I_f·1 added about the link's centre of mass
//         prismatic             mass m_f at the link's origin
//         floating              both
//     with I_f = kInertiaFloorFraction × the smallest positive principal moment of the URDF's links
//     (at least kInertiaFloorFraction × tr(Iᶜ_O), so that the floor is seen beside mass on the axis)
//     and m_f = kInertiaFloorFraction × the smallest positive link mass; a warning at the joint's line
//     says what was added. A revolute floor adds no mass, so the model's total mass stays the file's.
//     Strict, or a URDF without any positive mass or moment to scale from: refused at the joint.
//     (The alternative, welding such a joint, would change the model's DoF and the recorded joints.)
// Geometry: each <collision> becomes a Geometry on its link with X_LG = <origin>; meshes are read by
// collision/mesh_io.hpp (STL, OBJ; .dae and .gltf refused) with their scale.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "collision/geometry.hpp"
#include "dynamics/model.hpp"
#include "base/load_error.hpp"
#include "sim/urdf/urdf_model.hpp"

namespace impetus {

/// Relative size below which a joint counts as moving no inertia: exact zeros (massless subtrees,
/// mass on the axis) give 0 up to round-off (~1e-16 relative), while real parts are many orders above.
constexpr double kJointInertiaTolerance = 1e-12;

/// Inertia floor relative to the model's own smallest mass and moment: small enough that the floored
/// link changes no real part's dynamics by more than 0.1 %, large enough that M's condition number
/// grows by at most ~10³ over the model's own spread of inertias.
constexpr double kInertiaFloorFraction = 1e-3;

struct UrdfPlacement {
  std::string prefix;                                      // link IDs PREFIX/LINK; empty: LINK
  bool floating_base = false;                              // root on a floating joint, else welded
  Eigen::Isometry3d X_WR = Eigen::Isometry3d::Identity();  // the root link's (initial) pose in the world
  bool check_triangle_inequality = true;                   // see inertia_checks.hpp (3)
  bool strict = false;                                     // refuse what is otherwise repaired (above)
  bool exact_meshes = false;                               // meshes collide as triangles, not hulls (Mesh::exact)
};

/// Where the URDF's parts went in the model.
struct UrdfInstance {
  std::vector<int> trees;                                  // trees added, the root's first
  std::vector<int> link_index;                             // per URDF link: index in MultibodyModel::links
  std::vector<int> joint_link;                             // per URDF joint: the link it moves (its child)
  /// Links on floating joints and their initial pose X_WL (for the initial state).
  std::vector<std::pair<int, Eigen::Isometry3d>> floating_poses;
  std::vector<LoadWarning> warnings;                       // the repairs made (above), file and line
  double mass_added = 0;                                   // kg, by inertia floors (prismatic, floating)
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
