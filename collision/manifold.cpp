#include "collision/manifold.hpp"
#include "collision/box_axes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace impetus {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// A candidate normal must beat the best face normal's gap by this much (m) to win (M1): FCL's
/// direction for a face contact equals the face normal up to rounding, and the face normal is exact.
constexpr double kNormalTie = 1e-12;

/// Polytope pairs with more faces than this restrict the face candidates to those within
/// kCandidateCos of a trusted FCL normal (M1): g costs O(V) per candidate.
constexpr int kFullScanFaces = 64;
constexpr double kCandidateCos = 0.86602540378443865;   // 30°

/// Aitken's extrapolation of the refinement (M1) assumes at most this contraction per step.
constexpr double kMaxContraction = 0.9;

/// Margins (m) at or above which FCL's query cannot miss two boxes that overlap by kNormalTie or more: its
/// distance for an overlapping pair is zero up to round-off (boxes_overlap_at_a_face).
constexpr double kFclMarginFloor = 1e-9;

/// Lengths below this (m) are zero: directions between coincident points are undefined.
constexpr double kTinyLength = 1e-12;

// Kinds of feature ids (pair_contact.hpp), one per method step.
enum FeatureKind { kFaceContact = 1, kLineContact = 2, kSinglePoint = 3 };

// Clip codes: what made a clipped point. kVertex: incident vertex a; kEdgePlane: incident edge a cut
// by side plane b; kReferenceVertex: the reference vertex between side planes a and b.
enum ClipKind { kVertex = 0, kEdgePlane = 1, kReferenceVertex = 2 };
int clip_code(int kind, int a, int b) { return (kind << 20) | ((a & 0x3ff) << 10) | (b & 0x3ff); }

// Face of the posed shape whose outward normal is most aligned with dir, and u·dir; (−1, −∞) if none.
std::pair<int, double> best_face(const PosedShape& s, const Eigen::Vector3d& dir_W) {
  const Eigen::Vector3d dir_G = s.X_WG.linear().transpose() * dir_W;
  int best = -1;
  double alignment = -kInfinity;
  for (int f = 0; f < s.shape->face_count(); ++f) {
    const double a = s.shape->face_normal(f).dot(dir_G);
    if (a > alignment) {
      alignment = a;
      best = f;
    }
  }
  return {best, alignment};
}

// Rim sample k of a cylinder's cap (0: +z, 1: −z), in W.
Eigen::Vector3d rim_point(const PosedShape& s, int cap, int k) {
  const double angle = 2.0 * M_PI * k / kCylinderRimSamples;
  const double z = cap == 0 ? s.shape->half_length : -s.shape->half_length;
  return s.X_WG * Eigen::Vector3d(s.shape->radius * std::cos(angle), s.shape->radius * std::sin(angle), z);
}

// The line on a cylinder's side whose points are lowest along −dir: c ± l·a + r·w, w the unit part of
// dir orthogonal to the axis a. Returns false when dir is along the axis.
bool side_line(const PosedShape& s, const Eigen::Vector3d& dir, Eigen::Vector3d& e0, Eigen::Vector3d& e1) {
  const Eigen::Vector3d a = s.X_WG.linear().col(2);
  const Eigen::Vector3d w = dir - dir.dot(a) * a;
  if (w.norm() < kTinyLength) return false;
  const Eigen::Vector3d c = s.X_WG.translation() + s.shape->radius * w.normalized();
  e0 = c + s.shape->half_length * a;
  e1 = c - s.shape->half_length * a;
  return true;
}

