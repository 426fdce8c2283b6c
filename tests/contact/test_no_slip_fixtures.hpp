// Hand-built contact problems for the no-slip / viscous / principal pivoting tests: rigid bodies
// and sliders with contact rows written from their Jacobians, no world and no collision detection.
//
// Velocities follow dynamics/model.hpp: a free body's v is (v_C, ω), the world-frame velocity of its
// centre of mass C and its world-frame angular velocity, M = diag(m·1, I_W). The velocity of a point p
// of the body is v_C + ω × (p − C), so the row of a direction d at p is [dᵀ, ((p − C) × d)ᵀ]. A
// slider is a body translating along a fixed unit axis a (one coordinate, the speed along a).
// Contact rows (DESIGN.md): N_i = nᵀ(J_A − J_B), S_i = t1ᵀ(J_A − J_B), T_i = t2ᵀ(J_A − J_B), n from B
// to A; body −1 is the static world.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <deque>
#include <vector>

#include "contact/problem.hpp"

namespace impetus::test {

struct BodySpec {
  enum class Kind { Free, Slider } kind = Kind::Free;
  double mass = 1;
  Eigen::Matrix3d I_W = Eigen::Matrix3d::Identity();   // free: rotational inertia about C, world axes
  Eigen::Vector3d C = Eigen::Vector3d::Zero();         // free: centre of mass
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();     // slider: direction of travel
  int nv() const { return kind == Kind::Free ? 6 : 1; }
};

struct ContactSpec {
  int a = 0, b = -1;                                   // bodies; −1: static world
  Eigen::Vector3d p = Eigen::Vector3d::Zero();         // point (W)
  Eigen::Vector3d n = Eigen::Vector3d::UnitZ();        // normal, from b to a
  double phi = 0;                                      // gap (m)
  double mu = 0.5, mu_viscous = 0;
  double tangent_angle = 0;                            // t1 turned by this angle about n (rad)
  ContactKey key;
};

/// A unit-mass box's rotational inertia about its centre, sides (x, y, z).
inline Eigen::Matrix3d box_inertia(double mass, const Eigen::Vector3d& size) {
  const Eigen::Vector3d s2 = size.cwiseProduct(size);
  return (mass / 12.0) * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal();
}

/// Any unit t1 ⟂ n, turned by `angle` about n; t2 = n × t1.
inline void tangents(const Eigen::Vector3d& n, double angle, Eigen::Vector3d& t1, Eigen::Vector3d& t2) {
  const Eigen::Vector3d e = std::abs(n.x()) > 0.7 ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitX();
  const Eigen::Vector3d u = (e - n * n.dot(e)).normalized(), w = n.cross(u);
  t1 = std::cos(angle) * u + std::sin(angle) * w;
  t2 = n.cross(t1);
}

/// Owns the inertia blocks and builds the ContactProblem that points at them.
class ProblemBuilder {
 public:
  std::vector<BodySpec> bodies;
  std::vector<ContactSpec> contacts;
  struct LimitSpec {
    int body = 0, coordinate = 0;                      // the coordinate of the body the limit acts on
    double sign = 1, phi = 0;                          // row = sign·e_k, gap φ_L
  };
  std::vector<LimitSpec> limits;
  double dt = 0.01;

  int add(const BodySpec& body) {
    bodies.push_back(body);
    return static_cast<int>(bodies.size()) - 1;
  }
  int offset(int body) const {
    int o = 0;
    for (int i = 0; i < body; ++i) o += bodies[i].nv();
    return o;
  }
  int nv() const { return offset(static_cast<int>(bodies.size())); }

  /// Writes the row of direction d at p for body `body` (sign ±1) into triplets of row r.
  void add_row(std::vector<Eigen::Triplet<double>>& t, int r, int body, double sign, const Eigen::Vector3d& p,
               const Eigen::Vector3d& d) const {
    if (body < 0) return;
    const BodySpec& B = bodies[body];
    const int o = offset(body);
    if (B.kind == BodySpec::Kind::Slider) {
      t.emplace_back(r, o, sign * d.dot(B.axis));
      return;
    }
    const Eigen::Vector3d r_x_d = (p - B.C).cross(d);
    for (int k = 0; k < 3; ++k) {
      t.emplace_back(r, o + k, sign * d[k]);
      t.emplace_back(r, o + 3 + k, sign * r_x_d[k]);
    }
  }

