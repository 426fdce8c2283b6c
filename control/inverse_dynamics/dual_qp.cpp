// Dense strictly convex QP by its dual LCP (dual_qp.hpp, DQ1–DQ2).
#include "control/inverse_dynamics/dual_qp.hpp"

namespace impetus {

LemkeResult DualQp::solve(const Eigen::MatrixXd& Q, const Eigen::VectorXd& r, const Eigen::MatrixXd& C,
                          const Eigen::VectorXd& d, Eigen::VectorXd& w) {
  Q_llt_.compute(Q);
  LemkeResult result;
  if (Q_llt_.info() != Eigen::Success) {
    result.status = LemkeStatus::NumericalFailure;
    return result;
  }
  Qinv_r_ = Q_llt_.solve(r);
  if (C.rows() == 0) {
    w = -Qinv_r_;
    return result;
  }
  QinvCt_ = Q_llt_.solve(C.transpose());
  D_.noalias() = C * QinvCt_;
  D_ = 0.5 * (D_ + D_.transpose()).eval();   // symmetric up to roundoff
  q_ = d;
  q_.noalias() -= C * Qinv_r_;
  lambda_.setZero(C.rows());
  result = lemke_.solve(D_, q_, lambda_);
  if (!result.solved()) return result;
  w = -Qinv_r_;
  w.noalias() += QinvCt_ * lambda_;
  return result;
}

}  // namespace impetus