// Clips the parameter range [t0, t1] of x(t) = x0 + t·(x1 − x0) to f(t) = s·(x(t) − r) ≤ tolerance,
// recording in code0/code1 which plane cut each end. Returns false when nothing is left.
bool clip_segment(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1, const Eigen::Vector3d& s,
                  const Eigen::Vector3d& r, int plane, double& t0, double& t1, int& code0, int& code1) {
  const double f0 = s.dot(x0 - r), f1 = s.dot(x1 - r);
  const double at_t0 = f0 + t0 * (f1 - f0), at_t1 = f0 + t1 * (f1 - f0);
  if (at_t0 > kClipTolerance && at_t1 > kClipTolerance) return false;
  if (at_t0 > kClipTolerance) {
    t0 = f0 / (f0 - f1);                          // f(t0) > 0 ≥ f(t1): f0 ≠ f1
    code0 = clip_code(kEdgePlane, 0, plane);
  } else if (at_t1 > kClipTolerance) {
    t1 = f0 / (f0 - f1);
    code1 = clip_code(kEdgePlane, 1, plane);
  }
  return t0 <= t1;
}

}  // namespace

namespace {

// The nearest points of the cores of A and B (or of two cylinders' axes).
void nearest_of_cores(const PosedShape& A, const PosedShape& B, Eigen::Vector3d& c_a, Eigen::Vector3d& c_b) {
  Eigen::Vector3d a0, a1, b0, b1;
  core_segment(*A.shape, A.X_WG, a0, a1);
  core_segment(*B.shape, B.X_WG, b0, b1);
  closest_points_of_segments(a0, a1, b0, b1, c_a, c_b);
}

/// The one contact of a pair with no face or edge to clip (M5): the witness x moved along n to midway between the
/// support planes, −h_A(−n) = h_B(n) + φ* and h_B(n).
void push_single_point(const Eigen::Vector3d& n, double phi_star, const Eigen::Vector3d& x, double h_B,
                       std::vector<PairContact>& out) {
  PairContact c;
  c.n_W = n;
  c.phi = phi_star;
  c.p_W = x + (h_B + 0.5 * phi_star - n.dot(x)) * n;
  c.feature = feature_id({kSinglePoint});
  out.push_back(c);
}

}  // namespace

bool ManifoldBuilder::normal_from_cores(const PosedShape& A, const PosedShape& B, NearestOfCores& cores) {
  cores.found = A.shape->swept() && B.shape->swept();
  if (!cores.found) return false;
  nearest_of_cores(A, B, cores.c_a, cores.c_b);
  return (cores.c_a - cores.c_b).norm() > kTinyLength;   // as choose_normal's test of the cores
}

void ManifoldBuilder::sphere_pair(const PosedShape& A, const PosedShape& B, const NearestOfCores& cores, double margin,
                                  std::vector<PairContact>& out) {
  // (M1): the cores' candidate of choose_normal, the only one; its gap g(n) = −h_A(−n) − h_B(n), (1) of convex_shape.hpp.
  const Eigen::Vector3d& c_a = cores.c_a;
  const Eigen::Vector3d& c_b = cores.c_b;
  const Eigen::Vector3d n = (c_a - c_b).normalized();
  const double h_A = support(*A.shape, A.X_WG, -n), h_B = support(*B.shape, B.X_WG, n);
  const double phi_star = -h_A - h_B;
  if (!std::isfinite(phi_star) || !(phi_star <= margin)) return;
  const double r_a = A.shape->radius, r_b = B.shape->radius;
  const Eigen::Vector3d x = 0.5 * ((c_a - r_a * n) + (c_b + r_b * n));   // the candidate's witness
  push_single_point(n, phi_star, x, h_B, out);
}

