#include "contact/ecp/ecp_system.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "contact/ecp/so3.hpp"

namespace impetus::ecp {

namespace {

/// Hull vertices within this fraction of the diameter of the lowest one form the support set of the cold
/// start (a face lying on the plane, up to the rounding of the hull and the pose).
constexpr double kSupportSetRelative = 1e-6;

/// A warm ECP is kept while, carried with the body to the guessed q⁺, it lies within this fraction of the
/// hull's diameter of the hull's lowest point; otherwise the guess moves to the predicted support set.
/// Small enough to catch a face landing (its far edge comes down by ~dt·ω·width), large enough that the
/// round-off of a resting face (1e-15·L) or a slow rocking never discards a good warm start.
constexpr double kGuessSupportRelative = 1e-4;
/// Lower bound of the cosine between the plane's normal and the face guessed to carry the ECP, so that the
/// guessed multiplier 1/cos stays O(1) for a body upside down in the air.
constexpr double kSmallestCosine = 0.1;

/// Cold-start slip rate ς (units of U) where no normal impulse is guessed: (E7) then holds ς b = 0 and fixes
/// b = 0, while ς = 0 with π_n = 0 would leave both rows of b empty (a degenerate FB pair, (S4) at (0, 0)).
constexpr double kColdSlip = 1.0;
/// Smallest warm-start slip rate ς where a normal impulse is guessed: keeps the pair (ς, ψ) off the kink
/// of φ at (0, 0) in the first step; a sticking contact drives it to 0 in one Newton step.
constexpr double kMinimumSlip = 1e-3;

/// Non-negative least squares min ‖A x − b‖, x ≥ 0 (Lawson & Hanson, "Solving Least Squares Problems",
/// 1974, ch. 23), for the few columns (faces) of a guess: A is 3×k, k small.
Eigen::VectorXd nonnegative_least_squares(const Eigen::Matrix3Xd& A, const Eigen::Vector3d& b) {
  const int k = static_cast<int>(A.cols());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(k);
  std::vector<bool> passive(k, false);
  for (int outer = 0; outer < 3 * k + 3; ++outer) {
    const Eigen::VectorXd w = A.transpose() * (b - A * x);   // the negative gradient
    int enter = -1;
    for (int j = 0; j < k; ++j)
      if (!passive[j] && w[j] > 1e-12 && (enter < 0 || w[j] > w[enter])) enter = j;
    if (enter < 0) break;
    passive[enter] = true;
    for (int inner = 0; inner < 3 * k + 3; ++inner) {
      std::vector<int> P;
      for (int j = 0; j < k; ++j)
        if (passive[j]) P.push_back(j);
      Eigen::Matrix3Xd AP(3, P.size());
      for (std::size_t i = 0; i < P.size(); ++i) AP.col(i) = A.col(P[i]);
      const Eigen::VectorXd zP = AP.completeOrthogonalDecomposition().solve(b);
      bool feasible = true;
      for (double v : zP) feasible = feasible && v > 0;
      if (feasible) {
        x.setZero();
        for (std::size_t i = 0; i < P.size(); ++i) x[P[i]] = zP[i];
        break;
      }
      double alpha = 1;   // step from x towards zP until a passive variable reaches 0
      for (std::size_t i = 0; i < P.size(); ++i)
        if (zP[i] <= 0) alpha = std::min(alpha, x[P[i]] / (x[P[i]] - zP[i]));
      for (std::size_t i = 0; i < P.size(); ++i) {
        x[P[i]] += alpha * (zP[i] - x[P[i]]);
        if (x[P[i]] <= 1e-15) {
          x[P[i]] = 0;
          passive[P[i]] = false;
        }
      }
    }
  }
  return x;
}

Eigen::Quaterniond quaternion_of(const Eigen::VectorXd& q, int i) {
  return Eigen::Quaterniond(q[i], q[i + 1], q[i + 2], q[i + 3]).normalized();   // stored (w, x, y, z)
}

}  // namespace

void EcpSystem::setup(const ContactProblem& problem, const HullPlaneProblem& hull_plane, const LimitSurface& surface,
                      bool all_faces) {
  problem_ = &problem;
  hull_plane_ = &hull_plane;
  surface_ = surface;
  dt_ = problem.dt;
  U_ = kReferenceAcceleration * problem.dt;
  nv_ = problem.nv;
  n_ = nv_;

  s_v_.setConstant(nv_, U_);
  pairs_.resize(hull_plane.pairs.size());
  nu_.resize(pairs_.size());
  nu_r_.resize(pairs_.size());
  for (std::size_t e = 0; e < pairs_.size(); ++e) {
    const BodyPlanePair& data = hull_plane.pairs[e];
    const BodyHull& hull = *data.hull;
    const SystemBlock& block = problem.systems[data.system];
    Pair& p = pairs_[e];
    p.data = &data;
    p.v = block.offset;
    p.q = hull_plane.q_offsets[data.system];
    p.L = hull.diameter > 0 ? hull.diameter : 1.0;
    // The ECP's unknowns α: a1 = c + A α with A = ℓ n nᵀ + L (t tᵀ + o oᵀ). Along n, ℓ like the gap rows
    // it meets; in the plane, the body's size: there a1 is set by the moment balance, whose rows change by
    // only p_n·ℓ per unit of an ℓ-scaled α, a column ~1e-5 of the face rows' L/ℓ that left the
    // Levenberg–Marquardt steps (S6) converging linearly whenever redundant point contacts made the
    // Jacobian singular (a box resting on an ECP body).
    {
      const Eigen::Vector3d &n = data.n_W, &t = data.t_W, &o = data.o_W;
      const double ell = U_ * dt_;
      p.A = ell * n * n.transpose() + p.L * (t * t.transpose() + o * o.transpose());
      p.A_inv = n * n.transpose() / ell + (t * t.transpose() + o * o.transpose()) / p.L;
    }
    p.mass = (*block.M)(0, 0);
    p.P = p.mass * U_;
    p.R = quaternion_of(hull_plane.q, p.q + 3).toRotationMatrix();
    p.c = hull_plane.q.segment<3>(p.q) + p.R * data.p_LC;
    {
      // (E6′): the depth the hull already has at t is kept, not pushed out at −φ₀/dt (ecp_model.hpp).
      Eigen::Vector3d unused;
      const double phi_0 = support_centroid(p, p.c, p.R, 0.0, unused) - data.d;
      p.gap_floor = std::min(phi_0 + kGapFloorSlop, 0.0);
    }
    s_v_.segment<3>(p.v + 3).setConstant(U_ / p.L);

    // Faces of (E4)–(E5): all, or those touching a vertex near the bottom (kFaceWindowRelative).
    const int m_all = static_cast<int>(hull.offsets.size());
    p.faces.clear();
    if (all_faces || m_all <= kAllFacesUpTo) {
      for (int i = 0; i < m_all; ++i) p.faces.push_back(i);
    } else {
      const Eigen::Vector3d& n = data.n_W;
      const auto v_lin = problem.v.segment<3>(p.v), v_star = problem.v_star.segment<3>(p.v);
      const auto w = problem.v.segment<3>(p.v + 3), w_star = problem.v_star.segment<3>(p.v + 3);
      const double speed = std::max(v_lin.norm(), v_star.norm()) + std::max(w.norm(), w_star.norm()) * p.L;
      const double window = kFaceWindowRelative * p.L + kFaceWindowSteps * dt_ * speed;
      const Eigen::Index nh = hull.vertices.cols();
      if (face_values_.size() < nh) face_values_.resize(nh);   // grow-only: hulls of every size in turn
      auto height = face_values_.head(nh);
      height.transpose().noalias() = (n.transpose() * p.R) * hull.vertices;   // + a constant
      const double lowest = height.minCoeff();
      for (int i = 0; i < m_all; ++i)
        for (int j : hull.faces[i])
          if (height[j] <= lowest + window) {
            p.faces.push_back(i);
            break;
          }
    }
    p.m = static_cast<int>(p.faces.size());
    p.u_bar.resize(3, p.m);
    p.d_c.resize(p.m);
    for (int k = 0; k < p.m; ++k) {
      const int i = p.faces[k];
      p.u_bar.col(k) = p.R * hull.normals.col(i);
      p.d_c[k] = hull.offsets[i] - hull.normals.col(i).dot(data.p_LC);
    }
    nu_[e].resize(3, p.m);
    nu_r_[e].resize(p.m);
    p.z = n_;
    n_ += 8 + p.m;
  }

  // Point contacts: the rows no pair stands for, with their effective masses m_c = 1/(N M⁻¹ Nᵀ)_cc.
  points_.clear();
  Eigen::VectorXd& row = row_;
  Eigen::VectorXd& Minv_row = Minv_row_;
  for (int r = 0; r < problem.nc; ++r) {
    if (!hull_plane.replaced_by.empty() && hull_plane.replaced_by[r] >= 0) continue;
    row = problem.N.row(r).transpose();
    problem.solve_M(row, Minv_row);
    const double w = row.dot(Minv_row);
    points_.push_back({r, n_, (w > 0 ? 1.0 / w : 1.0) * U_});
    n_ += 4;
  }
  limits_z_ = n_;
  P_L_.resize(problem.nl);
  for (int r = 0; r < problem.nl; ++r) {
    row = problem.L.row(r).transpose();
    problem.solve_M(row, Minv_row);
    const double w = row.dot(Minv_row);
    P_L_[r] = (w > 0 ? 1.0 / w : 1.0) * U_;
  }
  n_ += problem.nl;

  ne_row_scale_.resize(nv_);
  for (const SystemBlock& s : problem.systems)
    for (int j = 0; j < s.size; ++j) {
      const double Mjj = (*s.M)(j, j);
      ne_row_scale_[s.offset + j] = 1.0 / (std::max(Mjj, 1e-300) * s_v_[s.offset + j]);
    }

  bounded_.assign(n_, 0);
  weight_.assign(n_, 1.0);
  for (const Pair& p : pairs_) {
    for (int k = 0; k < p.m; ++k) {
      bounded_[p.l() + k] = 1;
      weight_[p.l() + k] = p.L / (U_ * dt_);
    }
    bounded_[p.pn()] = 1;
    bounded_[p.sigma()] = 1;
  }
  for (const Point& c : points_) {
    bounded_[c.z] = 1;
    bounded_[c.z + 3] = 1;
  }
  for (int r = 0; r < problem.nl; ++r) bounded_[limits_z_ + r] = 1;
}

void EcpSystem::pair_configuration(const Pair& p, const Eigen::VectorXd& z, Eigen::Vector3d& c_plus,
                                   Eigen::Matrix3d& R_plus) const {
  const Eigen::Vector3d v_lin = U_ * z.segment<3>(p.v), omega = (U_ / p.L) * z.segment<3>(p.v + 3);
  c_plus = p.c + dt_ * v_lin;                 // the integrator moves the centre of mass by dt·v_WC
  R_plus = so3_exp(dt_ * omega) * p.R;        // and turns the body about it (dynamics/integration.hpp)
}

void EcpSystem::evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) {
  const ContactProblem& P = *problem_;
  F.setZero(n_);
  if (J != nullptr) J->setZero(n_, n_);
  v_ = s_v_.cwiseProduct(z.head(nv_));
  v_minus_star_ = v_ - P.v_star;   // as its own vector: inside the product below it is a temporary (allocation)

  // (E1) Newton–Euler, unscaled: M(v⁺ − v*) − (impulses, added below).
  for (const SystemBlock& s : P.systems) {
    if (s.size == 0) continue;
    const Eigen::MatrixXd& M = *s.M;
    F.segment(s.offset, s.size).noalias() = M * v_minus_star_.segment(s.offset, s.size);
    if (J != nullptr)
      J->block(s.offset, s.offset, s.size, s.size) = M * s_v_.segment(s.offset, s.size).asDiagonal();
  }

  // Point contacts (E9)–(E10), circular Coulomb cone by maximum dissipation.
  for (const Point& c : points_) {
    const double pn = z[c.z], bS = z[c.z + 1], bT = z[c.z + 2], sigma = z[c.z + 3];
    const double mu = P.mu[c.row];
    double vn = 0, vs = 0, vt = 0;
    for (SparseRows::InnerIterator it(P.N, c.row); it; ++it) vn += it.value() * v_[it.col()];
    for (SparseRows::InnerIterator it(P.S, c.row); it; ++it) vs += it.value() * v_[it.col()];
    for (SparseRows::InnerIterator it(P.T, c.row); it; ++it) vt += it.value() * v_[it.col()];
    const double b_norm = std::hypot(bS, bT);
    F[c.z] = (vn + P.phi[c.row] / dt_) / U_;
    F[c.z + 1] = mu * pn * vs / U_ + sigma * bS;
    F[c.z + 2] = mu * pn * vt / U_ + sigma * bT;
    F[c.z + 3] = mu * pn - b_norm;
    auto add_row = [&](const SparseRows& A, double impulse, int column) {
      for (SparseRows::InnerIterator it(A, c.row); it; ++it) {
        F[it.col()] -= it.value() * c.P * impulse;
        if (J != nullptr) (*J)(it.col(), column) -= it.value() * c.P;
      }
    };
    add_row(P.N, pn, c.z);
    add_row(P.S, bS, c.z + 1);
    add_row(P.T, bT, c.z + 2);
    if (J == nullptr) continue;
    for (SparseRows::InnerIterator it(P.N, c.row); it; ++it) (*J)(c.z, it.col()) = it.value() * s_v_[it.col()] / U_;
    for (SparseRows::InnerIterator it(P.S, c.row); it; ++it)
      (*J)(c.z + 1, it.col()) = mu * pn * it.value() * s_v_[it.col()] / U_;
    for (SparseRows::InnerIterator it(P.T, c.row); it; ++it)
      (*J)(c.z + 2, it.col()) = mu * pn * it.value() * s_v_[it.col()] / U_;
    (*J)(c.z + 1, c.z) = mu * vs / U_;
    (*J)(c.z + 1, c.z + 1) = sigma;
    (*J)(c.z + 1, c.z + 3) = bS;
    (*J)(c.z + 2, c.z) = mu * vt / U_;
    (*J)(c.z + 2, c.z + 2) = sigma;
    (*J)(c.z + 2, c.z + 3) = bT;
    (*J)(c.z + 3, c.z) = mu;
    if (b_norm > 0) {
      (*J)(c.z + 3, c.z + 1) = -bS / b_norm;
      (*J)(c.z + 3, c.z + 2) = -bT / b_norm;
    }
  }

  // Joint limits (E11), frictionless.
  for (int r = 0; r < P.nl; ++r) {
    const int iz = limits_z_ + r;
    double vl = 0;
    for (SparseRows::InnerIterator it(P.L, r); it; ++it) {
      vl += it.value() * v_[it.col()];
      F[it.col()] -= it.value() * P_L_[r] * z[iz];
      if (J != nullptr) {
        (*J)(it.col(), iz) -= it.value() * P_L_[r];
        (*J)(iz, it.col()) = it.value() * s_v_[it.col()] / U_;
      }
    }
    F[iz] = (vl + P.phi_L[r] / dt_) / U_;
  }

  for (std::size_t e = 0; e < pairs_.size(); ++e) evaluate_pair(pairs_[e], z, F, J, nu_[e], nu_r_[e]);

  // Scale the Newton–Euler rows (E1) last: every contribution above is in N·s.
  F.head(nv_).array() *= ne_row_scale_.array();
  if (J != nullptr) J->topRows(nv_) = ne_row_scale_.asDiagonal() * J->topRows(nv_);
}

