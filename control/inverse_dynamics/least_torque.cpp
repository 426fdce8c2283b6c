// Least-‖τ‖ impulses at a fixed v⁺ (least_torque.hpp, LT1–LT3).
#include "control/inverse_dynamics/least_torque.hpp"

#include <Eigen/QR>
#include <algorithm>

namespace impetus {
namespace {

// Rank of U Jᵀ (LT1): |R_ii| of its pivoted QR above this fraction of the largest. Its entries are unit
// directions and lever arms (≤ 1 m); dependent columns (a foot's tangent rows beside the base's six
// DoF) are dependent exactly, so their R_ii is round-off, ~1e-15; 1e-9 separates the two as the
// Stage II face of id_qp does (kNullspaceTolerance).
constexpr double kRankTolerance = 1e-9;
// ε of (LT2), relative to ‖A‖²_F/dim: breaks ties only where τ does not depend on w (two rows of one
// contact both loaded); it moves τ by ~1e-10 relative.
constexpr double kRegularization = 1e-10;
// The dual's p_N may end below 0 by Lemke's certificate (1e-6 relative, lemke.hpp L6): accepted down to
// this fraction of the largest impulse and clamped.
constexpr double kFeasibility = 1e-6;

}  // namespace

bool LeastTorqueSelection::select(const Eigen::MatrixXd& Jt, const std::vector<char>& nonnegative,
                                  const std::vector<int>& actuated, Eigen::VectorXd& x, Eigen::VectorXd& tau,
                                  LeastTorqueReport& report) {
  report = {};
  const int nv = static_cast<int>(Jt.rows()), m = static_cast<int>(Jt.cols()), na = static_cast<int>(actuated.size());
  if (m == 0 || na == 0) return true;
  // E = U Jᵀ: the rows of Jᵀ at the coordinates no actuator drives.
  std::vector<char> driven(nv, 0);
  for (int a : actuated) driven[a] = 1;
  E_.resize(nv - na, m);
  for (int i = 0, r = 0; i < nv; ++i)
    if (!driven[i]) E_.row(r++) = Jt.row(i);
  // Z: an orthonormal basis of ker E, the trailing columns of Q in the pivoted QR of Eᵀ.
  int rank = 0;
  if (E_.rows() > 0) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(E_.transpose());
    qr.setThreshold(kRankTolerance);
    rank = static_cast<int>(qr.rank());
    const Eigen::MatrixXd Q = qr.householderQ();
    Z_ = Q.rightCols(m - rank);
  } else {
    Z_ = Eigen::MatrixXd::Identity(m, m);
  }
  const int dim = m - rank;
  report.freedom = dim;
  if (dim == 0) return true;

  // A = P Jᵀ Z; Q = AᵀA + εI; c = −Aᵀτ.
  A_.resize(na, dim);
  {
    Eigen::MatrixXd PJt(na, m);
    for (int a = 0; a < na; ++a) PJt.row(a) = Jt.row(actuated[a]);
    A_.noalias() = PJt * Z_;
  }
  Eigen::MatrixXd Q = A_.transpose() * A_;
  const double scale = std::max(A_.squaredNorm() / dim, 1e-300);
  Q.diagonal().array() += kRegularization * scale;
  const Eigen::LLT<Eigen::MatrixXd> Q_llt(Q);
  const Eigen::VectorXd c = -A_.transpose() * tau;

  std::vector<int> bounded;
  for (int i = 0; i < m; ++i)
    if (nonnegative[i]) bounded.push_back(i);
  const int nb = static_cast<int>(bounded.size());
  if (nb == 0) {
    w_ = -Q_llt.solve(c);
  } else {
    // (LT3): the dual of (LT2) in the multipliers λ of the bounded rows.
    C_.resize(nb, dim);
    Eigen::VectorXd d(nb);
    for (int k = 0; k < nb; ++k) {
      C_.row(k) = Z_.row(bounded[k]);
      d[k] = x[bounded[k]];
    }
    QinvCt_ = Q_llt.solve(C_.transpose());
    Eigen::MatrixXd D = C_ * QinvCt_;
    D = 0.5 * (D + D.transpose()).eval();
    const Eigen::VectorXd Qinv_c = Q_llt.solve(c);
    q_ = d - C_ * Qinv_c;
    lambda_.setZero(nb);
    const LemkeResult result = lemke_.solve(D, q_, lambda_);
    report.pivots = result.pivots;
    if (!result.solved()) return false;
    w_ = QinvCt_ * lambda_ - Qinv_c;
  }
  Eigen::VectorXd x_new = x + Z_ * w_;
  const double bound = kFeasibility * std::max(x.cwiseAbs().maxCoeff(), 1e-300);
  for (int k : bounded) {
    if (x_new[k] < -bound) return false;
    x_new[k] = std::max(x_new[k], 0.0);
  }
  const Eigen::VectorXd dtau = A_ * w_;
  report.changed = dtau.norm() > 1e-12 * std::max(tau.norm(), 1e-300);
  x = x_new;
  tau -= dtau;
  return true;
}

}  // namespace impetus
