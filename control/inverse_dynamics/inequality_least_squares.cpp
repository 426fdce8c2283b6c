// Least squares under linear inequalities, primal active set (inequality_least_squares.hpp, ILS1–ILS3).
#include "control/inverse_dynamics/inequality_least_squares.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

// Rank of C_Wᵀ and of A N: pivots above this fraction of the largest. The caller's rows are unit norm and
// rows that depend on others (copies of a contact) leave round-off pivots, ~1e-16; A's smallest singular
// value is ~√ε = 1e-5 of its largest with id_qp's tie-break (id_qp.cpp kStageTwoRegularization). 1e-9 as
// least_torque's kRankTolerance.
constexpr double kRankTolerance = 1e-9;
// A row joins W only when the step crosses it by more than round-off: C_i s < −this·‖C_i‖‖s‖. Rows W
// already implies have C_i s ~1e-16 ‖s‖.
constexpr double kCrossing = 1e-12;
// A step below this fraction of the problem's size (‖w‖, ‖d‖∞, ‖b‖/‖A‖_F) is round-off: w is the minimiser on W.
constexpr double kStepRoundoff = 1e-13;
// KKT tolerances relative to ‖A‖_F‖b‖, the gradient's size at w = 0. (ILS2) is solved by orthogonal
// factorisations to ~1e-16·cond(A N) ≤ 1e-11 relative (cond ≤ 1/√ε = 1e5 in id_qp); 1e-9 is above that
// and far below any multiplier that moves the answer.
constexpr double kKktTolerance = 1e-9;
// Feasibility of the result: C w + d ≥ −this·(‖d‖∞ + ‖w‖) (unit rows); steps stop on the blocking row to
// round-off.
constexpr double kFeasibility = 1e-12;

}  // namespace

void InequalityLeastSquares::equality_step(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                           const Eigen::MatrixXd& C, const Eigen::VectorXd& w) {
  const int n = static_cast<int>(C.cols()), k = static_cast<int>(working_.size());
  if (k == 0) {
    N_.setIdentity(n, n);
  } else {
    CWt_.resize(n, k);
    for (int j = 0; j < k; ++j) CWt_.col(j) = C.row(working_[j]).transpose();
    qr_.setThreshold(kRankTolerance);
    qr_.compute(CWt_);
    const Eigen::MatrixXd Q = qr_.householderQ();
    N_ = Q.rightCols(n - static_cast<int>(qr_.rank()));
  }
  s_.setZero(n);
  if (N_.cols() == 0) return;
  AN_.noalias() = A * N_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(kRankTolerance);
  cod.compute(AN_);
  const Eigen::VectorXd u = cod.solve(b - A * w);
  s_.noalias() = N_ * u;
}

double InequalityLeastSquares::multipliers(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                           const Eigen::VectorXd& w) {
  gradient_.noalias() = A.transpose() * (A * w - b);
  if (working_.empty()) {
    lambda_.resize(0);
    return gradient_.norm();
  }
  lambda_ = qr_.solve(gradient_);   // basic least-squares solution: zeros on dependent rows
  residual_ = gradient_;
  residual_.noalias() -= CWt_ * lambda_;
  return residual_.norm();
}

InequalityLeastSquaresResult InequalityLeastSquares::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                                           const Eigen::MatrixXd& C, const Eigen::VectorXd& d,
                                                           Eigen::VectorXd& w) {
  InequalityLeastSquaresResult result;
  const int n = static_cast<int>(C.cols()), m = static_cast<int>(C.rows());
  w.setZero(n);
  working_.clear();
  if (m > 0 && !(d.minCoeff() >= 0)) {
    result.reason = "w = 0 is not feasible";
    return result;
  }
  const double a_norm = A.norm();
  const double scale = std::max(a_norm * b.norm(), 1e-300);
  const double d_size = m > 0 ? d.cwiseAbs().maxCoeff() : 0.0;
  const double size = std::max({d_size, a_norm > 0 ? b.norm() / a_norm : 0.0, 1e-300});
  std::vector<char> held(m, 0);
  int dropped = -1;
  // Each iteration adds a row or leaves a minimiser on W; a convex QP visits each W at most once
  // without degeneracy. The cap only ends cycling at degenerate vertices.
  const int cap = 3 * (m + n) + 20;
  for (int it = 0; it < cap; ++it) {
    result.iterations = it + 1;
    equality_step(A, b, C, w);
    const double s_norm = s_.norm();
    int block = -1;
    if (s_norm > kStepRoundoff * std::max(size, w.norm())) {
      double alpha = 1;
      for (int i = 0; i < m; ++i) {
        if (held[i] || i == dropped) continue;
        const double cs = C.row(i).dot(s_);
        if (!(cs < -kCrossing * C.row(i).norm() * s_norm)) continue;
        const double step = std::max(C.row(i).dot(w) + d[i], 0.0) / -cs;
        if (step < alpha) alpha = step, block = i;
      }
      w.noalias() += alpha * s_;
    }
    dropped = -1;
    if (block >= 0) {
      working_.push_back(block);
      held[block] = 1;
      continue;
    }
    // w minimises (ILS1) on W: the multipliers decide (ILS3). equality_step left qr_ current for W.
    const double residual = multipliers(A, b, w);
    int leave = -1;
    double most_negative = -kKktTolerance * scale;
    for (int j = 0; j < static_cast<int>(working_.size()); ++j)
      if (lambda_[j] < most_negative) most_negative = lambda_[j], leave = j;
    if (leave >= 0) {
      dropped = working_[leave];
      held[dropped] = 0;
      working_.erase(working_.begin() + leave);
      continue;
    }
    result.working_rows = static_cast<int>(working_.size());
    result.min_slack = m > 0 ? (C * w + d).minCoeff() : 0.0;
    result.stationarity = residual / scale;
    result.min_multiplier = lambda_.size() > 0 ? lambda_.minCoeff() / scale : 0.0;
    const bool feasible = result.min_slack >= -kFeasibility * (d_size + w.norm());
    result.solved = feasible && result.stationarity <= kKktTolerance;
    if (!feasible) result.reason = "infeasible by round-off beyond the tolerance";
    else if (!result.solved) result.reason = "stationarity residual above the tolerance";
    return result;
  }
  result.reason = "iteration cap (cycling at a degenerate vertex)";
  return result;
}

}  // namespace impetus