void EcpSystem::evaluate_pair(const Pair& p, const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J,
                              Eigen::Matrix3Xd& nu, Eigen::VectorXd& nu_r) const {
  const BodyPlanePair& data = *p.data;
  const Eigen::Vector3d &n = data.n_W, &t = data.t_W, &o = data.o_W;
  const double mu = data.mu, L = p.L, P = p.P, U = U_, dt = dt_, ell = U * dt;
  const double e_t = surface_.e_t, e_o = surface_.e_o, e_r = surface_.e_r;

  // Configuration at t + dt (E3): c⁺ = c + dt v, R⁺ = exp(dt[ω]×) R.
  const Eigen::Vector3d v_lin = U * z.segment<3>(p.v), omega = (U / L) * z.segment<3>(p.v + 3);
  const Eigen::Vector3d c_plus = p.c + dt * v_lin;
  Eigen::Matrix3d Jl;
  const Eigen::Matrix3d E = so3_exp(dt * omega, &Jl);
  nu.noalias() = E * p.u_bar;                                          // ν_i = R⁺ u_i

  const Eigen::Vector3d a1 = p.c + p.A * z.segment<3>(p.alpha());
  const Eigen::Vector3d r = a1 - c_plus;                                // ECP about the centre of mass at t + dt
  const auto l = z.segment(p.l(), p.m);
  const double pn = z[p.pn()], sigma = z[p.sigma()];
  const Eigen::Vector3d b = z.segment<3>(p.b());

  // (E4) stationarity of the closest-point problem, normalised by the plane's gradient: Σ l_i ν_i + n = 0.
  const Eigen::Vector3d nu_l = nu * l;
  F.segment<3>(p.alpha()) = nu_l + n;
  // (E5) a1 ∈ Conv(F⁺): −f_i(a1)/(U dt) ≥ 0 ⊥ l_i ≥ 0,  f_i = ν_iᵀ r − d_i.
  nu_r.noalias() = nu.transpose() * r;
  F.segment(p.l(), p.m) = -(nu_r - p.d_c) / ell;
  // (E6′) non-penetration at the ECP: n·a1 − d − φ_floor ≥ 0 ⊥ p_n ≥ 0 (φ_floor = 0 unless the hull
  // penetrates at t).
  F[p.pn()] = (n.dot(a1) - data.d - p.gap_floor) / (U * dt);

  // (E7)–(E8) ellipsoidal maximum-power-dissipation friction at the ECP (seed 003 Eqs. 14–15).
  const Eigen::Vector3d u_a = v_lin + omega.cross(r);                   // velocity of the body point at a1
  const Eigen::Vector3d w(t.dot(u_a), o.dot(u_a), n.dot(omega));       // (W_tᵀν, W_oᵀν, W_rᵀν), Eq. 2
  const Eigen::Vector3d e(e_t, e_o, e_r);
  const Eigen::Vector3d w_hat = e.cwiseProduct(w);
  const double b_norm = b.norm();
  F.segment<3>(p.b()) = (mu * pn / U) * w_hat + sigma * b;
  F[p.sigma()] = mu * pn - b_norm;

  // (E1) the ECP wrench on the body: force f at a1, moment r × f + p_r n about the centre of mass (Eq. 2, 18).
  const Eigen::Vector3d f = P * (pn * n + e_t * b[0] * t + e_o * b[1] * o);
  F.segment<3>(p.v) -= f;
  F.segment<3>(p.v + 3) -= r.cross(f) + (P * e_r * b[2]) * n;

  if (J == nullptr) return;
  Eigen::MatrixXd& H = *J;
  const double s_lin = U, s_ang = U / L;   // column scales of the body's velocity
  const Eigen::Matrix3d dJ_omega = dt * Jl;   // ∂(dt ω)/∂ω composed with J_l

  // (E4): ∂/∂l_i = ν_i; ∂/∂ω = −dt [Σ l_i ν_i]× J_l.
  H.block(p.alpha(), p.l(), 3, p.m) = nu;
  H.block<3, 3>(p.alpha(), p.v + 3) = -skew(nu_l) * dJ_omega * s_ang;
  // (E5): ∂f_i/∂a1 = ν_iᵀ, ∂f_i/∂v = −dt ν_iᵀ, ∂f_i/∂ω = dt (ν_i × r)ᵀ J_l.
  for (int k = 0; k < p.m; ++k) {
    const Eigen::Vector3d nu_k = nu.col(k);
    const int row = p.l() + k;
    H.block<1, 3>(row, p.alpha()) = -nu_k.transpose() * p.A / ell;
    H.block<1, 3>(row, p.v) = (dt * s_lin / ell) * nu_k.transpose();
    H.block<1, 3>(row, p.v + 3) = -(s_ang / ell) * nu_k.cross(r).transpose() * dJ_omega;
  }
  // (E6): ∂/∂a1 = nᵀ.
  H.block<1, 3>(p.pn(), p.alpha()) = n.transpose() * p.A / ell;

  // (E7): ∂u_a/∂v = I − dt[ω]×, ∂u_a/∂ω = −[r]×, ∂u_a/∂a1 = [ω]×; w_r = n·ω.
  const Eigen::Matrix3d W_omega = skew(omega);
  Eigen::Matrix3d dw_dv, dw_domega, dw_da;
  const Eigen::Matrix3d dua_dv = Eigen::Matrix3d::Identity() - dt * W_omega;
  dw_dv.row(0) = t.transpose() * dua_dv;
  dw_dv.row(1) = o.transpose() * dua_dv;
  dw_dv.row(2).setZero();
  dw_domega.row(0) = r.cross(t).transpose();
  dw_domega.row(1) = r.cross(o).transpose();
  dw_domega.row(2) = n.transpose();
  dw_da.row(0) = t.transpose() * W_omega;
  dw_da.row(1) = o.transpose() * W_omega;
  dw_da.row(2).setZero();
  const Eigen::Matrix3d scale_rows = ((mu * pn / U) * e).asDiagonal();
  H.block<3, 3>(p.b(), p.v) = scale_rows * dw_dv * s_lin;
  H.block<3, 3>(p.b(), p.v + 3) = scale_rows * dw_domega * s_ang;
  H.block<3, 3>(p.b(), p.alpha()) = scale_rows * dw_da * p.A;
  H.block<3, 1>(p.b(), p.pn()) = (mu / U) * w_hat;
  H.block<3, 3>(p.b(), p.b()) = sigma * Eigen::Matrix3d::Identity();
  H.block<3, 1>(p.b(), p.sigma()) = b;
  // (E8): ∂/∂π_n = μ, ∂/∂b = −b/‖b‖ (0 at b = 0, an element of the subdifferential of ‖·‖).
  H(p.sigma(), p.pn()) = mu;
  if (b_norm > 0) H.block<1, 3>(p.sigma(), p.b()) = -b.transpose() / b_norm;

  // (E1): −∂(wrench)/∂(π_n, b, a1, v).
  H.block<3, 1>(p.v, p.pn()) -= P * n;
  H.block<3, 1>(p.v, p.b()) -= P * e_t * t;
  H.block<3, 1>(p.v, p.b() + 1) -= P * e_o * o;
  H.block<3, 1>(p.v + 3, p.pn()) -= P * r.cross(n);
  H.block<3, 1>(p.v + 3, p.b()) -= P * e_t * r.cross(t);
  H.block<3, 1>(p.v + 3, p.b() + 1) -= P * e_o * r.cross(o);
  H.block<3, 1>(p.v + 3, p.b() + 2) -= P * e_r * n;
  // ∂(r × f)/∂r = −[f]×, ∂r/∂a1 = I, ∂r/∂v = −dt I.
  H.block<3, 3>(p.v + 3, p.alpha()) += skew(f) * p.A;
  H.block<3, 3>(p.v + 3, p.v) -= dt * skew(f) * s_lin;
}

