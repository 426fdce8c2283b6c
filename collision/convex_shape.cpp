#include "collision/convex_shape.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace impetus {

int ConvexShape::face_count() const {
  switch (kind) {
    case Kind::kPolytope: return static_cast<int>(polytope->faces.size());
    case Kind::kCylinder: return 2;
    default: return 0;
  }
}

Eigen::Vector3d ConvexShape::face_normal(int f) const {
  if (kind == Kind::kCylinder) return f == 0 ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d(-Eigen::Vector3d::UnitZ());
  return polytope->faces[f].normal;
}

namespace {

// h(d) and x*(d) in G.
double support_G(const ConvexShape& s, const Eigen::Vector3d& d) {
  switch (s.kind) {
    case ConvexShape::Kind::kSphere: return s.radius * d.norm();
    case ConvexShape::Kind::kCapsule: return s.half_length * std::abs(d.z()) + s.radius * d.norm();
    case ConvexShape::Kind::kCylinder:
      return s.half_length * std::abs(d.z()) + s.radius * std::hypot(d.x(), d.y());
    case ConvexShape::Kind::kPolytope: {
      if (!s.box_half.isZero()) return s.box_half.dot(d.cwiseAbs());
      double h = -std::numeric_limits<double>::infinity();
      for (const Eigen::Vector3d& v : s.polytope->vertices) h = std::max(h, d.dot(v));
      return h;
    }
  }
  return 0;
}

Eigen::Vector3d support_point_G(const ConvexShape& s, const Eigen::Vector3d& d) {
  const double end = d.z() >= 0 ? s.half_length : -s.half_length;
  switch (s.kind) {
    case ConvexShape::Kind::kSphere:
    case ConvexShape::Kind::kCapsule: {
      const double norm = d.norm();
      Eigen::Vector3d x(0, 0, s.kind == ConvexShape::Kind::kCapsule ? end : 0.0);
      if (norm > 0) x += s.radius / norm * d;
      return x;
    }
    case ConvexShape::Kind::kCylinder: {
      const double rho = std::hypot(d.x(), d.y());
      Eigen::Vector3d x(0, 0, end);
      if (rho > 0) x.head<2>() += s.radius / rho * d.head<2>();
      return x;
    }
    case ConvexShape::Kind::kPolytope: {
      const std::vector<Eigen::Vector3d>& v = s.polytope->vertices;
      size_t best = 0;
      for (size_t i = 1; i < v.size(); ++i)
        if (d.dot(v[i]) > d.dot(v[best])) best = i;
      return v[best];
    }
  }
  return Eigen::Vector3d::Zero();
}

}  // namespace

double support(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W) {
  // h_W(d) = d·p_WG + h_G(R_WGᵀ d)
  return d_W.dot(X_WG.translation()) + support_G(s, X_WG.linear().transpose() * d_W);
}

Eigen::Vector3d support_point(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W) {
  return X_WG * support_point_G(s, X_WG.linear().transpose() * d_W);
}

int support_feature(const ConvexShape& s, const Eigen::Isometry3d& X_WG, const Eigen::Vector3d& d_W, double tie,
                    Eigen::Vector3d& p0, Eigen::Vector3d& p1) {
  const Eigen::Vector3d d = X_WG.linear().transpose() * d_W;   // in G
  switch (s.kind) {
    case ConvexShape::Kind::kSphere: break;
    case ConvexShape::Kind::kCapsule:
    case ConvexShape::Kind::kCylinder: {
      // The two ends of the core (capsule) or side line (cylinder) differ in height by 2l·|d_z|.
      if (2 * s.half_length * std::abs(d.z()) > tie) break;
      const double rho = std::hypot(d.x(), d.y());
      Eigen::Vector3d lateral = Eigen::Vector3d::Zero();
      if (s.kind == ConvexShape::Kind::kCapsule) {
        lateral = s.radius * d.normalized();
      } else if (rho > 0) {
        lateral.head<2>() = s.radius / rho * d.head<2>();
      }
      p0 = X_WG * (lateral + Eigen::Vector3d(0, 0, s.half_length));
      p1 = X_WG * (lateral - Eigen::Vector3d(0, 0, s.half_length));
      return 2;
    }
    case ConvexShape::Kind::kPolytope: {
      const std::vector<Eigen::Vector3d>& v = s.polytope->vertices;
      const double h = support_G(s, d);
      int first = -1, second = -1, count = 0;
      for (int i = 0; i < static_cast<int>(v.size()); ++i)
        if (d.dot(v[i]) >= h - tie) {
          if (count == 0) first = i;
          if (count == 1) second = i;
          if (++count > 2) break;                 // a face: not a segment
        }
      p0 = X_WG * v[first];
      if (count == 1) return 1;
      if (count > 2) return 0;
      p1 = X_WG * v[second];
      return 2;
    }
  }
  p0 = support_point(s, X_WG, d_W);
  // A cylinder's cap faces d when the rim's height varies by less than the tie.
  if (s.kind == ConvexShape::Kind::kCylinder && 2 * s.radius * std::hypot(d.x(), d.y()) <= tie) return 0;
  return 1;
}

