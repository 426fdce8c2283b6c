// Collision geometry of the immutable model: shapes and where they sit on their link.
//
// Frames: G is a geometry's own frame, L the frame of the link it belongs to, W the world.
// X_LG places G in L. Shapes are centred on G: a box spans ±size/2, a cylinder and a capsule
// run along G's z axis (URDF convention), a mesh's vertices are given in G (already scaled).
#pragma once

#include <Eigen/Geometry>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace impetus {

struct Polytope;

struct Sphere { double radius = 0; };                                  // 0: a contact point (Drake)
struct Box { Eigen::Vector3d size = Eigen::Vector3d::Zero(); };        // full edge lengths (m)
struct Cylinder { double radius = 0; double length = 0; };             // along z
struct Capsule { double radius = 0; double length = 0; };              // cylinder part's length, along z
struct Mesh {
  std::string filename;                        // resolved path it was read from
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  std::vector<Eigen::Vector3d> vertices;       // in G, scale applied
  std::vector<Eigen::Vector3i> triangles;      // indices into vertices
  bool exact = false;                          // collide with the triangles (FCL's BVH), not the convex hull
  /// The convex hull of `vertices` once the scene loader has checked the geometry (null before, and for
  /// meshes that keep their triangles): the shape's every later preparation — collision detector,
  /// divergence monitor — shares it instead of running qhull again. Stale if `vertices` change.
  std::shared_ptr<const Polytope> hull;
};

using Shape = std::variant<Sphere, Box, Cylinder, Capsule, Mesh>;

/// One collision geometry of the model. Several geometries on one link make one rigid body.
struct Geometry {
  std::string name;                            // for messages; may be empty
  std::string file;                            // where it was declared (for messages); may be empty
  int line = 0;                                // its line there
  int link = -1;                               // index into MultibodyModel::links
  Eigen::Isometry3d X_LG = Eigen::Isometry3d::Identity();
  Shape shape;
};

/// Name of a shape's kind ("sphere", "box", ...), for messages and geometry.json.
const char* shape_kind(const Shape& shape);

}  // namespace impetus