double EcpSystem::support_centroid(const Pair& p, const Eigen::Vector3d& c, const Eigen::Matrix3d& R, double window,
                                   Eigen::Vector3d& centroid) const {
  const BodyPlanePair& data = *p.data;
  const BodyHull& hull = *data.hull;
  const Eigen::Index nh = hull.vertices.cols();
  if (face_values_.size() < nh) face_values_.resize(nh);   // grow-only: hulls of every size in turn
  auto height = face_values_.head(nh);
  height.transpose().noalias() = (data.n_W.transpose() * R) * hull.vertices;   // + a constant
  const double lowest = height.minCoeff();
  centroid.setZero();
  int count = 0;
  for (int j = 0; j < height.size(); ++j)
    if (height[j] <= lowest + window) {
      centroid += c + R * (hull.vertices.col(j) - data.p_LC);
      ++count;
    }
  centroid /= std::max(count, 1);
  return lowest + data.n_W.dot(c - R * data.p_LC);
}

void EcpSystem::predicted_configuration(const Pair& p, const Eigen::VectorXd& v, Eigen::Vector3d& c_plus,
                                        Eigen::Matrix3d& R_plus) const {
  c_plus = p.c + dt_ * v.segment<3>(p.v);
  R_plus = so3_exp(dt_ * v.segment<3>(p.v + 3)) * p.R;
}

