// Convex polytopes with polygon faces: boxes and the convex hulls of meshes, as the manifold builder
// sees them (faces to clip against, vertices for support functions).
//
// Glossary
//   G            the geometry's own frame; every coordinate here is in G
//   v_i          vertex i
//   u_f, d_f     outward unit normal and offset of face f: the face lies in the plane u_f·x = d_f and
//                the polytope in u_f·x ≤ d_f
//   loop_f       the face's vertex indices, counter-clockwise seen from outside (against u_f)
#pragma once

#include <Eigen/Core>
#include <vector>

namespace impetus {

struct Polytope {
  struct Face {
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();   // u_f, unit, outward
    double offset = 0;                                    // d_f
    std::vector<int> loop;                                // ≥ 3 vertex indices, CCW seen from outside
  };
  std::vector<Eigen::Vector3d> vertices;                  // v_i
  std::vector<Face> faces;

  /// Largest distance between two vertices' bounding-box corners: the length scale of tolerances.
  double diameter() const;
};

/// The box [−h, h] (h = size/2) with its 8 corners (corner i has coordinate k at +h_k when bit k
/// of i is set) and 6 faces.
Polytope make_box_polytope(const Eigen::Vector3d& size);

}  // namespace impetus
