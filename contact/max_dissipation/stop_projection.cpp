// (MD14)–(MD15): the guess's velocity projected onto ker 𝐉_𝒜 by the regularized factor (stop_projection.hpp).
#include "contact/max_dissipation/stop_projection.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

// δ in units of the largest ‖𝐉_r‖²/m̄ (an estimate of A's largest diagonal entry, m̄ = tr M / nv): small enough
// that a round of (MD15) contracts the residual by δ/σ ≤ 1e-5 for every mode down to σ ~ 1e-4 of A's largest,
// large enough that the factor's rounding (∼ 1e-16 · 1/1e-9 relative) leaves each round a contraction.
constexpr double kRegularization = 1e-9;
// Rounds of (MD15): each must at least halve max|𝐉_𝒜 v| to be followed by another; from the interior point's
// tolerance (1e-8) to rounding takes two at the contraction above.
constexpr int kMaxRounds = 4;

}  // namespace

void StopProjection::velocity(const ContactProblem& problem, const SparseRows& J, const Eigen::VectorXd& p) {
  impulse_.noalias() = J.transpose() * p;
  problem.solve_M(impulse_, scratch_);
  v_ = problem.v_star + scratch_;
}

double StopProjection::row_residual(const Eigen::VectorXd& c, const std::vector<int>& rows) {
  r_.noalias() = J_ * v_;
  if (c.size() > 0)
    for (int k = 0; k < static_cast<int>(rows.size()); ++k) r_[k] += c[rows[k]];
  return r_.size() > 0 ? r_.lpNorm<Eigen::Infinity>() : 0.0;
}

void StopProjection::assemble(const ContactProblem& problem, double delta) {
  const int nv = problem.nv, rows = static_cast<int>(J_.rows()), n = nv + rows;
  // 𝐉_𝒜 by columns, each column's rows ascending.
  column_start_.assign(nv + 1, 0);
  for (int k = 0; k < J_.nonZeros(); ++k) ++column_start_[J_.innerIndexPtr()[k] + 1];
  for (int j = 0; j < nv; ++j) column_start_[j + 1] += column_start_[j];
  column_rows_.resize(J_.nonZeros());
  column_values_.resize(J_.nonZeros());
  fill_.assign(column_start_.begin(), column_start_.end() - 1);
  for (int row = 0; row < rows; ++row)
    for (SparseRows::InnerIterator a(J_, row); a; ++a) {
      const int at = fill_[a.col()]++;
      column_rows_[at] = row;
      column_values_[at] = a.value();
    }
  // K_δ's lower triangle: M's blocks (every entry of the lower triangle, so that the pattern depends on 𝒜 only),
  // 𝐉_𝒜 below them, −δ on the dual diagonal.
  long entries = J_.nonZeros() + rows;
  for (const SystemBlock& s : problem.systems) entries += static_cast<long>(s.size) * (s.size + 1) / 2;
  K_.resize(n, n);
  K_.reserve(entries);
  for (const SystemBlock& s : problem.systems)
    for (int c = 0; c < s.size; ++c) {
      const int j = s.offset + c;
      K_.startVec(j);
      for (int i = c; i < s.size; ++i) K_.insertBack(s.offset + i, j) = (*s.M)(i, c);
      for (int at = column_start_[j]; at < column_start_[j + 1]; ++at)
        K_.insertBack(nv + column_rows_[at], j) = column_values_[at];
    }
  for (int row = 0; row < rows; ++row) {
    K_.startVec(nv + row);
    K_.insertBack(nv + row, nv + row) = -delta;
  }
  K_.finalize();
}

bool StopProjection::project(const ContactProblem& problem, const SparseRows& J, const Eigen::VectorXd& c,
                             const std::vector<int>& rows, Eigen::VectorXd& p) {
  const int nv = problem.nv, nr = static_cast<int>(rows.size());
  rounds_ = 0;
  residual_before_ = residual_after_ = 0;
  if (nr == 0 || nv == 0) return false;
  // K_δ's columns are the systems' in the order of their offsets; an island whose systems do not tile [0, nv)
  // in that order is not one this assembly handles.
  int covered = 0;
  for (const SystemBlock& s : problem.systems) {
    if (s.offset != covered) return false;
    covered += s.size;
  }
  if (covered != nv) return false;

  J_.resize(nr, nv);
  long entries = 0;
  for (int row : rows) entries += J.outerIndexPtr()[row + 1] - J.outerIndexPtr()[row];
  J_.reserve(entries);
  double row_scale = 0;
  for (int k = 0; k < nr; ++k) {
    J_.startVec(k);
    double norm2 = 0;
    for (SparseRows::InnerIterator a(J, rows[k]); a; ++a) {
      J_.insertBack(k, a.col()) = a.value();
      norm2 += a.value() * a.value();
    }
    row_scale = std::max(row_scale, norm2);
  }
  J_.finalize();

  velocity(problem, J, p);
  double best = row_residual(c, rows);
  residual_before_ = residual_after_ = best;
  if (!(best > 0)) return false;

  double trace = 0, smallest_mass = INFINITY;
  for (const SystemBlock& s : problem.systems) {
    trace += s.M->trace();
    if (s.size > 0) smallest_mass = std::min(smallest_mass, s.M->diagonal().minCoeff());
  }
  const double delta = kRegularization * row_scale * nv / trace;
  if (!(delta > 0) || !std::isfinite(delta) || !(smallest_mass > 0)) return false;
  assemble(problem, delta);

  const int n = nv + nr;
  ldlt_.analyse_if_changed(K_);
  sign_.assign(n, 1);
  std::fill(sign_.begin() + nv, sign_.end(), -1);
  // Primal pivots are at least M's least eigenvalue and dual ones at most −δ ([VD]); only rounding can bring
  // one near zero (QD1), and the rounds below measure the residual of what the factor gives.
  const double floor = 1e-3 * std::min(delta, smallest_mass);
  if (!ldlt_.factor(K_, sign_, floor, floor)) return false;

  bool moved = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    x_.setZero(n);
    x_.tail(nr) = -r_;
    ldlt_.solve_in_place(x_);
    trial_ = p;
    for (int k = 0; k < nr; ++k) trial_[rows[k]] -= x_[nv + k];
    velocity(problem, J, trial_);
    const double residual = row_residual(c, rows);
    if (!(residual < best) || !trial_.allFinite()) break;
    p.swap(trial_);
    moved = true;
    ++rounds_;
    const bool halved = residual <= 0.5 * best;
    best = residual;
    if (!halved || residual == 0) break;
  }
  residual_after_ = best;
  return moved;
}

}  // namespace impetus