void EcpSystem::add_pair_impulse(const Pair& p, const Eigen::Vector3d& a1, const Eigen::Vector4d& impulse,
                                 Eigen::VectorXd& generalized) const {
  const BodyPlanePair& data = *p.data;
  const Eigen::Vector3d f = impulse[0] * data.n_W + impulse[1] * data.t_W + impulse[2] * data.o_W;
  generalized.segment<3>(p.v) += f;
  generalized.segment<3>(p.v + 3) += (a1 - p.c).cross(f) + impulse[3] * data.n_W;
}

void EcpSystem::initial_guess(Start start, Eigen::VectorXd& z) const {
  const bool warm = start == Start::Warm;
  const ContactProblem& P = *problem_;
  z.setZero(n_);
  Eigen::VectorXd& impulse = impulse_;   // Σ Wᵀp of the guesses
  impulse.setZero(nv_);

  for (const Point& c : points_) {
    if (!warm) continue;
    const double pN = P.p_N_guess.size() == P.nc ? P.p_N_guess[c.row] : 0;
    const double pS = P.p_S_guess.size() == P.nc ? P.p_S_guess[c.row] : 0;
    const double pT = P.p_T_guess.size() == P.nc ? P.p_T_guess[c.row] : 0;
    z[c.z] = std::max(pN, 0.0) / c.P;
    z[c.z + 1] = pS / c.P;
    z[c.z + 2] = pT / c.P;
    for (SparseRows::InnerIterator it(P.N, c.row); it; ++it) impulse[it.col()] += it.value() * std::max(pN, 0.0);
    for (SparseRows::InnerIterator it(P.S, c.row); it; ++it) impulse[it.col()] += it.value() * pS;
    for (SparseRows::InnerIterator it(P.T, c.row); it; ++it) impulse[it.col()] += it.value() * pT;
  }
  for (int r = 0; r < P.nl; ++r) {
    const double pL = warm && P.p_L_guess.size() == P.nl ? std::max(P.p_L_guess[r], 0.0) : 0;
    z[limits_z_ + r] = pL / P_L_[r];
    for (SparseRows::InnerIterator it(P.L, r); it; ++it) impulse[it.col()] += it.value() * pL;
  }

  // Pairs, in two passes. (1) Impulses: the warm guesses, or the normal impulse that stops the centre of
  // mass's approach. (2) The ECP: the support set of the hull at the configuration a predicted velocity
  // reaches (E3); a warm ECP is kept while it stays in that support set. A body landing on a face thus
  // starts with its ECP at the edge that comes down, not at the pivot it leaves.
  pair_p_.resize(pairs_.size());
  pair_a1_.resize(pairs_.size());
  for (std::size_t e = 0; e < pairs_.size(); ++e) {
    const Pair& p = pairs_[e];
    const BodyPlanePair& data = *p.data;
    const Eigen::Vector3d& n = data.n_W;
    Eigen::Vector3d a1;
    support_centroid(p, p.c, p.R, kSupportSetRelative * p.L, a1);
    const bool use_guess = warm && data.has_guess && data.l_guess.size() == data.hull->offsets.size();
    Eigen::Vector4d& p_phys = pair_p_[e];
    if (use_guess) {
      a1 = data.a1_guess;
      p_phys = data.p_guess;
      p_phys[0] = std::max(p_phys[0], 0.0);
    } else {
      const double approach = -n.dot(P.v_star.segment<3>(p.v));
      p_phys.setZero();
      p_phys[0] = p.mass * std::max(0.0, approach - (n.dot(a1) - data.d - p.gap_floor) / dt_);
    }
    pair_a1_[e] = a1;
    add_pair_impulse(p, a1, p_phys, impulse);
  }
  // The velocity that predicts where the hull goes: v* + M⁻¹ Σ Wᵀp with the warm impulses, v* alone for a
  // cold start (a guessed normal impulse at a guessed point would spin the body the wrong way).
  if (warm) {
    P.solve_M(impulse, dv_);
    dv_ += P.v_star;
  } else {
    dv_ = P.v_star;
  }

  for (std::size_t e = 0; e < pairs_.size(); ++e) {
    const Pair& p = pairs_[e];
    const BodyPlanePair& data = *p.data;
    const Eigen::Vector3d& n = data.n_W;
    const Eigen::Vector4d& p_phys = pair_p_[e];
    Eigen::Vector3d& a1 = pair_a1_[e];
    const Eigen::Vector3d old_impulse_a1 = a1;

    Eigen::Vector3d c_plus = p.c;
    Eigen::Matrix3d R_plus = p.R;
    if (start != Start::Current) predicted_configuration(p, dv_, c_plus, R_plus);
    // Level: every hull point that the step's motion could bring down to the lowest one.
    const double speed = dv_.segment<3>(p.v).norm() + dv_.segment<3>(p.v + 3).norm() * p.L;
    const double window = kSupportSetRelative * p.L + (start == Start::Level ? dt_ * speed : 0.0);
    Eigen::Vector3d a1_support;
    const double lowest = support_centroid(p, c_plus, R_plus, window, a1_support);
    const bool use_guess = warm && data.has_guess && data.l_guess.size() == data.hull->offsets.size();
    // Where the warm ECP, carried with the body, would be at the guessed q⁺.
    const Eigen::Vector3d carried = c_plus + R_plus * p.R.transpose() * (a1 - p.c);
    const bool keep = use_guess && n.dot(carried) - lowest <= kGuessSupportRelative * p.L;
    if (keep) {
      for (int k = 0; k < p.m; ++k) z[p.l() + k] = std::max(data.l_guess[p.faces[k]], 0.0);
    } else {
      a1 = a1_support;
      // The faces through the guessed ECP share (E4) by non-negative least squares: both faces of an edge,
      // three of a vertex, the one of a face. (With the bottom face alone on an edge, the FB rows of the
      // other face would read "l = 0" and Newton would try to close the tilt in one step.)
      const Eigen::Matrix3Xd nu = R_plus * p.R.transpose() * p.u_bar;
      std::vector<int> through;
      for (int k = 0; k < p.m; ++k)
        if (std::abs(nu.col(k).dot(a1 - c_plus) - p.d_c[k]) <= window) through.push_back(k);
      Eigen::Matrix3Xd A(3, through.size());
      for (std::size_t i = 0; i < through.size(); ++i) A.col(i) = nu.col(through[i]);
      const Eigen::VectorXd l = nonnegative_least_squares(A, -n);
      for (std::size_t i = 0; i < through.size(); ++i) z[p.l() + through[i]] = l[i];
      if (through.empty() || l.sum() == 0) {   // no face reaches: the one turned most towards the plane
        int best = 0;
        for (int k = 1; k < p.m; ++k)
          if (-n.dot(nu.col(k)) > -n.dot(nu.col(best))) best = k;
        if (p.m > 0) z[p.l() + best] = 1.0 / std::max(-n.dot(nu.col(best)), kSmallestCosine);
      }
    }
    z.segment<3>(p.alpha()) = p.A_inv * (a1 - p.c);
    z[p.pn()] = p_phys[0] / p.P;
    z.segment<3>(p.b()) << p_phys[1] / (p.P * surface_.e_t), p_phys[2] / (p.P * surface_.e_o),
        p_phys[3] / (p.P * surface_.e_r);
    // A guessed σ is kept where a normal impulse is guessed too (ψ > 0 then keeps (ς, ψ) off the kink);
    // elsewhere the floors of kColdSlip and kMinimumSlip apply.
    const double sigma = use_guess ? std::max(data.sigma_guess, 0.0) : 0.0;
    const double floor = z[p.pn()] > 0 ? (keep ? 0.0 : kMinimumSlip) : kColdSlip;
    z[p.sigma()] = std::max(sigma / U_, floor);
    if (start == Start::Free) {
      // The slip rate of the free motion at the ECP (E7): a contact that the free motion slides into with
      // a vanishing normal impulse has ς = ‖ŵ‖/U at the solution; from ς = kColdSlip ≪ ‖ŵ‖/U Newton stalls
      // with b ≠ 0 at π_n ≈ 0, where (E7)–(E8) have no solution nearby (seen on landing, spinning boxes).
      const Eigen::Vector3d omega = dv_.segment<3>(p.v + 3);
      const Eigen::Vector3d u_a = dv_.segment<3>(p.v) + omega.cross(a1 - c_plus);
      const Eigen::Vector3d w_hat(surface_.e_t * data.t_W.dot(u_a), surface_.e_o * data.o_W.dot(u_a),
                                  surface_.e_r * n.dot(omega));
      z[p.sigma()] = std::max(w_hat.norm() / U_, kColdSlip);
    }
    // Move the pair's impulse to the ECP finally chosen, so that (E1) holds at the start.
    if (a1 != old_impulse_a1) {
      add_pair_impulse(p, old_impulse_a1, -p_phys, impulse);
      add_pair_impulse(p, a1, p_phys, impulse);
    }
  }

  // v⁺ = v* + M⁻¹ Σ Wᵀp: (E1) holds at the start.
  P.solve_M(impulse, dv_);
  dv_ += P.v_star;
  z.head(nv_) = dv_.cwiseQuotient(s_v_);

  for (const Point& c : points_) {
    double vs = 0, vt = 0;
    for (SparseRows::InnerIterator it(P.S, c.row); it; ++it) vs += it.value() * dv_[it.col()];
    for (SparseRows::InnerIterator it(P.T, c.row); it; ++it) vt += it.value() * dv_[it.col()];
    z[c.z + 3] = std::max(std::hypot(vs, vt) / U_, z[c.z] > 0 ? kMinimumSlip : kColdSlip);
  }
}

