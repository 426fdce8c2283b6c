// Up-looking sparse LDLᵀ with dynamic regularization (quasidefinite_ldlt.hpp, QD1).
#include "contact/solvers/quasidefinite_ldlt.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>

namespace impetus {

void QuasidefiniteLdlt::analyse(const Matrix& K, const std::vector<char>& last) {
  n_ = static_cast<int>(K.rows());
  const int n = n_;

  // Fill-reducing ordering of K + Kᵀ without the `last` rows, which follow at the end; perm_ maps
  // an old index to its new one.
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse;
  Eigen::AMDOrdering<int> amd;
  const bool any_last = std::find(last.begin(), last.end(), 1) != last.end();
  if (!any_last) {
    amd(K.selfadjointView<Eigen::Lower>(), inverse);
  } else {
    Matrix pruned = K;
    pruned.prune([&](int i, int j, double) { return !last[i] && !last[j]; });
    amd(pruned.selfadjointView<Eigen::Lower>(), inverse);
    std::vector<int> order;
    order.reserve(n);
    for (int k = 0; k < n; ++k)
      if (!last[inverse.indices()[k]]) order.push_back(inverse.indices()[k]);
    for (int i = 0; i < n; ++i)
      if (last[i]) order.push_back(i);
    for (int k = 0; k < n; ++k) inverse.indices()[k] = order[k];
  }
  perm_ = inverse.inverse();
  const int* P = perm_.indices().data();

  // P K Pᵀ's upper triangle, column by column, remembering where each value comes from in K.
  std::vector<int> count(n + 1, 0);
  for (int j = 0; j < n; ++j)
    for (Matrix::InnerIterator it(K, j); it; ++it)
      if (it.row() >= j) ++count[std::max(P[it.row()], P[j]) + 1];
  for (int j = 0; j < n; ++j) count[j + 1] += count[j];
  upper_p_.assign(count.begin(), count.end());
  upper_i_.resize(upper_p_[n]);
  upper_src_.resize(upper_p_[n]);
  std::vector<int> next(upper_p_.begin(), upper_p_.end() - 1);
  for (int j = 0; j < n; ++j)
    for (Matrix::InnerIterator it(K, j); it; ++it) {
      if (it.row() < j) continue;
      const int a = P[it.row()], b = P[j];
      const int col = std::max(a, b), slot = next[col]++;
      upper_i_[slot] = std::min(a, b);
      upper_src_[slot] = static_cast<int>(&it.value() - K.valuePtr());
    }
  for (int j = 0; j < n; ++j) {   // rows ascending within each column
    std::vector<std::pair<int, int>> col;
    for (int p = upper_p_[j]; p < upper_p_[j + 1]; ++p) col.emplace_back(upper_i_[p], upper_src_[p]);
    std::sort(col.begin(), col.end());
    for (int p = upper_p_[j], q = 0; p < upper_p_[j + 1]; ++p, ++q) {
      upper_i_[p] = col[q].first;
      upper_src_[p] = col[q].second;
    }
  }

  // Elimination tree and column counts of L [DA].
  parent_.assign(n, -1);
  Lnz_.assign(n, 0);
  flag_.assign(n, -1);
  for (int k = 0; k < n; ++k) {
    flag_[k] = k;
    for (int p = upper_p_[k]; p < upper_p_[k + 1]; ++p) {
      int i = upper_i_[p];
      for (; i < k && flag_[i] != k; i = parent_[i]) {
        if (parent_[i] == -1) parent_[i] = k;
        ++Lnz_[i];
        flag_[i] = k;
      }
    }
  }
  Lp_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) Lp_[k + 1] = Lp_[k] + Lnz_[k];
  Li_.resize(Lp_[n]);
  Lx_.resize(Lp_[n]);
  D_.assign(n, 0.0);
  y_.assign(n, 0.0);
  pattern_.assign(n, 0);
  fill_.assign(n, 0);
  sign_.assign(n, 1);
  work_.resize(n);
}

bool QuasidefiniteLdlt::factor(const Matrix& K, const std::vector<signed char>& sign, double epsilon, double delta) {
  const int n = n_;
  const int* P = perm_.indices().data();
  for (int i = 0; i < n; ++i) sign_[P[i]] = sign[i];
  const double* Kx = K.valuePtr();
  regularized_ = 0;
  std::fill(flag_.begin(), flag_.end(), -1);
  for (int k = 0; k < n; ++k) {
    // Row k of L: solve L(0:k, 0:k) D y = K(0:k, k) on the reach of column k in the tree.
    y_[k] = 0;
    int top = n;
    flag_[k] = k;
    fill_[k] = 0;
    for (int p = upper_p_[k]; p < upper_p_[k + 1]; ++p) {
      int i = upper_i_[p];
      y_[i] += Kx[upper_src_[p]];
      int len = 0;
      for (; flag_[i] != k; i = parent_[i]) {
        pattern_[len++] = i;
        flag_[i] = k;
      }
      while (len > 0) pattern_[--top] = pattern_[--len];
    }
    double d = y_[k];
    y_[k] = 0;
    for (; top < n; ++top) {
      const int i = pattern_[top];
      const double yi = y_[i];
      y_[i] = 0;
      const int end = Lp_[i] + fill_[i];
      for (int p = Lp_[i]; p < end; ++p) y_[Li_[p]] -= Lx_[p] * yi;
      const double lki = yi / D_[i];
      d -= lki * yi;
      Li_[end] = k;
      Lx_[end] = lki;
      ++fill_[i];
    }
    if (!std::isfinite(d)) return false;
    if (!(sign_[k] * d > epsilon)) {   // (QD1)
      d = sign_[k] * delta;
      ++regularized_;
    }
    D_[k] = d;
  }
  return true;
}

void QuasidefiniteLdlt::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  const int n = n_;
  const int* P = perm_.indices().data();
  for (int i = 0; i < n; ++i) work_[P[i]] = x[i];
  for (int j = 0; j < n; ++j) {
    const double wj = work_[j];
    for (int p = Lp_[j]; p < Lp_[j + 1]; ++p) work_[Li_[p]] -= Lx_[p] * wj;
  }
  for (int j = 0; j < n; ++j) work_[j] /= D_[j];
  for (int j = n - 1; j >= 0; --j) {
    double wj = work_[j];
    for (int p = Lp_[j]; p < Lp_[j + 1]; ++p) wj -= Lx_[p] * work_[Li_[p]];
    work_[j] = wj;
  }
  for (int i = 0; i < n; ++i) x[i] = work_[P[i]];
}

}  // namespace impetus