ManifoldBuilder::Choice ManifoldBuilder::choose_normal(const PosedShape& A, const PosedShape& B,
                                                       const NormalHint& hint, SeparationOracle* oracle,
                                                       const NearestOfCores* cores, const BoxAxes* axes) const {
  Choice best;
  auto consider = [&](const Eigen::Vector3d& n, Source source, double advantage,
                      const Eigen::Vector3d& witness = Eigen::Vector3d::Zero()) {
    const double g = gap_along(*A.shape, A.X_WG, *B.shape, B.X_WG, n);
    if (!std::isfinite(g)) return false;
    if (best.found && !(g > best.gap + advantage)) return false;
    best.n = n;
    best.gap = g;
    best.source = source;
    best.found = true;
    best.witness = witness;
    return true;
  };

  // Faces first: B's outward normals point from B towards A; A's, negated, too.
  const bool trusted = hint.valid && std::abs(hint.phi) >= kTrustedGap;
  const bool restrict = trusted && A.shape->face_count() + B.shape->face_count() > kFullScanFaces;
  for (int f = 0; f < B.shape->face_count(); ++f) {
    const Eigen::Vector3d u = B.X_WG.linear() * B.shape->face_normal(f);
    if (restrict && u.dot(hint.n_W) < kCandidateCos) continue;
    consider(u, Source::kFaceOfB, 0.0);
  }
  for (int f = 0; f < A.shape->face_count(); ++f) {
    const Eigen::Vector3d u = -(A.X_WG.linear() * A.shape->face_normal(f));
    if (restrict && u.dot(hint.n_W) < kCandidateCos) continue;
    consider(u, Source::kFaceOfA, 0.0);
  }
  // Swept shapes: the nearest points of the core(s) and the other shape; the witness is midway
  // between the surfaces, r from the core towards the other.
  const ConvexShape& a = *A.shape;
  const ConvexShape& b = *B.shape;
  // Two cylinders: their axes are not cores they are swept from, but the direction between the axes'
  // nearest points is the normal of a side-to-side contact (kAxes, refined like FCL's).
  Eigen::Vector3d c_a, c_b;
  bool apart = false;                              // c_a, c_b are nearest points of the cores, apart
  if (cores && cores->found) {                     // the caller's (normal_from_cores): the same points
    c_a = cores->c_a;
    c_b = cores->c_b;
    apart = true;
  } else if ((a.swept() && b.swept()) || (a.kind == ConvexShape::Kind::kCylinder && b.kind == ConvexShape::Kind::kCylinder)) {
    nearest_of_cores(A, B, c_a, c_b);
    apart = true;
  } else if (oracle && (a.swept() || b.swept())) {
    apart = a.swept() ? oracle->core_distance(true, c_a, c_b) : oracle->core_distance(false, c_b, c_a);
  }
  if (apart && (c_a - c_b).norm() > kTinyLength) {
    const Eigen::Vector3d d = (c_a - c_b).normalized();
    const double r_a = a.has_core() ? a.radius : 0.0, r_b = b.has_core() ? b.radius : 0.0;   // 0 for a polytope
    const bool cylinders = a.kind == ConvexShape::Kind::kCylinder;
    consider(d, cylinders ? Source::kAxes : Source::kCores, kNormalTie, 0.5 * ((c_a - r_a * d) + (c_b + r_b * d)));
  }
  if (hint.valid && hint.n_W.allFinite() && std::abs(hint.n_W.norm() - 1.0) < 1e-6)
    consider(hint.n_W.normalized(), Source::kFcl, kNormalTie, hint.p_W);

  // Refinement of a penetrating pair by separated distance queries (M1), unless a core settled it.
  // The iteration n ← m converges linearly; Aitken's extrapolation n + (m − n)/(1 − ρ), with ρ the
  // observed contraction, is tried as a candidate too.
  // (M1′) Two boxes whose edge products cannot beat the best face (box_axes.hpp BA1): no query could win.
  const bool face_best = best.source == Source::kFaceOfA || best.source == Source::kFaceOfB;
  const auto edges_cannot_win = [&] {
    BoxAxes own;
    const BoxAxes& found = axes != nullptr ? *axes : (box_axes(A, B, own), own);   // the caller's: the same bits
    return found.found && found.edge <= best.gap + 0.5 * kNormalTie;
  };
  if (oracle && best.found && best.gap < 0 && best.source != Source::kCores && !(face_best && edges_cannot_win())) {
    Eigen::Vector3d m, x_A, x_B, previous_step = Eigen::Vector3d::Zero();
    for (int k = 0; k < kRefinements; ++k) {
      const Eigen::Vector3d n = best.n;
      const Eigen::Vector3d shift = (kSeparation - best.gap) * n;
      if (!oracle->separated_direction(shift, m, x_A, x_B)) break;
      const Eigen::Vector3d witness = 0.5 * (x_A - shift + x_B);
      const Eigen::Vector3d step = m - n;
      const bool improved = consider(m, Source::kRefined, kNormalTie, witness);
      if (improved && previous_step.norm() > 0) {
        const double rho = std::min(step.norm() / previous_step.norm(), kMaxContraction);
        consider((n + step / (1 - rho)).normalized(), Source::kRefined, kNormalTie, witness);
      }
      if (!improved) {
        // Converged: this query was along the best normal, so it locates the contact best.
        if (best.source != Source::kFaceOfA && best.source != Source::kFaceOfB) best.witness = witness;
        break;
      }
      previous_step = step;
    }
  }
  return best;
}