void EcpSystem::extract(const Eigen::VectorXd& z, ContactResult& result) const {
  const ContactProblem& P = *problem_;
  result.v_plus = s_v_.cwiseProduct(z.head(nv_));
  result.p_N.setZero(P.nc);
  result.p_S.setZero(P.nc);
  result.p_T.setZero(P.nc);
  for (const Point& c : points_) {
    result.p_N[c.row] = c.P * z[c.z];
    result.p_S[c.row] = c.P * z[c.z + 1];
    result.p_T[c.row] = c.P * z[c.z + 2];
  }
  result.p_L.resize(P.nl);
  for (int r = 0; r < P.nl; ++r) result.p_L[r] = P_L_[r] * z[limits_z_ + r];

  result.q_plus = hull_plane_->q;   // every coordinate but the pairs' bodies: q (the stepper integrates those)
  result.q_plus_systems.clear();
  result.contacts.clear();
  std::vector<BodyPlaneSolution>& solutions = result.extension.slot<HullPlaneResult>().pairs;
  solutions.resize(pairs_.size());
  for (std::size_t e = 0; e < pairs_.size(); ++e) {
    const Pair& p = pairs_[e];
    const BodyPlanePair& data = *p.data;
    BodyPlaneSolution& s = solutions[e];
    s.body = data.body;
    s.a1_W = p.c + p.A * z.segment<3>(p.alpha());
    s.gap = data.n_W.dot(s.a1_W) - data.d;
    s.a2_W = s.a1_W - s.gap * data.n_W;
    s.p_n = p.P * z[p.pn()];
    s.p_t = p.P * surface_.e_t * z[p.b()];
    s.p_o = p.P * surface_.e_o * z[p.b() + 1];
    s.p_r = p.P * surface_.e_r * z[p.b() + 2];
    s.sigma = U_ * z[p.sigma()];
    s.l.setZero(data.hull->offsets.size());
    s.active_face = -1;
    double largest = 0;
    for (int k = 0; k < p.m; ++k) {
      s.l[p.faces[k]] = z[p.l() + k];
      if (z[p.l() + k] > largest) {
        largest = z[p.l() + k];
        s.active_face = p.faces[k];
      }
    }

    // q⁺ of the body exactly as dynamics/integration.hpp forms it: R⁺ = exp(dt ω) R, p⁺ = c⁺ − R⁺ p_LC.
    const Eigen::Vector3d v_lin = U_ * z.segment<3>(p.v), omega = (U_ / p.L) * z.segment<3>(p.v + 3);
    const Eigen::Vector3d rotation = dt_ * omega;
    const double angle = rotation.norm();
    const Eigen::Quaterniond dq = angle > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, rotation / angle))
                                            : Eigen::Quaterniond::Identity();
    const Eigen::Quaterniond R_plus = (dq * quaternion_of(hull_plane_->q, p.q + 3)).normalized();
    const Eigen::Vector3d c_plus = p.c + dt_ * v_lin;
    result.q_plus.segment<3>(p.q) = c_plus - R_plus * data.p_LC;
    result.q_plus.segment<4>(p.q + 3) << R_plus.w(), R_plus.x(), R_plus.y(), R_plus.z();
    result.q_plus_systems.push_back(data.system);
    // The ECP with its impulses (p_n, p_t, p_o along n, t, o: the t1, t2 of the point rows) stands for the
    // pair's point contacts in the report.
    result.contacts.push_back({data.body, -1, s.a1_W, data.n_W, s.gap, Eigen::Vector3d(s.p_n, s.p_t, s.p_o)});
  }
}

