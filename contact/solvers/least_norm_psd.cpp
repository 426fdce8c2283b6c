// (LN1)–(LN3): x = A⁺ b by Cholesky with diagonal pivoting stopped at the rank.
#include "contact/solvers/least_norm_psd.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace impetus {

int LeastNormPsd::compute(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  const int n = static_cast<int>(A.rows());
  n_ = n;
  rank_ = 0;
  grow(L_, L_storage_, n, n);
  L_.triangularView<Eigen::Lower>() = A.triangularView<Eigen::Lower>();
  perm_.resize(n);
  std::iota(perm_.begin(), perm_.end(), 0);
  if (n == 0) return 0;
  const double first = L_.diagonal().maxCoeff();
  for (int c = 0; c < n; ++c)
    if (!L_.col(c).tail(n - c).allFinite()) {
      rank_ = -1;   // solve() answers NaN, which no certificate accepts
      return 0;
    }
  // (LN1): the pivot is the largest remaining diagonal of the Schur complement, held in the lower triangle of
  // L_ from column k on; a pivot at or below n·ε·(the first) is rounding of a zero one, and the rank is k.
  const double threshold = n * std::numeric_limits<double>::epsilon() * first;
  int k = 0;
  for (; k < n; ++k) {
    Eigen::Index j = 0;
    const double pivot = L_.diagonal().tail(n - k).maxCoeff(&j);
    j += k;
    if (!(pivot > threshold)) break;
    if (j != k) {   // swap k and j in the lower-stored trailing matrix, and rows k, j of L's first k columns
      L_.row(k).head(k).swap(L_.row(j).head(k));
      std::swap(L_(k, k), L_(j, j));
      for (Eigen::Index i = k + 1; i < j; ++i) std::swap(L_(i, k), L_(j, i));
      for (Eigen::Index i = j + 1; i < n; ++i) std::swap(L_(i, k), L_(i, j));
      std::swap(perm_[k], perm_[j]);
    }
    const double d = std::sqrt(L_(k, k));
    L_(k, k) = d;
    const int m = n - k - 1;
    if (m == 0) continue;
    auto column = L_.col(k).tail(m);
    column /= d;
    L_.bottomRightCorner(m, m).selfadjointView<Eigen::Lower>().rankUpdate(column, -1.0);
  }
  rank_ = k;
  // (LN2): Z = [−L₁⁻ᵀ L₂ᵀ; I] in the permuted order, and ZᵀZ for the projector Π.
  const int r = rank_, nk = n - r;
  grow(Z_, Z_storage_, n, nk);
  grow(ZtZ_, ZtZ_storage_, nk, nk);
  if (nk > 0) {
    Z_.topRows(r) = -L_.block(r, 0, nk, r).transpose();
    L_.topLeftCorner(r, r).triangularView<Eigen::Lower>().transpose().solveInPlace(Z_.topRows(r));
    Z_.bottomRows(nk).setIdentity();
    ZtZ_.noalias() = Z_.transpose() * Z_;
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(ZtZ_);   // in place: ZtZ_ holds its factor
  }
  return rank_;
}

void LeastNormPsd::project_onto_range(VectorView& y) {
  const int nk = n_ - rank_;
  if (nk == 0) return;
  grow(c_, c_storage_, nk);
  VectorView& c = c_;
  c.noalias() = Z_.transpose() * y;
  ZtZ_.triangularView<Eigen::Lower>().solveInPlace(c);
  ZtZ_.triangularView<Eigen::Lower>().transpose().solveInPlace(c);
  y.noalias() -= Z_ * c;
}

const VectorView& LeastNormPsd::solve(const Eigen::Ref<const Eigen::VectorXd>& b) {
  const int n = n_, r = rank_;
  grow(x_, x_storage_, n);
  if (r < 0) {
    x_.setConstant(std::numeric_limits<double>::quiet_NaN());
    return x_;
  }
  grow(y_, y_storage_, n);
  for (int i = 0; i < n; ++i) y_[i] = b[perm_[i]];
  project_onto_range(y_);   // Π b: the part of b that A x can meet (least squares)
  // (LN3): x_b = [L₁⁻ᵀ L₁⁻¹ y₁; 0], then Π x_b (least norm).
  const auto L1 = L_.topLeftCorner(r, r).triangularView<Eigen::Lower>();
  auto y1 = y_.head(r);
  L1.solveInPlace(y1);
  L1.transpose().solveInPlace(y1);
  y_.tail(n - r).setZero();
  project_onto_range(y_);
  for (int i = 0; i < n; ++i) x_[perm_[i]] = y_[i];
  return x_;
}

}  // namespace impetus
