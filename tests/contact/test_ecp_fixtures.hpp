// Hand-built ECP problems: free rigid bodies on the ground plane z = 0, stepped by a model with the
// configuration it returns (ContactResult::q_plus), without the world pipeline.
//
// A body: mass m, inertia I_L about its centre of mass in its frame L, a convex hull in L. State: p_WL,
// R_WL, v = [v_WC; ω_W] (dynamics/model.hpp). Free velocity of one step (what the stepper's stage 4 gives):
//   v*_C = v_C + dt (g + F/m),   ω* = ω + dt I_W⁻¹ (τ − ω × I_W ω),   I_W = R I_L Rᵀ.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "contact/contact_model.hpp"
#include "contact/hull_plane.hpp"
#include "contact/problem.hpp"

namespace impetus::test::ecp {

/// The hull–plane part of a problem (ContactProblem::extension), made on first use.
inline HullPlaneProblem& hull_plane(ContactProblem& P) { return P.extension.slot<HullPlaneProblem>(); }
/// The pairs' solutions of a result (its HullPlaneResult).
inline const std::vector<BodyPlaneSolution>& solutions(const ContactResult& r) {
  return r.extension.as<HullPlaneResult>().pairs;
}

/// The paper's gravity (seed 003 §V: g = 9.8 m/s²), so that its numbers can be quoted.
constexpr double kPaperGravity = 9.8;

/// Hull of the box [−h, h] centred at `centre` (L frame): 8 corners, 6 faces (−x, +x, −y, +y, −z, +z).
inline BodyHull box_hull(const Eigen::Vector3d& h, const Eigen::Vector3d& centre = Eigen::Vector3d::Zero()) {
  BodyHull hull;
  hull.vertices.resize(3, 8);
  for (int i = 0; i < 8; ++i)
    hull.vertices.col(i) = centre + Eigen::Vector3d((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                                                    (i & 4) ? h.z() : -h.z());
  hull.normals.resize(3, 6);
  hull.offsets.resize(6);
  hull.faces.resize(6);
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const double sign = (f % 2 == 0) ? -1.0 : 1.0;
    hull.normals.col(f) = sign * Eigen::Vector3d::Unit(axis);
    hull.offsets[f] = sign * centre[axis] + h[axis];
    for (int i = 0; i < 8; ++i)
      if ((((i >> axis) & 1) != 0) == (sign > 0)) hull.faces[f].push_back(i);
  }
  hull.diameter = 2 * h.norm();
  return hull;
}

/// Hull of a right prism over a regular k-gon of circumradius ρ, axis z, half height hz (k + 2 faces):
/// a hull with many faces, as a tessellated cylinder gives.
inline BodyHull prism_hull(int k, double rho, double hz) {
  BodyHull hull;
  hull.vertices.resize(3, 2 * k);
  for (int i = 0; i < k; ++i) {
    const double a = 2 * M_PI * i / k;
    hull.vertices.col(i) << rho * std::cos(a), rho * std::sin(a), -hz;
    hull.vertices.col(k + i) << rho * std::cos(a), rho * std::sin(a), hz;
  }
  hull.normals.resize(3, k + 2);
  hull.offsets.resize(k + 2);
  hull.faces.resize(k + 2);
  for (int i = 0; i < k; ++i) {
    const double a = 2 * M_PI * (i + 0.5) / k;
    hull.normals.col(i) << std::cos(a), std::sin(a), 0;
    hull.offsets[i] = rho * std::cos(M_PI / k);
    hull.faces[i] = {i, (i + 1) % k, k + (i + 1) % k, k + i};
  }
  hull.normals.col(k) = -Eigen::Vector3d::UnitZ();
  hull.offsets[k] = hz;
  hull.normals.col(k + 1) = Eigen::Vector3d::UnitZ();
  hull.offsets[k + 1] = hz;
  for (int i = 0; i < k; ++i) {
    hull.faces[k].push_back(i);
    hull.faces[k + 1].push_back(k + i);
  }
  hull.diameter = 2 * std::hypot(rho, hz);
  return hull;
}

/// Inertia about the centre of a uniform box of mass m and half extents h.
inline Eigen::Matrix3d box_inertia_L(double m, const Eigen::Vector3d& h) {
  const Eigen::Vector3d s = 2 * h;
  return (m / 12.0 * Eigen::Vector3d(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
                                     s.x() * s.x() + s.y() * s.y()))
      .asDiagonal();
}

struct Body {
  double mass = 1;
  Eigen::Matrix3d I_L = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p_LC = Eigen::Vector3d::Zero();
  BodyHull hull;
  double mu = 0.22;
  // state
  Eigen::Vector3d p_WL = Eigen::Vector3d::Zero();
  Eigen::Quaterniond R = Eigen::Quaterniond::Identity();
  Eigen::Vector3d v = Eigen::Vector3d::Zero();       // v_WC
  Eigen::Vector3d omega = Eigen::Vector3d::Zero();   // ω_W
  // applied wrench at the centre of mass, world frame (constant over the step)
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();