  /// The problem for velocities v (v* = v + dt·M⁻¹ f with f the applied generalized force).
  ContactProblem build(const Eigen::VectorXd& v, const Eigen::VectorXd& force) {
    const int n = nv();
    M_.clear();
    llt_.clear();
    ContactProblem P;
    P.dt = dt;
    P.nv = n;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const BodySpec& B = bodies[i];
      Eigen::MatrixXd M = Eigen::MatrixXd::Zero(B.nv(), B.nv());
      if (B.kind == BodySpec::Kind::Slider) {
        M(0, 0) = B.mass;
      } else {
        M.topLeftCorner<3, 3>() = B.mass * Eigen::Matrix3d::Identity();
        M.bottomRightCorner<3, 3>() = B.I_W;
      }
      M_.push_back(M);
      llt_.emplace_back(M_.back());
      P.systems.push_back({offset(static_cast<int>(i)), B.nv(), &M_.back(), &llt_.back()});
    }
    P.v = v;
    P.v_star = v;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const int o = offset(static_cast<int>(i)), k = bodies[i].nv();
      P.v_star.segment(o, k) += dt * llt_[i].solve(force.segment(o, k));
    }
    const int nc = static_cast<int>(contacts.size());
    P.nc = nc;
    P.phi.resize(nc);
    P.mu.resize(nc);
    P.mu_viscous.resize(nc);
    P.keys.resize(nc);
    std::vector<Eigen::Triplet<double>> tn, ts, tt, tl;
    for (int r = 0; r < nc; ++r) {
      const ContactSpec& c = contacts[r];
      Eigen::Vector3d t1, t2;
      tangents(c.n, c.tangent_angle, t1, t2);
      add_row(tn, r, c.a, +1, c.p, c.n);
      add_row(tn, r, c.b, -1, c.p, c.n);
      add_row(ts, r, c.a, +1, c.p, t1);
      add_row(ts, r, c.b, -1, c.p, t1);
      add_row(tt, r, c.a, +1, c.p, t2);
      add_row(tt, r, c.b, -1, c.p, t2);
      P.phi[r] = c.phi;
      P.mu[r] = c.mu;
      P.mu_viscous[r] = c.mu_viscous;
      P.keys[r] = c.key;
    }
    P.N.resize(nc, n);
    P.S.resize(nc, n);
    P.T.resize(nc, n);
    P.N.setFromTriplets(tn.begin(), tn.end());
    P.S.setFromTriplets(ts.begin(), ts.end());
    P.T.setFromTriplets(tt.begin(), tt.end());
    const int nl = static_cast<int>(limits.size());
    P.nl = nl;
    P.phi_L.resize(nl);
    for (int r = 0; r < nl; ++r) {
      tl.emplace_back(r, offset(limits[r].body) + limits[r].coordinate, limits[r].sign);
      P.phi_L[r] = limits[r].phi;
    }
    P.L.resize(nl, n);
    P.L.setFromTriplets(tl.begin(), tl.end());
    P.p_N_guess.setZero(nc);
    P.p_S_guess.setZero(nc);
    P.p_T_guess.setZero(nc);
    P.p_L_guess.setZero(nl);
    return P;
  }
  ContactProblem build(const Eigen::VectorXd& v) { return build(v, Eigen::VectorXd::Zero(nv())); }

  /// Gravity as a generalized force (free bodies and sliders alike).
  Eigen::VectorXd gravity_force(const Eigen::Vector3d& g = Eigen::Vector3d(0, 0, -9.81)) const {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(nv());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const BodySpec& B = bodies[i];
      const int o = offset(static_cast<int>(i));
      if (B.kind == BodySpec::Kind::Slider) f[o] = B.mass * g.dot(B.axis);
      else f.segment<3>(o) = B.mass * g;
    }
    return f;
  }

  const Eigen::MatrixXd& M(int body) const { return M_[body]; }

 private:
  std::deque<Eigen::MatrixXd> M_;                      // deque: the problem keeps pointers into it
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt_;
};

/// The 4 corners of the face of a box (centre c, rotation R, half sizes h) whose outward normal is
/// R·(±e_axis) (sign ±1).
inline std::vector<Eigen::Vector3d> face_corners(const Eigen::Vector3d& c, const Eigen::Matrix3d& R,
                                                 const Eigen::Vector3d& h, int axis, int sign) {
  std::vector<Eigen::Vector3d> out;
  const int u = (axis + 1) % 3, w = (axis + 2) % 3;
  for (int su : {-1, 1})
    for (int sw : {-1, 1}) {
      Eigen::Vector3d local = Eigen::Vector3d::Zero();
      local[axis] = sign * h[axis];
      local[u] = su * h[u];
      local[w] = sw * h[w];
      out.push_back(c + R * local);
    }
  return out;
}

/// A free box of mass m and sides `size` at C (axis-aligned when R = I).
inline BodySpec free_box(double m, const Eigen::Vector3d& size, const Eigen::Vector3d& C,
                         const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  BodySpec b;
  b.mass = m;
  b.C = C;
  b.I_W = R * box_inertia(m, size) * R.transpose();
  return b;
}

}  // namespace impetus::test