bool ManifoldBuilder::boxes_overlap_at_a_face(const PosedShape& A, const PosedShape& B, double margin,
                                              BoxAxes& axes) {
  return box_axes(A, B, axes) && margin >= kFclMarginFloor && axes.face < -kNormalTie &&
         axes.edge <= axes.face + 0.25 * kNormalTie;
}

void ManifoldBuilder::build(const PosedShape& A, const PosedShape& B, const NormalHint& hint, double margin,
                            SeparationOracle* oracle, std::vector<PairContact>& out, const NearestOfCores* cores,
                            const BoxAxes* axes) {
  // (M1)
  const Choice choice = choose_normal(A, B, hint, oracle, cores, axes);
  if (!choice.found || !(choice.gap <= margin)) return;
  const Eigen::Vector3d& n = choice.n;
  const double phi_star = choice.gap;

  // (M2)–(M4)
  // A face is the reference when it is aligned with n and its own gap is as good: else the contact
  // is at its boundary (an edge or a rim), and its plane would pass under a part of I hanging beyond.
  auto reference = [&](const PosedShape& s, int face, double alignment, double sign) {
    if (face < 0 || 1.0 - alignment > kReferenceAlignment) return false;
    const Eigen::Vector3d u = sign * (s.X_WG.linear() * s.shape->face_normal(face));
    return gap_along(*A.shape, A.X_WG, *B.shape, B.X_WG, u) >= phi_star - kDeepestTolerance;
  };
  const auto [face_B, alignment_B] = best_face(B, n);
  const auto [face_A, alignment_A] = best_face(A, -n);
  double min_phi = kInfinity;
  if (reference(B, face_B, alignment_B, 1.0)) {
    min_phi = clip_against_face(B, face_B, A, false, margin, out);
  } else if (reference(A, face_A, alignment_A, -1.0)) {
    min_phi = clip_against_face(A, face_A, B, true, margin, out);
  } else {
    line_contact(A, B, n, margin, out, min_phi);
  }
  if (min_phi <= phi_star + kDeepestTolerance) return;

  // (M5) The deepest point, at depth φ*, where the candidate's query saw it or between the support
  // features; moved along n to midway between the support planes.
  Eigen::Vector3d x = choice.witness;
  if (choice.source == Source::kFaceOfA || choice.source == Source::kFaceOfB) {
    // A face's own feature is indefinite (0): the other's point or segment places the contact.
    Eigen::Vector3d a0, a1, b0, b1, c_a, c_b;
    const int fa = support_feature(*A.shape, A.X_WG, -n, kClipTolerance, a0, a1);
    const int fb = support_feature(*B.shape, B.X_WG, n, kClipTolerance, b0, b1);
    if (fa == 1) a1 = a0;
    if (fb == 1) b1 = b0;
    if (fa == 0) a0 = a1 = fb == 0 ? a0 : 0.5 * (b0 + b1);
    if (fb == 0) b0 = b1 = fa == 0 ? b0 : 0.5 * (a0 + a1);
    closest_points_of_segments(a0, a1, b0, b1, c_a, c_b);
    x = 0.5 * (c_a + c_b);
  }
  push_single_point(n, phi_star, x, support(*B.shape, B.X_WG, n), out);
}

