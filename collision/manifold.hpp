// Contact manifolds of two convex shapes: the normal, the gap and the contact points of a pair.
//
// Glossary (collision/convex_shape.hpp for h, g, x*; contact_set.hpp for the sign convention)
//   A, B         the pair; n points from B towards A (A is pushed along +n)
//   n_F, φ_F     FCL's normal and gap, already in our convention (collision/fcl_adapter.hpp)
//   φ*           the pair's signed distance estimate, g(n) at the chosen n             (M1)
//   R, I         reference body (owns the reference face) and incident body
//   u, d_R       the reference face's outward unit normal (pointing at I) and offset: u·x = d_R
//   s_j          outward unit normal of the reference face's side plane through edge j
//
// Method.
//  (M1) Normal. The separating-axis theorem gives φ = max_{|n|=1} g(n), and every n gives a lower
//       bound g(n) ≤ φ; we take n = argmax g over these candidates, faces winning ties:
//        - the face normals of A and B (exact for every face contact, penetrating, touching or apart);
//        - for a sphere or a capsule (swept by r from a core): the direction between the nearest
//          points of its core and the other shape — in closed form between two cores, else by
//          FCL's distance query on the core — exact whenever the core is outside the other shape;
//        - for two cylinders, the direction between the nearest points of their axes (side contacts);
//        - FCL's own n_F (contact query when penetrating, nearest points when apart).
//       FCL alone is not enough: its direction is ill-conditioned at touching (FCL 0.7 returns
//       arbitrary normals for GJK pairs at zero depth, and for some capsule pairs within 1e-9 m of
//       touching neither a contact nor a distance), and its libccd contact query estimates depth and
//       normal by MPR, not the minimum translation (off by up to the depth near edges and rims).
//       A penetrating pair not settled by a core is then refined with FCL's distance query, exact
//       for separated pairs: A is pulled apart along n by the overlap −g(n) plus kSeparation, and
//       the nearest-point direction m of that separated pair is a candidate in turn (m is the normal
//       of the pair's Minkowski difference where the ray along n leaves it; its fixed point is the
//       minimum translation direction). The iteration converges linearly, so Aitken's extrapolation
//       n + (m − n)/(1 − ρ) (ρ the observed contraction) is a candidate too; at most kRefinements
//       queries, stopping when g no longer improves.
//  (M1′) Two boxes whose best candidate is a face normal skip that refinement when none of the nine
//       products of their edge directions (either sign) beats it (collision/box_axes.hpp): with the faces,
//       those are every facet normal of the pair's Minkowski difference, where an overlapping pair's max g is
//       attained, so no query could win; and where the faces show them overlapping, FCL's query is not made.
//  (M2) Reference face. A face of B (preferred, so the choice is stable when two faces are parallel)
//       or else of A, aligned with n within kReferenceAlignment and whose own gap g(u) is within
//       kDeepestTolerance of φ*. (A face near n with a worse gap is touched at its boundary, by an
//       edge or a rim: no face contact.)
//  (M3) Clipping. The incident feature of I — the points of I's surface facing the reference face:
//       the polytope face most anti-parallel to u; a cylinder's cap (tilted less than 45°) as its rim
//       samples, or else the line on its side facing −u; a capsule's core moved by r towards the
//       face, its leading end replaced by that end sphere's lowest point; a sphere's lowest point —
//       is clipped against the side planes s_j·x ≤ s_j·r_j of the reference face
//       (Sutherland–Hodgman; a segment or a point by the same planes). Every clipped point q gives
//       one contact: gap φ = u·q − d_R, p = q − (φ/2)·u (midway between the surfaces), n = u if R = B
//       else −u, kept when φ ≤ margin. Because φ comes from the geometry and not from which query
//       FCL answered, a box resting on a box gives the same four corners penetrating by 1e-9 m or
//       apart by 1e-9 m.
//  (M4) Line contacts without a face (two capsules, or cylinders lying side by side, parallel): the
//       segment of A is clipped to the slab of B's and each end gives a point (for capsules, the
//       exact distance of A's sphere there to B's core).
//  (M5) Otherwise, or if no point of (M3)–(M4) is within kDeepestTolerance of φ*, a single point at
//       depth φ*, where the winning candidate saw the contact (the cores' nearest points; FCL's
//       nearest or contact point; those of the last refinement query, A moved back) or, for a face
//       normal, between the support features of A along −n and of B along n; then moved along n to
//       midway between the two support planes.
//
// Feature ids (pair_contact.hpp) name the reference face, the incident feature and the clip event
// (incident vertex i; incident edge i × side plane j; reference vertex between planes j′ and j), so
// a point keeps its id while the same features touch.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "collision/convex_shape.hpp"
#include "collision/pair_contact.hpp"

