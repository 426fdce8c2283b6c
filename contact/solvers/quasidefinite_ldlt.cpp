// Supernodal multifrontal LDLᵀ with dynamic regularization (quasidefinite_ldlt.hpp, QD1).
#include "contact/solvers/quasidefinite_ldlt.hpp"

#include "contact/solvers/nested_dissection.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <utility>

namespace impetus {
namespace {

// Panel width of the dense partial factorization: the trailing update is one matrix product per
// panel, so wider panels mean fewer, larger products.
constexpr int kPanel = 32;

/// Entries of the lower trapezoid of an m×w supernode.
double trapezoid(double m, double w) { return w * m - w * (w - 1) / 2; }

/// Relaxed amalgamation (after CHOLMOD's defaults): a child merges into its parent when the merged
/// supernode has at most `columns` columns and at most this fraction of explicit zeros.
struct Relaxation {
  int columns;
  double zeros;
};
constexpr Relaxation kRelax[] = {{4, 1.0}, {16, 0.8}, {48, 0.1}, {1 << 30, 0.05}};

/// Minimum degree's elimination cost above which nested dissection is tried too. METIS's separators
/// cost about what one factorization of 3e7 multiply–adds does (granular's landing: 28 ms on 1e5 edges,
/// 100 ms on 4e5); below this an interior point's 15–50 factorizations would not repay them.
constexpr double kTryNestedDissectionAbove = 5e7;

using Pattern = Eigen::SparseMatrix<double>;

/// Upper triangle by columns of P K Pᵀ (rows < column) for the order `p` (new index of each old index).
void upper_triangle(const Pattern& K, const std::vector<int>& p, std::vector<int>& up_p, std::vector<int>& up_i) {
  const int n = static_cast<int>(K.rows());
  up_p.assign(n + 1, 0);
  for (int j = 0; j < n; ++j)
    for (Pattern::InnerIterator it(K, j); it; ++it)
      if (it.row() > j) ++up_p[std::max(p[it.row()], p[j]) + 1];
  for (int j = 0; j < n; ++j) up_p[j + 1] += up_p[j];
  up_i.resize(up_p[n]);
  std::vector<int> next(up_p.begin(), up_p.end() - 1);
  for (int j = 0; j < n; ++j)
    for (Pattern::InnerIterator it(K, j); it; ++it)
      if (it.row() > j) {
        const int a = p[it.row()], b = p[j];
        up_i[next[std::max(a, b)]++] = std::min(a, b);
      }
}

/// Elimination tree of that triangle (Liu's algorithm with path compression); −1 for a root.
void elimination_tree(const std::vector<int>& up_p, const std::vector<int>& up_i, std::vector<int>& parent) {
  const int n = static_cast<int>(up_p.size()) - 1;
  std::vector<int> ancestor(n);
  parent.resize(n);
  for (int k = 0; k < n; ++k) {
    parent[k] = ancestor[k] = -1;
    for (int q = up_p[k]; q < up_p[k + 1]; ++q)
      for (int i = up_i[q]; i != -1 && i < k;) {
        const int next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent[i] = k;
        i = next;
      }
  }
}

/// Column counts of L below the diagonal, from the triangle and its tree (each row's subtree walk).
void column_counts(const std::vector<int>& up_p, const std::vector<int>& up_i, const std::vector<int>& parent,
                   std::vector<int>& count) {
  const int n = static_cast<int>(parent.size());
  std::vector<int> flag(n, -1);
  count.assign(n, 0);
  for (int k = 0; k < n; ++k) {
    flag[k] = k;
    for (int q = up_p[k]; q < up_p[k + 1]; ++q)
      for (int i = up_i[q]; flag[i] != k; i = parent[i]) {
        ++count[i];
        flag[i] = k;
      }
  }
}

/// New index of each old index, from the old indices in elimination order.
std::vector<int> inverse(const std::vector<int>& eliminated) {
  std::vector<int> perm(eliminated.size());
  for (std::size_t k = 0; k < eliminated.size(); ++k) perm[eliminated[k]] = static_cast<int>(k);
  return perm;
}

/// Old indices in elimination order by approximate minimum degree (Eigen's AMD) of K + Kᵀ without the
/// `last` rows, which follow at the end.
std::vector<int> minimum_degree_order(const Pattern& K, const std::vector<char>& last) {
  const int n = static_cast<int>(K.rows());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order;
  Eigen::AMDOrdering<int> amd;
  const bool any_last = std::find(last.begin(), last.end(), 1) != last.end();
  if (!any_last) {
    amd(K.selfadjointView<Eigen::Lower>(), order);
  } else {
    Pattern pruned = K;
    pruned.prune([&](int i, int j, double) { return !last[i] && !last[j]; });
    amd(pruned.selfadjointView<Eigen::Lower>(), order);
  }
  std::vector<int> eliminated;
  eliminated.reserve(n);
  for (int k = 0; k < n; ++k)
    if (!any_last || !last[order.indices()[k]]) eliminated.push_back(order.indices()[k]);
  if (any_last)
    for (int i = 0; i < n; ++i)
      if (last[i]) eliminated.push_back(i);
  return eliminated;
}

/// An elimination order (old indices) and, once it has been priced, its triangle and elimination tree,
/// which analyse() needs again for the order kept.
struct PricedOrder {
  std::vector<int> eliminated;
  std::vector<int> up_p, up_i, parent;   // empty until priced
};

/// Multiply–adds of the LDLᵀ of K eliminated in this order, Σ_j c_j(c_j + 1)/2 over L's column counts
/// c_j: what the supernodal factor does but for amalgamation's few explicit zeros.
double elimination_cost(const Pattern& K, PricedOrder& order) {
  upper_triangle(K, inverse(order.eliminated), order.up_p, order.up_i);
  elimination_tree(order.up_p, order.up_i, order.parent);
  std::vector<int> count;
  column_counts(order.up_p, order.up_i, order.parent, count);
  double cost = 0;
  for (int c : count) cost += 0.5 * c * (c + 1.0);
  return cost;
}

/// The fill-reducing order: minimum degree, or nested dissection where minimum degree's factor is large
/// and nested dissection's costs less (nested_dissection.hpp).
PricedOrder fill_reducing_order(const Pattern& K, const std::vector<char>& last, QuasidefiniteLdlt::Order& taken) {
  taken = QuasidefiniteLdlt::Order::minimum_degree;
  PricedOrder order{minimum_degree_order(K, last), {}, {}, {}};
  // No order of n rows costs more than a dense factor, Σ_{c<n} c(c + 1)/2 = (n − 1)n(n + 1)/6: below the
  // threshold there, nothing is priced.
  const double n = static_cast<double>(K.rows());
  if ((n - 1) * n * (n + 1) / 6 <= kTryNestedDissectionAbove) return order;
  const double cost = elimination_cost(K, order);
  if (cost <= kTryNestedDissectionAbove) return order;
  PricedOrder dissected{nested_dissection_order(K, last), {}, {}, {}};
  if (dissected.eliminated.empty() || !(elimination_cost(K, dissected) < cost)) return order;
  taken = QuasidefiniteLdlt::Order::nested_dissection;
  return dissected;
}

}  // namespace

void QuasidefiniteLdlt::analyse_if_changed(const Matrix& K, const std::vector<char>& last) {
  const int* outer = K.outerIndexPtr();
  const int* inner = K.innerIndexPtr();
  const long nnz = K.nonZeros();
  const bool same_pattern = analysed_ && analysed_outer_.size() == static_cast<std::size_t>(K.cols() + 1) &&
                            analysed_inner_.size() == static_cast<std::size_t>(nnz) &&
                            std::equal(analysed_outer_.begin(), analysed_outer_.end(), outer) &&
                            std::equal(analysed_inner_.begin(), analysed_inner_.end(), inner) &&
                            analysed_last_ == last;
  if (same_pattern) return;
  analyse(K, last);
  analysed_outer_.assign(outer, outer + K.cols() + 1);
  analysed_inner_.assign(inner, inner + nnz);
  analysed_last_ = last;
  analysed_ = true;
}

void QuasidefiniteLdlt::analyse(const Matrix& K, const std::vector<char>& last) {
  n_ = static_cast<int>(K.rows());
  const int n = n_;

  // 1. Fill-reducing order of K + Kᵀ, the `last` rows at the end; its elimination tree.
  PricedOrder ordered = fill_reducing_order(K, last, order_);
  const std::vector<int> perm = inverse(ordered.eliminated);
  std::vector<int> up_p = std::move(ordered.up_p), up_i = std::move(ordered.up_i), parent = std::move(ordered.parent);
  if (up_p.empty()) {
    upper_triangle(K, perm, up_p, up_i);
    elimination_tree(up_p, up_i, parent);
  }

  // 2. Postorder of the tree, children in increasing order; compose it with the order.
  std::vector<int> head(n, -1), next_sibling(n, -1), post;
  post.reserve(n);
  for (int j = n - 1; j >= 0; --j)
    if (parent[j] >= 0) {
      next_sibling[j] = head[parent[j]];
      head[parent[j]] = j;
    }
  std::vector<int> dfs;
  for (int root = 0; root < n; ++root) {
    if (parent[root] != -1) continue;
    dfs.push_back(root);
    while (!dfs.empty()) {
      const int j = dfs.back();
      if (head[j] != -1) {
        const int child = head[j];
        head[j] = next_sibling[child];
        dfs.push_back(child);
      } else {
        post.push_back(j);
        dfs.pop_back();
      }
    }
  }
  std::vector<int> rank(n);
  for (int k = 0; k < n; ++k) rank[post[k]] = k;
  perm_.resize(n);
  for (int i = 0; i < n; ++i) perm_[i] = rank[perm[i]];
  upper_triangle(K, perm_, up_p, up_i);
  elimination_tree(up_p, up_i, parent);

  // 3. Column counts of L (below the diagonal).
  std::vector<int> count;
  column_counts(up_p, up_i, parent, count);

  // 4. Fundamental supernodes: column j joins j − 1's when j − 1 is its only child and the
  //    structures nest; then relaxed amalgamation of each supernode with its last child.
  std::vector<int> children(n, 0);
  for (int j = 0; j < n; ++j)
    if (parent[j] >= 0) ++children[parent[j]];
  std::vector<int> first, rows_of, width, node_of(n);
  std::vector<double> zeros;
  for (int j = 0; j < n; ++j) {
    const bool join = j > 0 && parent[j - 1] == j && children[j] == 1 && count[j - 1] == count[j] + 1;
    if (!join) {
      first.push_back(j);
      width.push_back(0);
      rows_of.push_back(0);
      zeros.push_back(0);
    }
    const int s = static_cast<int>(first.size()) - 1;
    ++width[s];
    rows_of[s] = width[s] + count[j];   // the last column's count: rows below the supernode
    node_of[j] = s;
  }
  const int nf = static_cast<int>(first.size());
  std::vector<int> sparent(nf, -1);
  for (int s = 0; s < nf; ++s) {
    const int lastcol = first[s] + width[s] - 1;
    if (parent[lastcol] >= 0) sparent[s] = node_of[parent[lastcol]];
  }
  std::vector<int> merged_into(nf, -1);
  auto representative = [&](int s) {
    while (merged_into[s] >= 0) s = merged_into[s];
    return s;
  };
  std::vector<int> start(nf);   // first column of each (possibly merged) supernode
  for (int s = 0; s < nf; ++s) start[s] = first[s];
  std::vector<int> ending_at(n, -1);   // the current supernode whose last column is j
  for (int t = 0; t < nf; ++t) {
    ending_at[first[t] + width[t] - 1] = t;
    if (first[t] == 0) continue;
    const int s_raw = ending_at[first[t] - 1];
    if (s_raw < 0) continue;
    const int s = representative(s_raw);
    if (sparent[s] < 0 || representative(sparent[s]) != t) continue;
    const double m = width[s] + rows_of[t], w = width[s] + width[t];
    const double extra = trapezoid(m, w) - trapezoid(rows_of[s], width[s]) - trapezoid(rows_of[t], width[t]);
    const double total = zeros[s] + zeros[t] + extra;
    bool merge = false;
    for (const Relaxation& r : kRelax)
      if (w <= r.columns && total <= r.zeros * trapezoid(m, w)) merge = true;
    if (!merge) continue;
    merged_into[s] = t;
    start[t] = start[s];
    width[t] += width[s];
    rows_of[t] += width[s];
    zeros[t] = total;
  }
  // Final supernodes, in column order.
  std::vector<int> final_of(nf, -1);
  sn_first_.clear();
  for (int s = 0; s < nf; ++s)
    if (merged_into[s] < 0) {
      final_of[s] = static_cast<int>(sn_first_.size());
      sn_first_.push_back(start[s]);
    }
  ns_ = static_cast<int>(sn_first_.size());
  std::vector<int> order_of_start(ns_);
  for (int k = 0; k < ns_; ++k) order_of_start[k] = k;
  std::sort(order_of_start.begin(), order_of_start.end(),
            [&](int a, int b) { return sn_first_[a] < sn_first_[b]; });
  // Renumber supernodes by first column (postorder) and record their parents.
  std::vector<int> renumber(ns_);
  for (int k = 0; k < ns_; ++k) renumber[order_of_start[k]] = k;
  std::vector<int> sorted_first(ns_);
  for (int k = 0; k < ns_; ++k) sorted_first[renumber[k]] = sn_first_[k];
  sn_first_ = sorted_first;
  sn_first_.push_back(n);
  std::vector<int> column_node(n);
  for (int s = 0; s < ns_; ++s)
    for (int j = sn_first_[s]; j < sn_first_[s + 1]; ++j) column_node[j] = s;
  std::vector<int> snparent(ns_, -1);
  for (int s = 0; s < ns_; ++s) {
    const int lastcol = sn_first_[s + 1] - 1;
    if (parent[lastcol] >= 0) snparent[s] = column_node[parent[lastcol]];
  }
  sn_children_.assign(ns_, 0);
  for (int s = 0; s < ns_; ++s)
    if (snparent[s] >= 0) ++sn_children_[snparent[s]];

  // 5. The permuted lower triangle by columns, with the source of each value.
  low_p_.assign(n + 1, 0);
  for (int j = 0; j < n; ++j)
    for (Matrix::InnerIterator it(K, j); it; ++it)
      if (it.row() >= j) ++low_p_[std::min(perm_[it.row()], perm_[j]) + 1];
  for (int j = 0; j < n; ++j) low_p_[j + 1] += low_p_[j];
  low_i_.resize(low_p_[n]);
  low_src_.resize(low_p_[n]);
  {
    std::vector<int> fill(low_p_.begin(), low_p_.end() - 1);
    for (int j = 0; j < n; ++j)
      for (Matrix::InnerIterator it(K, j); it; ++it) {
        if (it.row() < j) continue;
        const int a = perm_[it.row()], b = perm_[j];
        const int slot = fill[std::min(a, b)]++;
        low_i_[slot] = std::max(a, b);
        low_src_[slot] = static_cast<int>(&it.value() - K.valuePtr());
      }
  }

  // 6. Row structures (own columns first, then the rows below, sorted), extend-add and assembly maps.
  std::vector<std::vector<int>> kids(ns_);
  for (int s = 0; s < ns_; ++s)
    if (snparent[s] >= 0) kids[snparent[s]].push_back(s);
  sn_rows_p_.assign(1, 0);
  sn_rows_.clear();
  std::vector<int> mark(n, -1), position(n, -1), below;
  rel_p_.assign(ns_ + 1, 0);
  std::vector<std::vector<int>> rel_of(ns_);
  asm_p_.assign(1, 0);
  asm_pos_.clear();
  asm_src_.clear();
  sn_L_p_.assign(1, 0);
  std::size_t front_size = 0;
  int max_front_rows = 0;
  flops_ = 0;
  for (int s = 0; s < ns_; ++s) {
    const int f = sn_first_[s], l = sn_first_[s + 1], w = l - f;
    below.clear();
    for (int j = f; j < l; ++j)
      for (int q = low_p_[j]; q < low_p_[j + 1]; ++q) {
        const int i = low_i_[q];
        if (i >= l && mark[i] != s) {
          mark[i] = s;
          below.push_back(i);
        }
      }
    for (int c : kids[s])
      for (int q = sn_rows_p_[c] + (sn_first_[c + 1] - sn_first_[c]); q < sn_rows_p_[c + 1]; ++q) {
        const int i = sn_rows_[q];
        if (i >= l && mark[i] != s) {
          mark[i] = s;
          below.push_back(i);
        }
      }
    std::sort(below.begin(), below.end());
    for (int j = f; j < l; ++j) sn_rows_.push_back(j);
    sn_rows_.insert(sn_rows_.end(), below.begin(), below.end());
    sn_rows_p_.push_back(static_cast<int>(sn_rows_.size()));
    const int m = w + static_cast<int>(below.size());
    for (int k = 0; k < m; ++k) position[sn_rows_[sn_rows_p_[s] + k]] = k;
    for (int c : kids[s]) {   // the children's update rows, placed in this front
      const int wc = sn_first_[c + 1] - sn_first_[c];
      for (int q = sn_rows_p_[c] + wc; q < sn_rows_p_[c + 1]; ++q) rel_of[c].push_back(position[sn_rows_[q]]);
    }
    for (int j = f; j < l; ++j)
      for (int q = low_p_[j]; q < low_p_[j + 1]; ++q) {
        asm_pos_.push_back((j - f) * m + position[low_i_[q]]);
        asm_src_.push_back(low_src_[q]);
      }
    asm_p_.push_back(static_cast<int>(asm_pos_.size()));
    sn_L_p_.push_back(sn_L_p_.back() + static_cast<long>(m) * w);
    front_size = std::max(front_size, static_cast<std::size_t>(m) * m);
    max_front_rows = std::max(max_front_rows, m);
    for (int k = 0; k < w; ++k) flops_ += 0.5 * (m - k - 1.0) * (m - k);
  }
  rel_.clear();
  for (int s = 0; s < ns_; ++s) {
    rel_p_[s + 1] = rel_p_[s] + static_cast<int>(rel_of[s].size());
    rel_.insert(rel_.end(), rel_of[s].begin(), rel_of[s].end());
  }

  // 7. Workspace: the largest front, and the deepest the stack of update matrices gets.
  std::size_t depth = 0, deepest = 0;
  std::vector<std::size_t> held;
  for (int s = 0; s < ns_; ++s) {
    for (int c = 0; c < sn_children_[s]; ++c) {
      depth -= held.back();
      held.pop_back();
    }
    const std::size_t u = sn_rows_p_[s + 1] - sn_rows_p_[s] - (sn_first_[s + 1] - sn_first_[s]);
    if (snparent[s] >= 0) {
      held.push_back(u * u);
      depth += u * u;
      deepest = std::max(deepest, depth);
    }
  }
  front_.assign(front_size, 0.0);
  stack_.assign(deepest, 0.0);
  pending_.clear();
  pending_.reserve(ns_);
  pending_node_.clear();
  pending_node_.reserve(ns_);
  panel_.resize(static_cast<std::size_t>(kPanel) * std::max(max_front_rows, 1));
  Lx_.assign(sn_L_p_.back(), 0.0);
  D_.assign(n, 0.0);
  sign_.assign(n, 1);
  work_.resize(n);
  gather_.resize(n);
}

void QuasidefiniteLdlt::dense_partial_ldlt(double* F, int m, int w, int first_column, double epsilon, double delta) {
  Eigen::Map<Eigen::MatrixXd> A(F, m, m);
  for (int p = 0; p < w; p += kPanel) {
    const int b = std::min(kPanel, w - p);
    // The panel, column by column (right-looking inside it).
    for (int k = p; k < p + b; ++k) {
      double d = A(k, k);
      const signed char sigma = sign_[first_column + k];
      if (!(sigma * d > epsilon)) {   // (QD1)
        d = sigma * delta;
        ++regularized_;
      }
      D_[first_column + k] = d;
      for (int j = k + 1; j < p + b; ++j) {
        const double ljk = A(j, k) / d;
        A.col(j).segment(j, m - j) -= ljk * A.col(k).segment(j, m - j);
      }
      A.col(k).tail(m - k - 1) /= d;
    }
    // The trailing matrix: A₂₂ −= L₂₁ D L₂₁ᵀ (lower triangle only).
    const int r = m - p - b;
    if (r > 0) {
      const auto L21 = A.block(p + b, p, r, b);
      Eigen::Map<Eigen::MatrixXd> WD(panel_.data(), r, b);   // L₂₁ D, in scratch sized by analyse()
      WD.noalias() = L21 * Eigen::Map<const Eigen::VectorXd>(&D_[first_column + p], b).asDiagonal();
      A.block(p + b, p + b, r, r).triangularView<Eigen::Lower>() -= L21 * WD.transpose();
    }
  }
}

bool QuasidefiniteLdlt::factor(const Matrix& K, const std::vector<signed char>& sign, double epsilon, double delta) {
  const int n = n_;
  for (int i = 0; i < n; ++i) sign_[perm_[i]] = sign[i];
  const double* Kx = K.valuePtr();
  regularized_ = 0;
  pending_.clear();
  std::size_t top = 0;   // stack_ in use
  std::vector<int>& pending_node = pending_node_;
  pending_node.clear();
  for (int s = 0; s < ns_; ++s) {
    const int f = sn_first_[s], w = sn_first_[s + 1] - f, m = sn_rows_p_[s + 1] - sn_rows_p_[s];
    double* F = front_.data();
    for (int c = 0; c < m; ++c) std::fill(F + static_cast<long>(c) * m + c, F + static_cast<long>(c + 1) * m, 0.0);
    for (int q = asm_p_[s]; q < asm_p_[s + 1]; ++q) F[asm_pos_[q]] += Kx[asm_src_[q]];
    // Extend-add the children's update matrices, on top of the stack.
    for (int k = 0; k < sn_children_[s]; ++k) {
      const int c = pending_node.back();
      pending_node.pop_back();
      const long offset = pending_.back();
      pending_.pop_back();
      const int* rel = rel_.data() + rel_p_[c];
      const int u = rel_p_[c + 1] - rel_p_[c];
      const double* U = stack_.data() + offset;
      for (int bcol = 0; bcol < u; ++bcol) {
        double* Fcol = F + static_cast<long>(rel[bcol]) * m;
        const double* Ucol = U + static_cast<long>(bcol) * u;
        for (int a = bcol; a < u; ++a) Fcol[rel[a]] += Ucol[a];
      }
      top = offset;
    }
    dense_partial_ldlt(F, m, w, f, epsilon, delta);
    for (int k = f; k < f + w; ++k)
      if (!std::isfinite(D_[k])) return false;
    std::copy(F, F + static_cast<long>(m) * w, Lx_.data() + sn_L_p_[s]);
    const int u = m - w;
    if (u > 0 && rel_p_[s + 1] > rel_p_[s]) {   // its update matrix, for the parent
      double* U = stack_.data() + top;
      for (int c = 0; c < u; ++c)
        std::copy(F + static_cast<long>(w + c) * m + w + c, F + static_cast<long>(w + c + 1) * m,
                  U + static_cast<long>(c) * u + c);
      pending_.push_back(static_cast<long>(top));
      pending_node.push_back(s);
      top += static_cast<std::size_t>(u) * u;
    }
  }
  return true;
}

void QuasidefiniteLdlt::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  const int n = n_;
  for (int i = 0; i < n; ++i) work_[perm_[i]] = x[i];
  for (int s = 0; s < ns_; ++s) {   // L y = b
    const int f = sn_first_[s], w = sn_first_[s + 1] - f, m = sn_rows_p_[s + 1] - sn_rows_p_[s];
    const Eigen::Map<const Eigen::MatrixXd> L(Lx_.data() + sn_L_p_[s], m, w);
    auto ys = work_.segment(f, w);
    L.topRows(w).triangularView<Eigen::UnitLower>().solveInPlace(ys);
    if (m > w) {
      gather_.head(m - w).noalias() = L.bottomRows(m - w) * ys;
      const int* rows = sn_rows_.data() + sn_rows_p_[s] + w;
      for (int i = 0; i < m - w; ++i) work_[rows[i]] -= gather_[i];
    }
  }
  for (int i = 0; i < n; ++i) work_[i] /= D_[i];
  for (int s = ns_ - 1; s >= 0; --s) {   // Lᵀ x = y
    const int f = sn_first_[s], w = sn_first_[s + 1] - f, m = sn_rows_p_[s + 1] - sn_rows_p_[s];
    const Eigen::Map<const Eigen::MatrixXd> L(Lx_.data() + sn_L_p_[s], m, w);
    auto ys = work_.segment(f, w);
    if (m > w) {
      const int* rows = sn_rows_.data() + sn_rows_p_[s] + w;
      for (int i = 0; i < m - w; ++i) gather_[i] = work_[rows[i]];
      ys.noalias() -= L.bottomRows(m - w).transpose() * gather_.head(m - w);
    }
    L.topRows(w).triangularView<Eigen::UnitLower>().transpose().solveInPlace(ys);
  }
  for (int i = 0; i < n; ++i) x[i] = work_[perm_[i]];
}

}  // namespace impetus
