// A URDF as read: its links and joints with the values written in the file and the line each came
// from, before any conversion. sim/urdf/urdf_parser.hpp fills it; sim/urdf/urdf_to_multibody.hpp
// turns it into links of the multibody model and collision geometries.
//
// Frames (URDF): L a link, P the parent link of a joint, J the joint frame (= the child link's frame
// at zero displacement), I a link's inertial frame (origin at the centre of mass), G a collision
// geometry's frame.
#pragma once

#include <Eigen/Geometry>
#include <optional>
#include <string>
#include <vector>

namespace impetus {

enum class UrdfJointType { Revolute, Continuous, Prismatic, Fixed, Floating, Planar };
const char* urdf_joint_type_name(UrdfJointType type);

struct UrdfInertial {
  Eigen::Isometry3d X_LI = Eigen::Isometry3d::Identity();  // <origin xyz rpy>: inertial frame in L
  double mass = 0;                                         // <mass value> (kg)
  Eigen::Matrix3d I_I = Eigen::Matrix3d::Zero();           // <inertia ixx…izz>: about the centre of mass, axes of I
  int line = 0;                                            // of <inertial>
  int mass_line = 0, inertia_line = 0;
};

struct UrdfGeometry {
  enum class Kind { Box, Sphere, Cylinder, Capsule, Mesh };
  Kind kind = Kind::Box;
  Eigen::Vector3d size = Eigen::Vector3d::Zero();          // box: full edge lengths (m)
  double radius = 0, length = 0;                           // sphere; cylinder and capsule (along z)
  std::string filename;                                    // mesh: as written (package://, file://, relative)
  std::string path;                                        // mesh: resolved (package_path.hpp)
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();         // mesh
  int line = 0;                                            // of the shape element
};

struct UrdfCollision {
  std::string name;                                        // optional name attribute
  Eigen::Isometry3d X_LG = Eigen::Isometry3d::Identity();
  UrdfGeometry geometry;
  int line = 0;
};

/// A visual's mesh reference (visuals are not simulated; kept for reports). `path` is empty when
/// the reference cannot be resolved.
struct UrdfVisualMesh {
  std::string filename, path;
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  int line = 0;
};

struct UrdfLink {
  std::string name;
  std::optional<UrdfInertial> inertial;                    // absent: no mass (urdfdom)
  std::vector<UrdfCollision> collisions;
  std::vector<UrdfVisualMesh> visual_meshes;
  int line = 0;
};

struct UrdfLimit {
  double lower = 0, upper = 0;                             // absent attributes are 0 (urdfdom)
  double effort = 0, velocity = 0;                         // required
  int line = 0;
};

struct UrdfDynamics {
  double damping = 0, friction = 0;
  int line = 0;
};

/// <mimic>: q = multiplier · q_joint + offset.
struct UrdfMimic {
  std::string joint;
  double multiplier = 1, offset = 0;
  int line = 0;
};

struct UrdfJoint {
  std::string name;
  UrdfJointType type = UrdfJointType::Fixed;
  std::string parent, child;                               // link names
  Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();  // <origin xyz rpy>
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();         // <axis xyz> as written (not normalised); default x
  std::optional<UrdfLimit> limit;
  std::optional<UrdfDynamics> dynamics;
  std::optional<UrdfMimic> mimic;
  int line = 0;
};

struct UrdfModel {
  std::string file;                                        // the URDF, as given
  std::string name;                                        // <robot name>
  std::vector<UrdfLink> links;                             // in file order
  std::vector<UrdfJoint> joints;                           // in file order
  // Topology, checked to be one tree:
  int root = -1;                                           // the link no joint has as child
  std::vector<int> parent_joint;                           // per link: the joint whose child it is; −1 for the root
  std::vector<std::vector<int>> child_joints;              // per link: joints whose parent it is, in file order

  int find_link(const std::string& name) const;            // −1 when absent
  int find_joint(const std::string& name) const;
  /// Σ mass over the links that have an <inertial>.
  double total_mass() const;
};

}  // namespace impetus