double EcpSystem::check_all_faces(const Eigen::VectorXd& z) const {
  double worst = 0;
  for (const Pair& p : pairs_) {
    const BodyPlanePair& data = *p.data;
    const BodyHull& hull = *data.hull;
    Eigen::Vector3d c_plus;
    Eigen::Matrix3d R_plus;
    pair_configuration(p, z, c_plus, R_plus);
    const Eigen::Vector3d a1 = p.c + p.A * z.segment<3>(p.alpha());
    const Eigen::Vector3d r_L = R_plus.transpose() * (a1 - c_plus) + data.p_LC;   // a1 in L
    worst = std::max(worst, (hull.normals.transpose() * r_L - hull.offsets).maxCoeff());
    const double lowest = ((data.n_W.transpose() * R_plus) * hull.vertices).minCoeff() +
                          data.n_W.dot(c_plus - R_plus * data.p_LC);
    worst = std::max(worst, data.n_W.dot(a1) - lowest);
  }
  return worst / (U_ * dt_);
}

bool EcpSystem::has_face_selection() const {
  for (const Pair& p : pairs_)
    if (p.m < static_cast<int>(p.data->hull->offsets.size())) return true;
  return false;
}

std::string EcpSystem::describe_row(int i) const {
  if (i < 0 || i >= n_) return "no row";
  if (i < nv_) return "Newton-Euler row " + std::to_string(i);
  for (const Pair& p : pairs_) {
    if (i < p.z || i >= p.sigma() + 1) continue;
    const std::string body = " of body " + std::to_string(p.data->body) + " on its plane";
    if (i < p.l()) return "closest-point stationarity" + body;
    if (i < p.pn()) return "hull face " + std::to_string(p.faces[i - p.l()]) + " complementarity" + body;
    if (i == p.pn()) return "non-penetration" + body;
    if (i < p.sigma()) return "friction direction" + body;
    return "friction limit surface" + body;
  }
  for (const Point& c : points_) {
    if (i < c.z || i > c.z + 3) continue;
    const std::string row = " of point contact row " + std::to_string(c.row);
    if (i == c.z) return "non-penetration" + row;
    if (i < c.z + 3) return "friction direction" + row;
    return "friction cone" + row;
  }
  return "joint limit row " + std::to_string(i - limits_z_);
}

}  // namespace impetus::ecp
