// Elimination of τ, (ID2)–(ID3) of id_problem.hpp.
#include "control/inverse_dynamics/id_problem.hpp"

namespace impetus {

bool ActuatedElimination::build(const InverseDynamicsProblem& problem) {
  const ContactProblem& cp = *problem.contact;
  nv_ = cp.nv;
  na_ = static_cast<int>(problem.actuated.size());
  nc_ = cp.nc;

  // M⁻¹Pᵀ: the columns of M⁻¹ at the driven coordinates.
  Minv_Pt_.setZero(nv_, na_);
  col_.resize(nv_);
  unit_.resize(nv_);
  for (int a = 0; a < na_; ++a) {
    unit_.setZero();
    unit_[problem.actuated[a]] = 1;
    cp.solve_M(unit_, col_);
    Minv_Pt_.col(a) = col_;
  }
  G_.resize(na_, na_);
  for (int a = 0; a < na_; ++a)
    for (int b = 0; b < na_; ++b) G_(a, b) = Minv_Pt_(problem.actuated[a], b);
  G_llt_.compute(G_);
  if (na_ > 0 && G_llt_.info() != Eigen::Success) return false;

  // τ_c = G⁻¹(q̇_des − P v*), v_c = v* + M⁻¹Pᵀ τ_c  (ID3).
  residual_.resize(na_);
  for (int a = 0; a < na_; ++a) residual_[a] = problem.qd_des[a] - cp.v_star[problem.actuated[a]];
  if (na_ > 0)
    tau_c_ = G_llt_.solve(residual_);
  else
    tau_c_.resize(0);
  v_c_ = cp.v_star;
  if (na_ > 0) {
    Minv_Pt_tau_.noalias() = Minv_Pt_ * tau_c_;
    v_c_ += Minv_Pt_tau_;
  }

  // J = [N; S; T] dense, Y = M⁻¹Jᵀ, K Jᵀ = Y − M⁻¹Pᵀ G⁻¹ P Y, T_τ = −G⁻¹ P Y  (ID2).
  J_.setZero(3 * nc_, nv_);
  const SparseRows* blocks[3] = {&cp.N, &cp.S, &cp.T};
  for (int b = 0; b < 3; ++b)
    for (int r = 0; r < nc_; ++r)
      for (SparseRows::InnerIterator it(*blocks[b], r); it; ++it) J_(b * nc_ + r, it.col()) = it.value();
  Y_.resize(nv_, 3 * nc_);
  row_.resize(nv_);
  for (int r = 0; r < 3 * nc_; ++r) {
    row_ = J_.row(r).transpose();
    cp.solve_M(row_, col_);
    Y_.col(r) = col_;
  }
  PY_.resize(na_, 3 * nc_);
  for (int a = 0; a < na_; ++a) PY_.row(a) = Y_.row(problem.actuated[a]);
  if (na_ > 0) {
    T_tau_ = G_llt_.solve(PY_);
    T_tau_ = -T_tau_;
  } else {
    T_tau_.setZero(0, 3 * nc_);
  }
  KJt_ = Y_;
  if (na_ > 0) {
    Minv_Pt_T_.noalias() = Minv_Pt_ * T_tau_;
    KJt_ += Minv_Pt_T_;
  }
  D_.noalias() = J_ * KJt_;
  for (int j = 0; j < D_.cols(); ++j)   // symmetric up to roundoff: ½(D + Dᵀ)
    for (int i = 0; i <= j; ++i) D_(i, j) = D_(j, i) = 0.5 * (D_(i, j) + D_(j, i));
  return true;
}

void ActuatedElimination::torque(const Eigen::VectorXd& p, Eigen::VectorXd& tau) const {
  tau = tau_c_;
  if (nc_ > 0 && na_ > 0) tau.noalias() += T_tau_ * p;
}

void ActuatedElimination::velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v_plus) const {
  v_plus = v_c_;
  if (nc_ > 0) v_plus.noalias() += KJt_ * p;
}

}  // namespace impetus