namespace impetus {

/// 1 − cos θ below which a face may be the reference face for the normal n (θ ≈ 1.4 mrad): wide
/// enough for FCL's and the refinement's directions, which reach a face normal to ~1e-7 rad; the
/// gap condition of (M2) bounds what measuring along the face normal instead of n changes.
constexpr double kReferenceAlignment = 1e-6;

/// A cylinder's cap is its incident feature while tilted less than 45° from facing the reference
/// face; beyond, the line on its side is nearer.
constexpr double kCapFacingCos = 0.70710678118654752;

/// Samples on a cylinder's rim (also used against the ground, collision/ground_contacts.hpp): an
/// octagon holds 90% of the disc's area; the rim's exact lowest point is added where it matters (M5).
constexpr int kCylinderRimSamples = 8;

/// Points outside a side plane by less than this (m) count as inside, so that a corner lying on a
/// reference edge (boxes of equal size stacked exactly) keeps its vertex id instead of being
/// replaced by an edge × plane intersection whose id depends on rounding. Well above the rounding of
/// world coordinates (~1e-15 m at 10 m from the origin), far below any physical offset.
constexpr double kClipTolerance = 1e-9;

/// If no manifold point is within this (m) of the deepest gap φ*, the deepest point is added (M5).
constexpr double kDeepestTolerance = 1e-7;

/// |a_A × a_B| (sin of the angle between two segments' axes) below which two capsules give a line
/// contact (M4). Each end's gap is then the exact distance of a sphere of A to the capsule B.
constexpr double kCapsuleParallel = 1e-2;

/// The same for line contacts involving a cylinder's side, whose gaps are measured along n and
/// underestimate the true gap by up to L²θ²/(8r) (θ the angle, L the length, r the radius).
constexpr double kCylinderParallel = 1e-3;

/// FCL's direction is used to restrict the candidate faces of large polytopes only when |φ_F| is at
/// least this (m): closer to touching, its direction is unreliable (M1).
constexpr double kTrustedGap = 1e-7;

/// Refinement of a penetrating pair's normal (M1): at most this many distance queries, each with the
/// pair pulled apart to this gap (m) along the current normal. GJK's nearest-point direction is
/// good to about its tolerance over the gap on curved shapes, so the gap must not be tiny; each
/// step contracts the error by (depth + gap)/(radius of curvature), so it must not be large.
constexpr int kRefinements = 8;
constexpr double kSeparation = 1e-4;

/// Directions of the pair once pulled apart, from FCL's distance query (fcl_adapter.hpp).
class SeparationOracle {
 public:
  virtual ~SeparationOracle() = default;
  /// With A translated by `shift` (W): if the pair is apart, the unit direction n from B's nearest
  /// point x_B to A's nearest point x_A (on the translated A), and true; false otherwise.
  virtual bool separated_direction(const Eigen::Vector3d& shift, Eigen::Vector3d& n, Eigen::Vector3d& x_A,
                                   Eigen::Vector3d& x_B) = 0;
  /// For a pair of which one shape is swept from a core (a sphere's centre, a capsule's segment): if
  /// that core (of A when core_of_A, else of B) is apart from the other shape, their nearest points,
  /// and true.
  virtual bool core_distance(bool core_of_A, Eigen::Vector3d& x_core, Eigen::Vector3d& x_other) = 0;
};

/// A shape placed in the world.
struct PosedShape {
  const ConvexShape* shape = nullptr;
  Eigen::Isometry3d X_WG = Eigen::Isometry3d::Identity();
};

/// FCL's answer for a pair in our convention (collision/fcl_adapter.hpp).
struct NormalHint {
  bool valid = false;                          // n_W, p_W, phi are meaningful
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();   // n_F, unit, from B towards A
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();    // FCL's contact point
  double phi = 0;                              // φ_F
};

/// The nearest points of two swept shapes' cores (convex_shape.hpp's closest_points_of_segments), found once per
/// pair: normal_from_cores finds them, build takes them.
struct NearestOfCores {
  Eigen::Vector3d c_a = Eigen::Vector3d::Zero(), c_b = Eigen::Vector3d::Zero();   // on A's core, on B's (W)
  bool found = false;                                                            // both shapes swept
};

/// The largest gaps of two boxes over their faces' normals and their edges' products (box_axes.hpp BA1), found once
/// per pair: boxes_overlap_at_a_face finds them, build takes them.
struct BoxAxes {
  double face = 0;      // the largest g± (BA1) over the six face normals
  double edge = 0;      // the largest g± over the nine edge products (−∞ when every pair of edges is parallel)
  bool found = false;   // A and B are two boxes, posed by finite transforms (else face and edge are unset)
};

class ManifoldBuilder {
 public:
  /// Appends to `out` the contact points of A and B whose gaps are at most `margin`, by (M1)–(M5).
  /// `oracle` (may be null: no refinement) answers for this pair; `cores` (may be null), normal_from_cores' for
  /// this pair; `axes` (may be null: found when needed), boxes_overlap_at_a_face's for this pair. Not yet reduced
  /// (collision/contact_reduction.hpp). Allocates nothing once warm.
  void build(const PosedShape& A, const PosedShape& B, const NormalHint& hint, double margin,
             SeparationOracle* oracle, std::vector<PairContact>& out, const NearestOfCores* cores = nullptr,
             const BoxAxes* axes = nullptr);