  Eigen::Vector3d com() const { return p_WL + R * p_LC; }
  /// Lowest hull vertex height above z = 0.
  double lowest() const {
    double z = INFINITY;
    for (int j = 0; j < hull.vertices.cols(); ++j) z = std::min(z, (p_WL + R * hull.vertices.col(j)).z());
    return z;
  }
};

/// Free bodies on the ground plane z = 0 (normal +z, t = x, o = y), one system and one pair each.
class GroundWorld {
 public:
  GroundWorld(double dt, double gravity) : dt_(dt), g_(gravity) {}

  Body& add(const Body& body) {
    bodies_.push_back(body);
    return bodies_.back();
  }
  std::deque<Body>& bodies() { return bodies_; }

  /// The problem of the current state (warm-started from the last result when there is one).
  const ContactProblem& build() {
    ContactProblem& P = problem_;
    const int nb = static_cast<int>(bodies_.size());
    P.dt = dt_;
    P.nv = 6 * nb;
    M_.resize(nb);
    llt_.resize(nb);
    P.systems.clear();
    P.v.resize(P.nv);
    P.v_star.resize(P.nv);
    HullPlaneProblem& H = hull_plane(P);
    H.q.resize(7 * nb);
    H.q_offsets.clear();
    H.pairs.resize(nb);
    for (int b = 0; b < nb; ++b) {
      const Body& B = bodies_[b];
      const Eigen::Matrix3d Rm = B.R.toRotationMatrix();
      const Eigen::Matrix3d I_W = Rm * B.I_L * Rm.transpose();
      M_[b].setZero(6, 6);
      M_[b].topLeftCorner<3, 3>() = B.mass * Eigen::Matrix3d::Identity();
      M_[b].bottomRightCorner<3, 3>() = I_W;
      llt_[b].compute(M_[b]);
      P.systems.push_back(SystemBlock{6 * b, 6, &M_[b], &llt_[b]});
      P.v.segment<3>(6 * b) = B.v;
      P.v.segment<3>(6 * b + 3) = B.omega;
      P.v_star.segment<3>(6 * b) = B.v + dt_ * (Eigen::Vector3d(0, 0, -g_) + B.force / B.mass);
      P.v_star.segment<3>(6 * b + 3) = B.omega + dt_ * I_W.inverse() * (B.torque - B.omega.cross(I_W * B.omega));
      H.q_offsets.push_back(7 * b);
      H.q.segment<3>(7 * b) = B.p_WL;
      H.q.segment<4>(7 * b + 3) << B.R.w(), B.R.x(), B.R.y(), B.R.z();
      BodyPlanePair& pair = H.pairs[b];
      pair.body = b;
      pair.system = b;
      pair.p_LC = B.p_LC;
      pair.hull = &B.hull;
      pair.n_W = Eigen::Vector3d::UnitZ();
      pair.d = 0;
      pair.t_W = Eigen::Vector3d::UnitX();
      pair.o_W = Eigen::Vector3d::UnitY();
      pair.mu = B.mu;
      pair.has_guess = has_result_ && b < static_cast<int>(solutions(result_).size());
      if (pair.has_guess) {
        const BodyPlaneSolution& s = solutions(result_)[b];
        pair.a1_guess = s.a1_W;
        pair.l_guess = s.l;
        pair.p_guess << s.p_n, s.p_t, s.p_o, s.p_r;
        pair.sigma_guess = s.sigma;
      }
    }
    H.q_offsets.push_back(7 * nb);
    P.clear_rows(P.nv);
    return P;
  }

