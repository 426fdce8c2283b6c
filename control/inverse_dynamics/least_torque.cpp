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

void undriven_impulse_kernel(const Eigen::MatrixXd& Jt, const std::vector<int>& actuated, Eigen::MatrixXd& Z) {
  const int nv = static_cast<int>(Jt.rows()), m = static_cast<int>(Jt.cols());
  std::vector<char> driven(nv, 0);
  for (int a : actuated) driven[a] = 1;
  Eigen::MatrixXd E(nv - static_cast<int>(actuated.size()), m);
  for (int i = 0, r = 0; i < nv; ++i)
    if (!driven[i]) E.row(r++) = Jt.row(i);
  if (E.rows() == 0) {
    Z = Eigen::MatrixXd::Identity(m, m);
    return;
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(E.transpose());
  qr.setThreshold(kRankTolerance);
  const Eigen::MatrixXd Q = qr.householderQ();
  Z = Q.rightCols(m - static_cast<int>(qr.rank()));
}

bool LeastTorqueSelection::select(const Eigen::MatrixXd& Jt, const std::vector<char>& nonnegative,
                                  const std::vector<int>& actuated, Eigen::VectorXd& x, Eigen::VectorXd& tau,
                                  LeastTorqueReport& report) {
  report = {};
  const int m = static_cast<int>(Jt.cols()), na = static_cast<int>(actuated.size());
  if (m == 0 || na == 0) return true;
  undriven_impulse_kernel(Jt, actuated, Z_);
  const int dim = static_cast<int>(Z_.cols());
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
  const Eigen::VectorXd c = -A_.transpose() * tau;

  // (LT3): (LT2) through its dual (dual_qp.hpp), the rows being the bounded components of x + Z w ≥ 0.
  std::vector<int> bounded;
  for (int i = 0; i < m; ++i)
    if (nonnegative[i]) bounded.push_back(i);
  const int nb = static_cast<int>(bounded.size());
  C_.resize(nb, dim);
  Eigen::VectorXd d(nb);
  for (int k = 0; k < nb; ++k) {
    C_.row(k) = Z_.row(bounded[k]);
    d[k] = x[bounded[k]];
  }
  const LemkeResult result = dual_.solve(Q, c, C_, d, w_);
  report.pivots = result.pivots;
  if (!result.solved()) return false;
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