  /// (M1) Whether the normal of A and B is their cores' direction whatever FCL answers: two swept shapes (spheres,
  /// capsules) whose cores are apart. That direction is exact, so FCL's candidate could not beat it by the tie, and
  /// the pair needs no FCL query (a hint that is not valid). Fills `cores` for two swept shapes.
  static bool normal_from_cores(const PosedShape& A, const PosedShape& B, NearestOfCores& cores);

  /// (M1′) Whether two boxes overlap with a face normal their best axis, by more than the tie, and no product of
  /// edges within a tie of it (box_axes.hpp BA1). Then the largest gap over all directions is within the tie of the
  /// faces' — FCL's candidate could not win and the refinement would find nothing — and the query, which could only
  /// report the overlap (`margin` ≥ 1e-9 m), is not needed: build() takes the pair with a hint that is not valid.
  /// Fills `axes` (box_axes.hpp) whatever the answer, for build().
  static bool boxes_overlap_at_a_face(const PosedShape& A, const PosedShape& B, double margin, BoxAxes& axes);

  /// build() for two spheres whose centres are apart (normal_from_cores true) without an FCL hint, in the same
  /// arithmetic without what finds nothing for spheres: (M1)'s one candidate is the centres' direction n, (M2)–(M4)
  /// find no face and no line, and (M5)'s point is the candidate's, where h_B(n) of (M5) is the one g(n) took.
  static void sphere_pair(const PosedShape& A, const PosedShape& B, const NearestOfCores& cores, double margin,
                          std::vector<PairContact>& out);

 private:
  enum class Source { kFaceOfB, kFaceOfA, kCores, kAxes, kFcl, kRefined };
  struct Choice {
    Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
    double gap = 0;
    Source source = Source::kFcl;
    bool found = false;
    Eigen::Vector3d witness = Eigen::Vector3d::Zero();   // where the candidate's query saw the contact (not for faces)
  };
  struct ClipVertex {
    Eigen::Vector3d x;
    int code;        // what made this point (vertex, edge × plane, reference vertex), see manifold.cpp
    int out_edge;    // the edge from this vertex to the next: incident edge i ≥ 0, or side plane j as −1 − j
  };

  Choice choose_normal(const PosedShape& A, const PosedShape& B, const NormalHint& hint, SeparationOracle* oracle,
                       const NearestOfCores* cores, const BoxAxes* axes) const;
  // (M2)–(M3); returns the smallest gap emitted (+∞ if none).
  double clip_against_face(const PosedShape& R, int face, const PosedShape& I, bool reference_is_A, double margin,
                           std::vector<PairContact>& out);
  // (M4); returns false when the pair is not a line contact, else the smallest gap emitted in `min_phi`.
  bool line_contact(const PosedShape& A, const PosedShape& B, const Eigen::Vector3d& n, double margin,
                    std::vector<PairContact>& out, double& min_phi) const;

  std::vector<Eigen::Vector3d> reference_;    // reference polygon (W)
  std::vector<Eigen::Vector3d> side_normal_;  // s_j
  std::vector<ClipVertex> subject_, clipped_;
  Eigen::Vector3d capsule_end_[2];            // an incident capsule's core ends
};

}  // namespace impetus
