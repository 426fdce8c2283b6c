// A convex geometry as the narrow phase sees it, and its support function.
//
// Glossary (W world, G the geometry's frame, X_WG its pose)
//   h(d) = max_{x ∈ shape} d·x        support function (d in W, any length)
//   x*(d)                             a point attaining h(d) (the support point)
//   core                              the set the shape is swept from by its radius r: a point
//                                     (sphere), a segment on G's z axis (capsule); for a cylinder we
//                                     use its axis segment, which it is *not* swept from (r is then
//                                     only the disc radius)
//   faces                             flat features with an outward unit normal u: the polytope's
//                                     faces, a cylinder's two caps (u = ±z of G)
//
// The gap of two convex shapes A and B along a unit n (pointing from B towards A) is
//   g(n) = min_{a ∈ A} n·a − max_{b ∈ B} n·b = −h_A(−n) − h_B(n),                         (1)
// and their signed distance is φ = max_{|n| = 1} g(n) (positive apart, minus the penetration depth
// when overlapping: the separating-axis theorem, in both cases). Any n gives a lower bound g(n) ≤ φ.
#pragma once

#include <Eigen/Geometry>
#include <memory>

#include "collision/polytope.hpp"

namespace impetus {

struct ConvexShape {
  enum class Kind { kSphere, kCapsule, kCylinder, kPolytope };
  Kind kind = Kind::kSphere;
  double radius = 0;                            // sphere, capsule, cylinder (m)
  double half_length = 0;                       // capsule (core), cylinder: half the length along z of G (m)
  std::shared_ptr<const Polytope> polytope;     // kPolytope: box or convex hull of a mesh, in G
  Eigen::Vector3d box_half = Eigen::Vector3d::Zero();   // a box's half extents (its support in closed form), else 0

  /// Number of flat faces: polytope faces, 2 cylinder caps (0: +z, 1: −z), else 0.
  int face_count() const;
  /// Outward unit normal of face f, in G.
  Eigen::Vector3d face_normal(int f) const;
  bool has_core() const { return kind != Kind::kPolytope; }
  /// Swept by `radius` from its core: a sphere or a capsule.
  bool swept() const { return kind == Kind::kSphere || kind == Kind::kCapsule; }
};

/// h(d) of the posed shape (1).
double support(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W);

/// x*(d): a point of the posed shape attaining h(d); among equals, a deterministic one (the lowest
/// vertex index, the cap centre, the +z end).
Eigen::Vector3d support_point(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W);

/// The support feature along d (unit): a point (returns 1, in p0) or a segment (returns 2, p0–p1)
/// when two polytope vertices, a capsule's core or a cylinder's side line attain h(d) within `tie`
/// (m); 0 for a polytope face or a cylinder cap, which the manifold builder clips instead (p0 is then
/// a support point).
int support_feature(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W, double tie,
                    Eigen::Vector3d& p0, Eigen::Vector3d& p1);

/// g(n) of (1): the gap of A and B along n (unit, from B towards A).
inline double gap_along(const ConvexShape& a, const Eigen::Isometry3d& X_WA, const ConvexShape& b,
                        const Eigen::Isometry3d& X_WB, const Eigen::Vector3d& n_W) {
  return -support(a, X_WA, -n_W) - support(b, X_WB, n_W);
}

/// End points of the core in W (a sphere's are both its centre). Only when has_core().
void core_segment(const ConvexShape& s, const Eigen::Isometry3d& X_WG, Eigen::Vector3d& e0, Eigen::Vector3d& e1);

/// Closest points c_p ∈ [p0, p1] and c_q ∈ [q0, q1] of two segments (either may be a point).
void closest_points_of_segments(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& q0,
                                const Eigen::Vector3d& q1, Eigen::Vector3d& c_p, Eigen::Vector3d& c_q);

/// Tight world bounds of the posed shape.
Eigen::AlignedBox3d world_bounds(const ConvexShape& s, const Eigen::Isometry3d& X_WG);

}  // namespace impetus