void core_segment(const ConvexShape& s, const Eigen::Isometry3d& X_WG, Eigen::Vector3d& e0, Eigen::Vector3d& e1) {
  assert(s.has_core());
  const double hl = s.kind == ConvexShape::Kind::kSphere ? 0.0 : s.half_length;
  const Eigen::Vector3d axis = X_WG.linear().col(2);
  e0 = X_WG.translation() + hl * axis;
  e1 = X_WG.translation() - hl * axis;
}

void closest_points_of_segments(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& q0,
                                const Eigen::Vector3d& q1, Eigen::Vector3d& c_p, Eigen::Vector3d& c_q) {
  // Minimise |p0 + s·d1 − q0 − t·d2|² over s, t ∈ [0, 1] (Ericson, Real-Time Collision Detection §5.1.9).
  const Eigen::Vector3d d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double kDegenerate = 1e-300;        // a segment of zero length is a point
  constexpr double kParallel = 1e-12;           // sin²(angle) below which two segments are parallel
  double s = 0, t = 0;
  if (a <= kDegenerate && e <= kDegenerate) {
    s = t = 0;
  } else if (a <= kDegenerate) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= kDegenerate) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      if (denom <= kParallel * a * e) {
        // Parallel: every point of the overlap of the two projections is closest; take its middle,
        // so that the direction between the points is perpendicular to both (collision/manifold.cpp, M4).
        const double s_q0 = -c / a, s_q1 = (d1.dot(q1 - p0)) / a;
        const double lo = std::max(0.0, std::min(s_q0, s_q1)), hi = std::min(1.0, std::max(s_q0, s_q1));
        s = lo <= hi ? 0.5 * (lo + hi) : (hi < 0.0 ? 0.0 : 1.0);
      } else {
        s = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
      }
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c_p = p0 + s * d1;
  c_q = q0 + t * d2;
}

Eigen::AlignedBox3d world_bounds(const ConvexShape& s, const Eigen::Isometry3d& X_WG) {
  const Eigen::Matrix3d& R = X_WG.linear();
  const Eigen::Vector3d c = X_WG.translation();
  Eigen::Vector3d half = Eigen::Vector3d::Zero();
  switch (s.kind) {
    case ConvexShape::Kind::kSphere: half.setConstant(s.radius); break;
    case ConvexShape::Kind::kCapsule:
      half = s.half_length * R.col(2).cwiseAbs() + Eigen::Vector3d::Constant(s.radius);
      break;
    case ConvexShape::Kind::kCylinder: {
      // A disc of radius r with unit axis a spans r·√(1 − a_k²) along world axis k.
      const Eigen::Vector3d a = R.col(2);
      for (int k = 0; k < 3; ++k)
        half[k] = s.half_length * std::abs(a[k]) + s.radius * std::sqrt(std::max(0.0, 1.0 - a[k] * a[k]));
      break;
    }
    case ConvexShape::Kind::kPolytope: {
      // Exact bounds: h(±e_k) per world axis, the support of the six directions in one pass over the
      // vertices (the same numbers as six calls of support()). d_k = R_WGᵀe_k is e_k in G, and
      // R_WGᵀ(−e_k) is −d_k entry by entry; a dot product negated in every factor is the negated dot
      // product to the bit (rounding to nearest is symmetric about 0), so h(−e_k) = −min_v d_k·v: three dot products
      // per vertex instead of six.
      Eigen::AlignedBox3d box;
      if (!s.box_half.isZero()) {
        for (int k = 0; k < 3; ++k) {
          const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
          box.min()[k] = -support(s, X_WG, -e);
          box.max()[k] = support(s, X_WG, e);
        }
        return box;
      }
      // Six running extremes in registers (arrays of them went through memory on every vertex).
      const Eigen::Vector3d d0 = R.transpose() * Eigen::Vector3d::Unit(0);
      const Eigen::Vector3d d1 = R.transpose() * Eigen::Vector3d::Unit(1);
      const Eigen::Vector3d d2 = R.transpose() * Eigen::Vector3d::Unit(2);
      constexpr double kInf = std::numeric_limits<double>::infinity();
      double max0 = -kInf, max1 = -kInf, max2 = -kInf, min0 = kInf, min1 = kInf, min2 = kInf;
      for (const Eigen::Vector3d& v : s.polytope->vertices) {
        const double h0 = d0.dot(v), h1 = d1.dot(v), h2 = d2.dot(v);
        max0 = std::max(max0, h0);
        min0 = std::min(min0, h0);
        max1 = std::max(max1, h1);
        min1 = std::min(min1, h1);
        max2 = std::max(max2, h2);
        min2 = std::min(min2, h2);
      }
      const double h_max[3] = {max0, max1, max2}, h_min[3] = {min0, min1, min2};
      for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
        box.min()[k] = -((-e).dot(c) - h_min[k]);
        box.max()[k] = e.dot(c) + h_max[k];
      }
      return box;
    }
  }
  return Eigen::AlignedBox3d(c - half, c + half);
}

}  // namespace impetus