double ManifoldBuilder::clip_against_face(const PosedShape& R, int face, const PosedShape& I, bool reference_is_A,
                                          double margin, std::vector<PairContact>& out) {
  const ConvexShape& rs = *R.shape;
  const ConvexShape& is = *I.shape;
  const Eigen::Vector3d u = R.X_WG.linear() * rs.face_normal(face);   // outward of R, towards I

  // Reference polygon and its side planes.
  reference_.clear();
  if (rs.kind == ConvexShape::Kind::kPolytope) {
    for (int id : rs.polytope->faces[face].loop) reference_.push_back(R.X_WG * rs.polytope->vertices[id]);
  } else {
    for (int k = 0; k < kCylinderRimSamples; ++k) reference_.push_back(rim_point(R, face, k));
  }
  const size_t m = reference_.size();
  Eigen::Vector3d newell = Eigen::Vector3d::Zero();
  for (size_t j = 0; j < m; ++j) newell += reference_[j].cross(reference_[(j + 1) % m]);
  const double orientation = newell.dot(u) >= 0 ? 1.0 : -1.0;   // +1 when counter-clockwise seen from outside
  side_normal_.resize(m);
  for (size_t j = 0; j < m; ++j) {
    const Eigen::Vector3d s = orientation * (reference_[(j + 1) % m] - reference_[j]).cross(u);
    side_normal_[j] = s.norm() > kTinyLength ? Eigen::Vector3d(s.normalized()) : Eigen::Vector3d::Zero();
  }
  const double d_R = u.dot(reference_[0]);

  // Incident feature, facing −u, as points of I's surface.
  int incident_feature = 0;
  subject_.clear();
  switch (is.kind) {
    case ConvexShape::Kind::kPolytope: {
      const auto [g, alignment] = best_face(I, -u);
      (void)alignment;
      incident_feature = g;
      const std::vector<int>& loop = is.polytope->faces[g].loop;
      for (int i = 0; i < static_cast<int>(loop.size()); ++i)
        subject_.push_back({I.X_WG * is.polytope->vertices[loop[i]], clip_code(kVertex, i, 0), i});
      break;
    }
    case ConvexShape::Kind::kCylinder: {
      const Eigen::Vector3d a = I.X_WG.linear().col(2);
      if (std::abs(a.dot(u)) >= kCapFacingCos) {
        const int cap = a.dot(u) < 0 ? 0 : 1;      // cap 0's outward normal is +a
        incident_feature = cap;
        for (int k = 0; k < kCylinderRimSamples; ++k)
          subject_.push_back({rim_point(I, cap, k), clip_code(kVertex, k, 0), k});
      } else {
        incident_feature = 2;
        Eigen::Vector3d e0, e1;
        side_line(I, -u, e0, e1);                  // |a·u| < 1: the line exists
        subject_.push_back({e0, clip_code(kVertex, 0, 0), 0});
        subject_.push_back({e1, clip_code(kVertex, 1, 0), 0});
      }
      break;
    }
    case ConvexShape::Kind::kCapsule: {
      // Its line facing the face: the core moved by r towards it, perpendicular to the axis; the end
      // spheres' lowest points replace its ends after clipping. Standing on end: the lower sphere's.
      core_segment(is, I.X_WG, capsule_end_[0], capsule_end_[1]);
      const Eigen::Vector3d a = I.X_WG.linear().col(2);
      const Eigen::Vector3d w = -u + u.dot(a) * a;
      if (w.norm() < kTinyLength) {
        const int lower = u.dot(capsule_end_[0]) <= u.dot(capsule_end_[1]) ? 0 : 1;
        subject_.push_back({capsule_end_[lower] - is.radius * u, clip_code(kVertex, lower, 0), 0});
      } else {
        const Eigen::Vector3d side = is.radius * w.normalized();
        subject_.push_back({capsule_end_[0] + side, clip_code(kVertex, 0, 0), 0});
        subject_.push_back({capsule_end_[1] + side, clip_code(kVertex, 1, 0), 0});
      }
      break;
    }
    case ConvexShape::Kind::kSphere:
      subject_.push_back({I.X_WG.translation() - is.radius * u, clip_code(kVertex, 0, 0), 0});
      break;
  }

  // (M3) Clip by the side planes.
  if (subject_.size() >= 3) {
    // Sutherland–Hodgman, carrying each vertex's code and outgoing edge.
    for (size_t j = 0; j < m && !subject_.empty(); ++j) {
      const Eigen::Vector3d& s = side_normal_[j];
      if (s.isZero()) continue;
      const int plane = static_cast<int>(j);
      clipped_.clear();
      for (size_t i = 0; i < subject_.size(); ++i) {
        const ClipVertex& P = subject_[i];
        const ClipVertex& Q = subject_[(i + 1) % subject_.size()];
        const double dP = s.dot(P.x - reference_[j]), dQ = s.dot(Q.x - reference_[j]);
        const bool in_P = dP <= kClipTolerance, in_Q = dQ <= kClipTolerance;
        if (in_P && in_Q) {
          clipped_.push_back(Q);
        } else if (in_P != in_Q) {
          const double t = std::clamp(dP / (dP - dQ), 0.0, 1.0);
          const int code = P.out_edge >= 0 ? clip_code(kEdgePlane, P.out_edge, plane)
                                           : clip_code(kReferenceVertex, -1 - P.out_edge, plane);
          // Leaving: the new edge runs along plane j. Entering: it continues along P's edge to Q.
          clipped_.push_back({P.x + t * (Q.x - P.x), code, in_P ? -1 - plane : P.out_edge});
          if (in_Q) clipped_.push_back(Q);
        }
      }
      std::swap(subject_, clipped_);
    }
  } else if (subject_.size() == 2) {
    double t0 = 0, t1 = 1;
    int code0 = subject_[0].code, code1 = subject_[1].code;
    const Eigen::Vector3d x0 = subject_[0].x, x1 = subject_[1].x;
    bool kept = true;
    for (size_t j = 0; j < m && kept; ++j)
      if (!side_normal_[j].isZero())
        kept = clip_segment(x0, x1, side_normal_[j], reference_[j], static_cast<int>(j), t0, t1, code0, code1);
    subject_.clear();
    if (kept) {
      subject_.push_back({x0 + t0 * (x1 - x0), code0, 0});
      subject_.push_back({x0 + t1 * (x1 - x0), code1, 0});
    }
    if (is.kind == ConvexShape::Kind::kCapsule) {
      // An unclipped end that leads towards the face rests on its end sphere's lowest point.
      for (ClipVertex& v : subject_)
        for (int k = 0; k < 2; ++k)
          if (v.code == clip_code(kVertex, k, 0) && u.dot(capsule_end_[k] - capsule_end_[1 - k]) <= 0)
            v.x = capsule_end_[k] - is.radius * u;
    }
  } else {
    for (size_t j = 0; j < m && !subject_.empty(); ++j)
      if (side_normal_[j].dot(subject_[0].x - reference_[j]) > kClipTolerance) subject_.clear();
  }

  // Emit: φ = u·q − d_R, p midway between q and the face plane.
  double min_phi = kInfinity;
  for (const ClipVertex& v : subject_) {
    const double phi = u.dot(v.x) - d_R;
    if (!(phi <= margin)) continue;
    PairContact c;
    c.phi = phi;
    c.n_W = reference_is_A ? Eigen::Vector3d(-u) : u;
    c.p_W = v.x - 0.5 * phi * u;
    c.feature = feature_id({kFaceContact, reference_is_A ? 1 : 0, face, incident_feature, v.code});
    out.push_back(c);
    min_phi = std::min(min_phi, phi);
  }
  return min_phi;
}

