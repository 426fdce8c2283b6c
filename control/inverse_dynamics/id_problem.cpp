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
  Eigen::VectorXd e(nv_);
  for (int a = 0; a < na_; ++a) {
    e.setZero();
    e[problem.actuated[a]] = 1;
    cp.solve_M(e, col_);
    Minv_Pt_.col(a) = col_;
  }
  Eigen::MatrixXd G(na_, na_);
  for (int a = 0; a < na_; ++a)
    for (int b = 0; b < na_; ++b) G(a, b) = Minv_Pt_(problem.actuated[a], b);
  G_llt_.compute(G);
  if (na_ > 0 && G_llt_.info() != Eigen::Success) return false;

  // τ_c = G⁻¹(q̇_des − P v*), v_c = v* + M⁻¹Pᵀ τ_c  (ID3).
  Eigen::VectorXd residual(na_);
  for (int a = 0; a < na_; ++a) residual[a] = problem.qd_des[a] - cp.v_star[problem.actuated[a]];
  tau_c_ = na_ > 0 ? Eigen::VectorXd(G_llt_.solve(residual)) : Eigen::VectorXd();
  v_c_ = cp.v_star;
  if (na_ > 0) v_c_ += Minv_Pt_ * tau_c_;

  // J = [N; S; T] dense, Y = M⁻¹Jᵀ, K Jᵀ = Y − M⁻¹Pᵀ G⁻¹ P Y, T_τ = −G⁻¹ P Y  (ID2).
  J_.setZero(3 * nc_, nv_);
  if (nc_ > 0) {
    J_.topRows(nc_) = Eigen::MatrixXd(cp.N);
    J_.middleRows(nc_, nc_) = Eigen::MatrixXd(cp.S);
    J_.bottomRows(nc_) = Eigen::MatrixXd(cp.T);
  }
  Y_.resize(nv_, 3 * nc_);
  Eigen::VectorXd row(nv_);
  for (int r = 0; r < 3 * nc_; ++r) {
    row = J_.row(r).transpose();
    cp.solve_M(row, col_);
    Y_.col(r) = col_;
  }
  Eigen::MatrixXd PY(na_, 3 * nc_);
  for (int a = 0; a < na_; ++a) PY.row(a) = Y_.row(problem.actuated[a]);
  T_tau_ = na_ > 0 ? Eigen::MatrixXd(-G_llt_.solve(PY)) : Eigen::MatrixXd::Zero(0, 3 * nc_);
  KJt_ = Y_;
  if (na_ > 0) KJt_ += Minv_Pt_ * T_tau_;
  D_ = J_ * KJt_;
  D_ = 0.5 * (D_ + D_.transpose()).eval();   // symmetric up to roundoff
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
