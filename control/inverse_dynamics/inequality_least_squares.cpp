// Least squares under linear inequalities, primal active set (inequality_least_squares.hpp, ILS1–ILS3).
#include "control/inverse_dynamics/inequality_least_squares.hpp"

#include <algorithm>
#include <cmath>

#include "control/inverse_dynamics/householder_solve.hpp"

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
  factor_ = &factors_[{n, k}];   // a new node only for a shape not met before
  WorkingFactor& F = *factor_;
  int r = 0;   // rank of C_Wᵀ
  if (k > 0) {
    F.CWt.resize(n, k);
    for (int j = 0; j < k; ++j) F.CWt.col(j) = C.row(working_[j]).transpose();
    F.qr.setThreshold(kRankTolerance);
    F.qr.compute(F.CWt);
    F.qr.householderQ().evalTo(F.Q, F.workspace);   // Q = householderQ(), its workspace kept
    r = static_cast<int>(F.qr.rank());
  }
  Projected& P = projections_[{static_cast<int>(A.rows()), n, n - r}];
  if (k == 0)
    P.N.setIdentity(n, n);
  else
    P.N = F.Q.rightCols(n - r);
  v_->s.setZero(n);
  if (P.N.cols() == 0) return;
  P.AN.noalias() = A * P.N;
  P.cod.setThreshold(kRankTolerance);
  P.cod.compute(P.AN);
  v_->Aw.noalias() = A * w;
  P.c = b - v_->Aw;
  // u of (ILS2): the least-norm u of A N u = c, as Eigen's COD solve computes it.
  cod_least_norm_solve(P.cod, P.c, P.scaled, P.y, P.temp, P.u);
  v_->s.noalias() = P.N * P.u;
}

double InequalityLeastSquares::multipliers(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                           const Eigen::VectorXd& w) {
  v_->Aw.noalias() = A * w;
  v_->r = v_->Aw - b;
  v_->gradient.noalias() = A.transpose() * v_->r;
  WorkingFactor& F = *factor_;
  const int k = static_cast<int>(working_.size());
  F.lambda.resize(k);
  if (k == 0) return v_->gradient.norm();
  // λ = qr.solve(gradient), ColPivHouseholderQR::_solve_impl (Eigen 3.4) with its temporary in F: the basic
  // least-squares solution, zeros on dependent rows.
  const Eigen::Index pivots = F.qr.nonzeroPivots();
  if (pivots == 0) {
    F.lambda.setZero();
  } else {
    F.c = v_->gradient;
    apply_q_adjoint(F.qr.matrixQR(), F.qr.hCoeffs(), pivots, F.c, F.scaled);
    F.qr.matrixQR().topLeftCorner(pivots, pivots).triangularView<Eigen::Upper>().solveInPlace(
        F.c.topRows(pivots));
    for (Eigen::Index i = 0; i < pivots; ++i) F.lambda.row(F.qr.colsPermutation().indices().coeff(i)) = F.c.row(i);
    for (Eigen::Index i = pivots; i < k; ++i) F.lambda.row(F.qr.colsPermutation().indices().coeff(i)).setZero();
  }
  v_->residual = v_->gradient;
  v_->residual.noalias() -= F.CWt * F.lambda;
  return v_->residual.norm();
}

void InequalityLeastSquares::make_working_shapes(int rows, int n, int m) {
  // W stays independent, so |W| ≤ min(n, m), and N has n − r ≤ n columns: the problem's vectors and the
  // buffers of every working set its shape can reach, each sized as equality_step and multipliers size it (the
  // factorizations of a zero matrix size theirs as of any other matrix of the shape).
  const int most = std::min(n, m);
  working_.reserve(most);
  held_.reserve(m);
  for (Eigen::VectorXd* x : {&v_->s, &v_->gradient, &v_->residual}) x->resize(n);
  for (Eigen::VectorXd* x : {&v_->Aw, &v_->r}) x->resize(rows);
  v_->slack.resize(m);
  for (int k = 1; k <= most; ++k) {
    WorkingFactor& F = factors_[{n, k}];
    if (F.CWt.rows() == n && F.CWt.cols() == k) continue;
    F.CWt.setZero(n, k);
    F.qr.compute(F.CWt);
    F.qr.householderQ().evalTo(F.Q, F.workspace);
    F.c.resize(n);
    F.scaled.resize(n);
    F.lambda.resize(k);
  }
  projections_[{rows, n, 0}].N.resize(n, 0);   // W spans everything: s = 0, nothing factored
  for (int columns = 1; columns <= n; ++columns) {
    Projected& P = projections_[{rows, n, columns}];
    if (P.AN.rows() == rows && P.AN.cols() == columns) continue;
    P.N.setZero(n, columns);
    P.AN.setZero(rows, columns);
    P.cod.compute(P.AN);
    P.c.resize(rows);
    P.scaled.resize(rows);
    P.y.resize(columns);
    P.temp.resize(columns);
    P.u.resize(columns);
  }
}

InequalityLeastSquaresResult InequalityLeastSquares::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                                           const Eigen::MatrixXd& C, const Eigen::VectorXd& d,
                                                           Eigen::VectorXd& w) {
  InequalityLeastSquaresResult result;
  const int n = static_cast<int>(C.cols()), m = static_cast<int>(C.rows());
  const auto [vectors, first_met] = vectors_.try_emplace({static_cast<int>(A.rows()), n, m});
  v_ = &vectors->second;
  if (first_met) make_working_shapes(static_cast<int>(A.rows()), n, m);
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
  held_.assign(m, 0);
  std::vector<char>& held = held_;
  int dropped = -1;
  // Each iteration adds a row or leaves a minimiser on W; a convex QP visits each W at most once
  // without degeneracy. The cap only ends cycling at degenerate vertices.
  const int cap = 3 * (m + n) + 20;
  for (int it = 0; it < cap; ++it) {
    result.iterations = it + 1;
    equality_step(A, b, C, w);
    const double s_norm = v_->s.norm();
    int block = -1;
    if (s_norm > kStepRoundoff * std::max(size, w.norm())) {
      double alpha = 1;
      for (int i = 0; i < m; ++i) {
        if (held[i] || i == dropped) continue;
        const double cs = C.row(i).dot(v_->s);
        if (!(cs < -kCrossing * C.row(i).norm() * s_norm)) continue;
        const double step = std::max(C.row(i).dot(w) + d[i], 0.0) / -cs;
        if (step < alpha) alpha = step, block = i;
      }
      w.noalias() += alpha * v_->s;
    }
    dropped = -1;
    if (block >= 0) {
      working_.push_back(block);
      held[block] = 1;
      continue;
    }
    // w minimises (ILS1) on W: the multipliers decide (ILS3). equality_step left factor_ current for W.
    const double residual = multipliers(A, b, w);
    int leave = -1;
    double most_negative = -kKktTolerance * scale;
    const Eigen::VectorXd& lambda = factor_->lambda;
    for (int j = 0; j < static_cast<int>(working_.size()); ++j)
      if (lambda[j] < most_negative) most_negative = lambda[j], leave = j;
    if (leave >= 0) {
      dropped = working_[leave];
      held[dropped] = 0;
      working_.erase(working_.begin() + leave);
      continue;
    }
    result.working_rows = static_cast<int>(working_.size());
    if (m > 0) {
      v_->slack.noalias() = C * w;
      v_->slack += d;
    }
    result.min_slack = m > 0 ? v_->slack.minCoeff() : 0.0;
    result.stationarity = residual / scale;
    result.min_multiplier = lambda.size() > 0 ? lambda.minCoeff() / scale : 0.0;
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