  /// One step: build, solve, take v⁺ and q⁺ from the result.
  const ContactResult& step(ContactModel& model) {
    model.solve(build(), result_);
    has_result_ = true;
    ++steps_;
    if (result_.stats.attempts > 1) ++restarts_;
    max_iterations_ = std::max(max_iterations_, result_.stats.iterations);
    total_iterations_ += result_.stats.iterations;
    for (int b = 0; b < static_cast<int>(bodies_.size()); ++b) {
      Body& B = bodies_[b];
      B.v = result_.v_plus.segment<3>(6 * b);
      B.omega = result_.v_plus.segment<3>(6 * b + 3);
      if (result_.q_plus_systems.empty()) {   // a fallback without the ECPs' q⁺ (ecp_model.hpp): integrate (E3)
        const Eigen::Vector3d c_plus = B.com() + dt_ * B.v;
        const double angle = dt_ * B.omega.norm();
        if (angle > 0) B.R = Eigen::Quaterniond(Eigen::AngleAxisd(angle, B.omega.normalized())) * B.R;
        B.p_WL = c_plus - B.R * B.p_LC;
        continue;
      }
      B.p_WL = result_.q_plus.segment<3>(7 * b);
      B.R = Eigen::Quaterniond(result_.q_plus[7 * b + 3], result_.q_plus[7 * b + 4], result_.q_plus[7 * b + 5],
                               result_.q_plus[7 * b + 6]);
    }
    return result_;
  }
  const ContactResult& result() const { return result_; }
  /// Solver statistics over the steps taken: steps whose warm start failed (a second attempt was needed),
  /// the largest and the mean number of Newton iterations of a step.
  int steps() const { return steps_; }
  int restarts() const { return restarts_; }
  int max_iterations() const { return max_iterations_; }
  double mean_iterations() const { return steps_ ? double(total_iterations_) / steps_ : 0.0; }
  ContactProblem& problem() { return problem_; }
  double dt() const { return dt_; }
  double gravity() const { return g_; }

 private:
  double dt_, g_;
  std::deque<Body> bodies_;
  std::deque<Eigen::MatrixXd> M_;
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt_;
  ContactProblem problem_;
  ContactResult result_;
  bool has_result_ = false;
  int steps_ = 0, restarts_ = 0, max_iterations_ = 0, total_iterations_ = 0;
};

/// A box of half extents h and mass m resting on z = 0 (frame L at its centre), at rest.
inline Body resting_box(double m, const Eigen::Vector3d& h, double mu) {
  Body B;
  B.mass = m;
  B.I_L = box_inertia_L(m, h);
  B.hull = box_hull(h);
  B.mu = mu;
  B.p_WL = Eigen::Vector3d(0, 0, h.z());
  return B;
}

}  // namespace impetus::test::ecp

namespace impetus::test::ecp {

/// Distance (m) in the plane z = 0 from p to the convex hull of `points` (their x, y); 0 inside.
/// Handles hulls that are a polygon, a segment or a point (a face, an edge or a vertex on the plane).
inline double distance_to_hull_2d(const Eigen::Vector2d& p, std::vector<Eigen::Vector2d> points) {
  if (points.empty()) return INFINITY;
  auto segment_distance = [](const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    const Eigen::Vector2d ab = b - a;
    const double len2 = ab.squaredNorm();
    const double s = len2 > 0 ? std::clamp((x - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
    return (a + s * ab - x).norm();
  };
  std::sort(points.begin(), points.end(),
            [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y(); });
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  std::vector<Eigen::Vector2d> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {   // Andrew's monotone chain
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k > 1 ? k - 1 : k);
  double outside = 0, nearest = INFINITY;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Eigen::Vector2d& a = hull[i];
    const Eigen::Vector2d& b = hull[(i + 1) % hull.size()];
    nearest = std::min(nearest, segment_distance(p, a, b));
    if (hull.size() >= 3 && cross(a, b, p) < 0) outside = 1;
  }
  if (hull.size() == 1) return (hull[0] - p).norm();
  return (hull.size() >= 3 && outside == 0) ? 0.0 : nearest;
}

}  // namespace impetus::test::ecp
