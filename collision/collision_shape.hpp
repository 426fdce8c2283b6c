// A geometry's shape prepared once for the queries of every step.
//
// Spheres (radius 0: a contact point), boxes, capsules and cylinders are convex shapes as they are. A
// mesh is replaced by its convex hull (as MuJoCo and PyBullet do with URDF meshes): the manifold
// builder then clips against the hull's polygon faces and FCL sees a Convex. A mesh marked `exact`
// keeps its triangles for FCL's BVH unless it is convex anyway (every triangle in a face of the hull,
// within kConvexityRelative · diameter); pair contacts then come from FCL alone, and the ground is
// tested against its hull's vertices (the lowest points of any mesh are hull vertices). A flat mesh
// has no hull and always keeps its triangles.
#pragma once

#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "collision/convex_shape.hpp"
#include "collision/geometry.hpp"

namespace impetus {

/// A mesh whose vertices all lie within this fraction of its diameter from its hull's boundary is
/// convex. Above the rounding of single-precision mesh files (6e-8), below any dent that matters to
/// contact (0.1 mm on a 1 m part).
constexpr double kConvexityRelative = 1e-4;

struct CollisionShape {
  bool convex = true;                          // false: a non-convex mesh, queried through FCL's BVH
  ConvexShape convex_shape;                    // when convex
  std::vector<Eigen::Vector3d> ground_points;  // when not convex: points tested against the ground (G)
  Eigen::AlignedBox3d bounds_G;                // when not convex: bounds of its vertices in G
};

/// Prepares geometry `index`. Throws std::invalid_argument, naming the geometry, for a non-positive
/// or non-finite size, an empty mesh, a triangle index out of range or a non-finite vertex. A mesh
/// that carries its hull (Mesh::hull) is not given to qhull again.
CollisionShape prepare_shape(const Geometry& geometry, int index);

/// prepare_shape, and a mesh that collides as its hull keeps that hull in Mesh::hull (the scene
/// loader's check, so that the same hull is not built again for each user of the model).
CollisionShape prepare_shape_keeping_hull(Geometry& geometry, int index);

/// Tight bounds of the posed shape in W.
Eigen::AlignedBox3d world_bounds(const CollisionShape& shape, const Eigen::Isometry3d& X_WG);

}  // namespace impetus
