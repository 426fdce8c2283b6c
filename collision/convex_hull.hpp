// The convex hull of a point set (a mesh's vertices), as a Polytope with merged polygon faces.
//
// Coplanar hull facets are merged (qhull's pre-merge 'C-ε', ε = kCoplanarMergeRelative · diameter)
// so that a mesh cube gives six quadrilaterals, not twelve triangles: a face is what the manifold
// builder clips against (collision/manifold.hpp), and a face split in two would clip a resting box
// to a triangle.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "collision/polytope.hpp"

namespace impetus {

/// Facets whose centrums lie within this fraction of the point set's diameter of a neighbour's plane
/// are merged. Chosen above the rounding of single-precision mesh files (STL stores floats, relative
/// error 6e-8) and far below the bend between facets of any tessellated curved surface
/// (a 1000-facet sphere bends by ~1e-3 of its diameter from facet to facet).
constexpr double kCoplanarMergeRelative = 1e-6;

struct HullResult {
  std::optional<Polytope> hull;   // empty when the points span no volume
  std::string error;              // why not, for messages
};

/// The convex hull of `points`. Fails (without throwing) on fewer than 4 points or points that are
/// coplanar, collinear or coincident within rounding.
HullResult convex_hull(const std::vector<Eigen::Vector3d>& points);

/// How far the mesh (vertices, triangles) is from lying on its hull's surface: the largest, over
/// triangles, of the distance of the triangle's farthest vertex from the hull face plane that fits
/// it best. 0 exactly when every triangle lies in a face of the hull, i.e. when a closed mesh is
/// convex. (All vertices lying on the hull's boundary is not enough: an L-shaped prism's inner
/// corner lies in the plane of its end cap.)
double max_distance_from_hull_surface(const Polytope& hull, const std::vector<Eigen::Vector3d>& vertices,
                                      const std::vector<Eigen::Vector3i>& triangles);

}  // namespace impetus
