// Hand-built ContactProblems for the contact tests: no world, only M blocks and contact rows.
//
// Bodies used:
//   point mass   3 DoF, v = (vx, vy, vz), M = m·I₃; a ground contact has N = e_z, S = e_x, T = e_y.
//   box          6 DoF, v = (v_W, ω_W) of the centre of mass in the world frame, M = diag(m·I₃, I_W).
//                A point at r (from the centre of mass, world frame) moves with v + ω × r, so a row
//                along direction d at r is [dᵀ, (r × d)ᵀ].
#pragma once

#include <Eigen/Dense>
#include <deque>
#include <random>
#include <vector>

#include "contact/problem.hpp"

namespace impetus::test {
// Other fixture headers of this test program define their own test::ProblemBuilder and
// test::box_inertia; the inline namespace gives these distinct linkage names (no ODR clash) while
// `test::ProblemBuilder` still finds them in the files that include this header.
inline namespace hand_built {

constexpr double kGravity = 9.81;   // m/s²

class ProblemBuilder {
 public:
  explicit ProblemBuilder(double dt) { problem_.dt = dt; }

  /// Appends a system with inertia M; returns its offset in v.
  int add_system(const Eigen::MatrixXd& M) {
    const int offset = nv_;
    M_.push_back(M);
    llt_.emplace_back(M_.back());
    nv_ += static_cast<int>(M.rows());
    offsets_.push_back(offset);
    return offset;
  }
  /// A contact given by its generalized rows (each 1×nv, nv as known when build() runs).
  void contact(const Eigen::RowVectorXd& n, const Eigen::RowVectorXd& s, const Eigen::RowVectorXd& t, double phi,
               double mu) {
    N_.push_back(n);
    S_.push_back(s);
    T_.push_back(t);
    phi_.push_back(phi);
    mu_.push_back(mu);
  }
  void limit(const Eigen::RowVectorXd& row, double phi_L) {
    L_.push_back(row);
    phi_L_.push_back(phi_L);
  }

  /// The problem, with v⁻ = v and v* = v_star. Valid while the builder lives.
  const ContactProblem& build(const Eigen::VectorXd& v, const Eigen::VectorXd& v_star) {
    ContactProblem& p = problem_;
    p.nv = nv_;
    p.systems.clear();
    for (size_t i = 0; i < M_.size(); ++i)
      p.systems.push_back(SystemBlock{offsets_[i], static_cast<int>(M_[i].rows()), &M_[i], &llt_[i]});
    p.v = v;
    p.v_star = v_star;
    p.nc = static_cast<int>(N_.size());
    p.N = sparse(N_);
    p.S = sparse(S_);
    p.T = sparse(T_);
    p.phi = vector(phi_);
    p.mu = vector(mu_);
    p.mu_viscous = Eigen::VectorXd::Zero(p.nc);
    p.keys.assign(p.nc, ContactKey{});
    p.nl = static_cast<int>(L_.size());
    p.L = sparse(L_);
    p.phi_L = vector(phi_L_);
    p.p_N_guess = p.p_S_guess = p.p_T_guess = Eigen::VectorXd::Zero(p.nc);
    p.p_L_guess = Eigen::VectorXd::Zero(p.nl);
    return p;
  }
  int nv() const { return nv_; }

 private:
  SparseRows sparse(const std::vector<Eigen::RowVectorXd>& rows) const {
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), nv_);
    for (size_t i = 0; i < rows.size(); ++i) dense.row(static_cast<Eigen::Index>(i)).head(rows[i].size()) = rows[i];
    SparseRows out = dense.sparseView();
    out.makeCompressed();
    return out;
  }
  static Eigen::VectorXd vector(const std::vector<double>& x) {
    return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
  }

  ContactProblem problem_;
  int nv_ = 0;
  std::deque<Eigen::MatrixXd> M_;                   // deque: stable addresses for SystemBlock
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt_;
  std::vector<int> offsets_;
  std::vector<Eigen::RowVectorXd> N_, S_, T_, L_;
  std::vector<double> phi_, mu_, phi_L_;
};

/// A row of `nv` zeros with `values` at `offset`.
inline Eigen::RowVectorXd row_at(int nv, int offset, const Eigen::RowVectorXd& values) {
  Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(nv);
  r.segment(offset, values.size()) = values;
  return r;
}

/// Row of a box (6 DoF, see above) along direction d at point r from its centre of mass.
inline Eigen::RowVectorXd box_row(const Eigen::Vector3d& r, const Eigen::Vector3d& d) {
  Eigen::RowVectorXd row(6);
  row << d.transpose(), r.cross(d).transpose();
  return row;
}

/// Inertia of a solid box of mass m and half extents h about its centre (axes aligned with the world).
inline Eigen::MatrixXd box_inertia(double m, const Eigen::Vector3d& h) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
  M.topLeftCorner(3, 3) = m * Eigen::Matrix3d::Identity();
  M(3, 3) = m / 3 * (h.y() * h.y() + h.z() * h.z());
  M(4, 4) = m / 3 * (h.x() * h.x() + h.z() * h.z());
  M(5, 5) = m / 3 * (h.x() * h.x() + h.y() * h.y());
  return M;
}

/// One contact between a random box and the ground (or a second random box), random frame at a random point,
/// v* of ~1 m/s, φ in ±1 mm (exactly 0 one time in four), μ = mu() (drawn after φ): the random problems of
/// the one-contact paths' tests (stewart_trinkle, no_slip).
template <class Mu>
const ContactProblem& random_one_contact(ProblemBuilder& builder, std::mt19937& rng, Mu&& mu) {
  std::uniform_real_distribution<double> U(-1, 1), mass(0.05, 50), half(0.02, 1);
  const bool two_bodies = rng() % 2 == 0;
  const int bodies = two_bodies ? 2 : 1;
  for (int k = 0; k < bodies; ++k)
    builder.add_system(box_inertia(mass(rng), Eigen::Vector3d(half(rng), half(rng), half(rng))));
  const Eigen::Matrix3d frame = Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix();
  const int nv = 6 * bodies;
  const Eigen::Vector3d r1(U(rng), U(rng), U(rng)), r2(U(rng), U(rng), U(rng));
  auto row = [&](const Eigen::Vector3d& d) {
    Eigen::RowVectorXd out = Eigen::RowVectorXd::Zero(nv);
    out.head(6) = box_row(r1, d);
    if (two_bodies) out.tail(6) = -box_row(r2, d);
    return out;
  };
  const double phi = rng() % 4 == 0 ? 0.0 : 1e-3 * U(rng);
  builder.contact(row(frame.col(0)), row(frame.col(1)), row(frame.col(2)), phi, mu());
  Eigen::VectorXd v_star(nv);
  for (int j = 0; j < nv; ++j) v_star[j] = U(rng);
  return builder.build(v_star, v_star);
}

/// The bottom corners of an axis-aligned box with half extents h, from its centre of mass.
inline std::vector<Eigen::Vector3d> bottom_corners(const Eigen::Vector3d& h) {
  return {{h.x(), h.y(), -h.z()}, {-h.x(), h.y(), -h.z()}, {-h.x(), -h.y(), -h.z()}, {h.x(), -h.y(), -h.z()}};
}

}  // namespace hand_built
}  // namespace impetus::test