bool ManifoldBuilder::line_contact(const PosedShape& A, const PosedShape& B, const Eigen::Vector3d& n, double margin,
                                   std::vector<PairContact>& out, double& min_phi) const {
  // The segment of each body that faces the other, its radius, and whether it is a true core.
  struct Line {
    Eigen::Vector3d e0, e1;
    double radius = 0;
    bool core = false;
  };
  auto line_of = [&](const PosedShape& s, const Eigen::Vector3d& towards, Line& line) {
    const Eigen::Vector3d a = s.X_WG.linear().col(2);
    if (s.shape->kind == ConvexShape::Kind::kCapsule) {
      if (std::abs(a.dot(n)) > kCapsuleParallel) return false;
      core_segment(*s.shape, s.X_WG, line.e0, line.e1);
      line.radius = s.shape->radius;
      line.core = true;
      return true;
    }
    if (s.shape->kind == ConvexShape::Kind::kCylinder) {
      if (std::abs(a.dot(n)) > kCylinderParallel) return false;
      return side_line(s, towards, line.e0, line.e1);
    }
    return false;
  };
  Line a, b;
  if (!line_of(A, -n, a) || !line_of(B, n, b)) return false;
  const Eigen::Vector3d axis_a = a.e1 - a.e0, axis_b = b.e1 - b.e0;
  const double length_b = axis_b.norm();
  if (axis_a.norm() < kTinyLength || length_b < kTinyLength) return false;
  const double parallel = (a.core && b.core) ? kCapsuleParallel : kCylinderParallel;
  if (axis_a.normalized().cross(axis_b / length_b).norm() > parallel) return false;

  // Clip A's segment to B's slab 0 ≤ (x − b0)·d_B ≤ |B|, as two planes with outward normals ∓d_B.
  const Eigen::Vector3d d_B = axis_b / length_b;
  double t0 = 0, t1 = 1;
  int code0 = clip_code(kVertex, 0, 0), code1 = clip_code(kVertex, 1, 0);
  if (!clip_segment(a.e0, a.e1, -d_B, b.e0, 0, t0, t1, code0, code1) ||
      !clip_segment(a.e0, a.e1, d_B, b.e1, 1, t0, t1, code0, code1))
    return true;                                   // a line contact, but side by side without overlap
  for (int end = 0; end < 2; ++end) {
    const Eigen::Vector3d q = a.e0 + (end == 0 ? t0 : t1) * axis_a;
    const Eigen::Vector3d p_b = b.e0 + std::clamp((q - b.e0).dot(d_B), 0.0, length_b) * d_B;
    PairContact c;
    c.n_W = n;
    if (a.core && b.core) {
      // A sphere of A at q against the capsule B: exact distance and normal.
      const Eigen::Vector3d diff = q - p_b;
      if (diff.norm() > kTinyLength) c.n_W = diff.normalized();
      c.phi = diff.norm() - a.radius - b.radius;
    } else {
      c.phi = n.dot(q - p_b) - a.radius - b.radius;
    }
    if (!(c.phi <= margin)) continue;
    c.p_W = 0.5 * ((q - a.radius * c.n_W) + (p_b + b.radius * c.n_W));
    c.feature = feature_id({kLineContact, end == 0 ? code0 : code1});
    out.push_back(c);
    min_phi = std::min(min_phi, c.phi);
  }
  return true;
}

}  // namespace impetus
