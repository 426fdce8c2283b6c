// Incremental Cholesky of D = C W⁻¹ Cᵀ (delassus_factor.hpp, D1–D4).
#include "contact/solvers/delassus_factor.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <new>

namespace impetus {
namespace {

/// (D5): at most this many refinement steps; two take the error of cond(D) = 1e12 (1e-4) to roundoff.
constexpr int kRefinementSteps = 2;
/// (D5): a residual of the held rows above this fraction of their terms' scale (max |t − C v_f|,
/// |C v|, |C v_f|) is refined. A well-conditioned set (cond(D) ≲ 1e3) leaves ~1e-16·cond of it;
/// 1e-12 refines only the ill-conditioned.
constexpr double kRefineAbove = 1e-12;

/// x ← L⁻¹ x for the leading k×k lower triangle of L (plain substitution; k ≤ nv is small).
void forward_substitute(const MatrixView& L, const VectorView& inv_diag, int k, double* x) {
  const int ld = static_cast<int>(L.rows());
  const double* a = L.data();
  for (int j = 0; j < k; ++j) {
    const double xj = x[j] * inv_diag[j];
    x[j] = xj;
    for (int i = j + 1; i < k; ++i) x[i] -= a[i + j * ld] * xj;
  }
}

/// x ← L⁻ᵀ x for the leading k×k lower triangle of L.
void backward_substitute(const MatrixView& L, const VectorView& inv_diag, int k, double* x) {
  const int ld = static_cast<int>(L.rows());
  const double* a = L.data();
  for (int j = k - 1; j >= 0; --j) {
    double s = x[j];
    for (int i = j + 1; i < k; ++i) s -= a[i + j * ld] * x[i];
    x[j] = s * inv_diag[j];
  }
}

}  // namespace

void DelassusFactor::reset(const InertiaOperator& W, const Eigen::Ref<const Eigen::VectorXd>& v_f) {
  W_ = &W;
  new (&v_f_) Eigen::Map<const Eigen::VectorXd>(v_f.data(), v_f.size());
  k_ = 0;
  last_k_ = 0;
  nv_ = W.size();
  // L and λ start zeroed, as a newly sized factor's (nothing reads them beyond the leading k).
  grow(Y_, Y_storage_, nv_, nv_ + 1);
  grow(L_, L_storage_, nv_, nv_);
  L_.setZero();
  grow(rhs_, rhs_storage_, nv_);
  grow(l_, l_storage_, nv_);
  grow(x_, x_storage_, nv_);
  grow(lambda_, lambda_storage_, nv_);
  lambda_.setZero();
  grow(inv_diag_, inv_diag_storage_, nv_);
  grow(rho_, rho_storage_, nv_);
  rows_.resize(nv_);
}

bool DelassusFactor::try_append(RowRef c, double target, double dependence_tolerance) {
  auto y = Y_.col(k_);
  W_->solve_row(c, y);
  const double norm2 = row_dot(c, y);   // c W⁻¹ cᵀ
  last_norm2_ = norm2;
  last_k_ = k_;
  // L l = C W⁻¹ cᵀ (D3); the entries c_p W⁻¹ cᵀ = c·y_p.
  for (int p = 0; p < k_; ++p) l_[p] = row_dot(c, Y_.col(p));
  forward_substitute(L_, inv_diag_, k_, l_.data());
  if (!(norm2 > 0) || !std::isfinite(norm2)) return false;   // a zero row, or W⁻¹ broke down
  if (k_ == nv_) return false;                               // C already spans every direction
  const double delta = norm2 - l_.head(k_).squaredNorm();
  if (!(delta > dependence_tolerance * norm2)) return false;  // sin²θ ≤ τ_dep: dependent
  L_.row(k_).head(k_) = l_.head(k_).transpose();
  L_(k_, k_) = std::sqrt(delta);
  inv_diag_[k_] = 1.0 / L_(k_, k_);
  rows_[k_] = c;
  rhs_[k_] = target - row_dot(c, v_f_);
  ++k_;
  return true;
}

Eigen::VectorBlock<const VectorView> DelassusFactor::dependence() {
  assert(last_k_ == k_ && "dependence() needs the factor of the last try_append");
  auto rho = rho_.head(k_);
  rho = l_.head(k_);
  backward_substitute(L_, inv_diag_, k_, rho.data());
  return static_cast<const VectorView&>(rho_).head(k_);
}

void DelassusFactor::remove(int p) {
  assert(p >= 0 && p < k_);
  const int m = k_ - p - 1;   // rows below p
  // (D4): L₂₂' L₂₂'ᵀ = L₂₂ L₂₂ᵀ + x xᵀ, with x the column p below the diagonal.
  auto x = x_.head(m);
  x = L_.col(p).segment(p + 1, m);
  for (int j = 0; j < m; ++j) {
    const int J = p + 1 + j;
    const double Ljj = L_(J, J);
    const double r = std::hypot(Ljj, x[j]);
    const double c = r / Ljj, s = x[j] / Ljj;
    L_(J, J) = r;
    inv_diag_[J] = 1.0 / r;
    for (int i = j + 1; i < m; ++i) {
      const int I = p + 1 + i;
      L_(I, J) = (L_(I, J) + s * x[i]) / c;
      x[i] = c * x[i] - s * L_(I, J);
    }
  }
  // Close the gap: row i > p moves up one; its columns > p move left one.
  for (int i = p + 1; i < k_; ++i) {
    L_.row(i - 1).head(p) = L_.row(i).head(p);
    for (int j = p + 1; j <= i; ++j) L_(i - 1, j - 1) = L_(i, j);
    inv_diag_[i - 1] = inv_diag_[i];
  }
  L_.row(k_ - 1).head(k_).setZero();
  for (int i = p + 1; i < k_; ++i) {
    Y_.col(i - 1) = Y_.col(i);
    rows_[i - 1] = rows_[i];
    rhs_[i - 1] = rhs_[i];
  }
  --k_;
  last_k_ = -1;
}

void DelassusFactor::truncate(int k) {
  assert(k >= 0 && k <= k_);
  for (int i = k; i < k_; ++i) L_.row(i).head(i + 1).setZero();
  k_ = k;
  last_k_ = -1;
}

void DelassusFactor::solve(Eigen::VectorXd& v) {
  auto lambda = lambda_.head(k_);
  lambda = rhs_.head(k_);
  solve_leading(k_, lambda);
  v = v_f_;
  v.noalias() += Y_.leftCols(k_) * lambda;
  // (D5) Iterative refinement: with r = t − C v, D δλ = r, λ ← λ + δλ, v ← v + Y δλ. Each step divides
  // the error by ~1/(ε·cond(D)), so near-dependent rows kept (cond(D) up to 1/τ_dep) still meet their
  // targets to roundoff. Only a residual above kRefineAbove of the targets' scale is refined, so
  // well-conditioned sets keep the plain solve's bits.
  for (int step = 0; step < kRefinementSteps; ++step) {
    auto r = x_.head(k_);
    double r_max = 0, scale = 0;
    for (int p = 0; p < k_; ++p) {
      const double c_v = row_dot(rows_[p], v), c_v_f = row_dot(rows_[p], v_f_);
      r[p] = rhs_[p] - c_v + c_v_f;
      r_max = std::max(r_max, std::abs(r[p]));
      scale = std::max({scale, std::abs(rhs_[p]), std::abs(c_v), std::abs(c_v_f)});
    }
    if (!(r_max > kRefineAbove * scale)) break;
    solve_leading(k_, r);
    lambda += r;
    v.noalias() += Y_.leftCols(k_) * r;
  }
}

void DelassusFactor::solve_leading(int k, Eigen::Ref<Eigen::VectorXd> x) const {
  forward_substitute(L_, inv_diag_, k, x.data());
  backward_substitute(L_, inv_diag_, k, x.data());
}

void DelassusFactor::forward_leading(int k, Eigen::Ref<Eigen::VectorXd> x) const {
  forward_substitute(L_, inv_diag_, k, x.data());
}

}  // namespace impetus
