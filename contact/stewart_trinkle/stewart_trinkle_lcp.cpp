// Assembly of the Stewart–Trinkle LCP (stewart_trinkle.hpp, ST6, ST7, ST9).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

#include "contact/problem_into.hpp"
#include "contact/stored_row.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {
namespace {

// Members of a merged group whose gaps exceed the smallest by less than this (m) share its impulse:
// equal gaps up to roundoff.
constexpr double kEqualGap = 1e-12;

/// ‖X_i‖∞ of row i.
double row_size(const SparseRows& X, int i) {
  double size = 0;
  for (SparseRows::InnerIterator it(X, i); it; ++it) size = std::max(size, std::abs(it.value()));
  return size;
}

/// Whether rows i and j of X agree within tol·max(‖X_i‖∞, ‖X_j‖∞). It stops at the first entry that
/// differs by more: rows of contacts on different bodies differ in their first columns.
bool rows_close(const SparseRows& X, int i, int j, double tol, double size_i, double size_j) {
  const double bound = tol * std::max(size_i, size_j);
  SparseRows::InnerIterator a(X, i), b(X, j);
  while (a || b) {
    double va = 0, vb = 0;
    if (a && (!b || a.col() < b.col())) {
      va = a.value();
      ++a;
    } else if (b && (!a || b.col() < a.col())) {
      vb = b.value();
      ++b;
    } else {
      va = a.value();
      vb = b.value();
      ++a;
      ++b;
    }
    if (std::abs(va - vb) > bound) return false;
  }
  return true;
}

/// The column of row i's largest |entry| (its first), −1 for an empty or zero row.
int largest_column(const SparseRows& X, int i) {
  double size = 0;
  int column = -1;
  for (SparseRows::InnerIterator it(X, i); it; ++it)
    if (std::abs(it.value()) > size) {
      size = std::abs(it.value());
      column = static_cast<int>(it.col());
    }
  return column;
}

/// (ST9): contacts whose N, S and T rows coincide within `tol` (relative) and whose μ are equal form
/// one group, solved as one contact with the smallest of their gaps; a contact joins the first such group.
///
/// Only a leader whose N row stores the column j of N_c's largest entry can be close to N_c: with finite
/// entries and tol ≤ ¼, closeness bounds ‖N_l‖∞ ≤ ‖N_c‖∞/(1 − tol), so the bound tol·max(‖N_l‖∞, ‖N_c‖∞) is at
/// most ‖N_c‖∞/3 and an implicit zero at j differs by ‖N_c‖∞. The leaders are looked up by that column (a
/// pile's thousands of contacts would otherwise each be compared with every group), in increasing order,
/// so the group found is the first one's, as a scan over all leaders finds.
void group_contacts(const ContactProblem& p, double tol, StewartTrinkleLcp& lcp) {
  lcp.leader.clear();
  lcp.group.assign(p.nc, -1);
  std::vector<double>&size_N = lcp.size_N, &size_S = lcp.size_S, &size_T = lcp.size_T;
  size_N.resize(p.nc);
  size_S.resize(p.nc);
  size_T.resize(p.nc);
  for (int c = 0; c < p.nc; ++c) {
    size_N[c] = row_size(p.N, c);
    size_S[c] = row_size(p.S, c);
    size_T[c] = row_size(p.T, c);
  }
  const bool finite = std::all_of(p.N.valuePtr(), p.N.valuePtr() + p.N.nonZeros(),
                                  [](double v) { return std::isfinite(v); });
  const bool indexed = tol > 0 && tol <= 0.25 && finite;
  if (indexed) {
    lcp.first_node.assign(p.nv, -1);
    lcp.last_node.assign(p.nv, -1);
    lcp.node_group.resize(p.N.nonZeros());
    lcp.node_next.resize(p.N.nonZeros());
  }
  int nodes = 0;
  const auto joins = [&](int g, int c) {
    const int l = lcp.leader[g];
    return p.mu[l] == p.mu[c] && rows_close(p.N, l, c, tol, size_N[l], size_N[c]) &&
           rows_close(p.S, l, c, tol, size_S[l], size_S[c]) && rows_close(p.T, l, c, tol, size_T[l], size_T[c]);
  };
  for (int c = 0; c < p.nc; ++c) {
    const int column = indexed ? largest_column(p.N, c) : -1;
    if (column >= 0) {
      for (int e = lcp.first_node[column]; e >= 0; e = lcp.node_next[e])
        if (joins(lcp.node_group[e], c)) {
          lcp.group[c] = lcp.node_group[e];
          break;
        }
    } else if (tol > 0) {
      for (int g = 0; g < static_cast<int>(lcp.leader.size()); ++g)
        if (joins(g, c)) {
          lcp.group[c] = g;
          break;
        }
    }
    if (lcp.group[c] < 0) {
      lcp.group[c] = static_cast<int>(lcp.leader.size());
      lcp.leader.push_back(c);
      if (indexed)
        for (SparseRows::InnerIterator it(p.N, c); it; ++it) {
          const int j = static_cast<int>(it.col());
          lcp.node_group[nodes] = lcp.group[c];
          lcp.node_next[nodes] = -1;
          (lcp.last_node[j] >= 0 ? lcp.node_next[lcp.last_node[j]] : lcp.first_node[j]) = nodes;
          lcp.last_node[j] = nodes++;
        }
    }
  }
  const int ng = static_cast<int>(lcp.leader.size());
  lcp.ng = ng;
  grow(lcp.phi, lcp.phi_storage, ng);
  for (int g = 0; g < ng; ++g) lcp.phi[g] = p.phi[lcp.leader[g]];
  for (int c = 0; c < p.nc; ++c) lcp.phi[lcp.group[c]] = std::min(lcp.phi[lcp.group[c]], p.phi[c]);
  // The group's impulse goes to its members at the smallest gap, in equal shares: the others keep
  // w > 0 and p = 0, so complementarity holds for every original contact.
  lcp.members.assign(ng, 0);
  for (int c = 0; c < p.nc; ++c)
    if (p.phi[c] <= lcp.phi[lcp.group[c]] + kEqualGap) ++lcp.members[lcp.group[c]];
  lcp.share.resize(p.nc);
  for (int c = 0; c < p.nc; ++c)
    lcp.share[c] = p.phi[c] <= lcp.phi[lcp.group[c]] + kEqualGap ? 1.0 / lcp.members[lcp.group[c]] : 0.0;
}

/// J = [N_leaders; L; S_leaders; T_leaders], in the storage kept for any row count up to the most met
/// (contact/rows_by_count.hpp: no allocation once warm, whatever the contact set's size). A row is one run of its
/// matrix's index and value arrays (contact/stored_row.hpp): it is copied as such.
const SparseRows& stack_rows(const ContactProblem& p, const std::vector<int>& leader, RowsByCount& J_rows) {
  Eigen::Index row_nonzeros = 0, nonzeros = 0;   // the most of one row, and of all
  const auto count = [&](const SparseRows& X, Eigen::Index i) {
    const auto [begin, end] = stored_row(X, i);
    row_nonzeros = std::max(row_nonzeros, end - begin);
    nonzeros += end - begin;
  };
  for (int l = 0; l < p.nl; ++l) count(p.L, l);
  for (int c : leader) count(p.N, c), count(p.S, c), count(p.T, c);
  const Eigen::Index ng = static_cast<Eigen::Index>(leader.size());
  SparseRows& J = J_rows.empty(3 * ng + p.nl, p.nv, row_nonzeros);
  assert(J.isCompressed());     // only this function fills it: the outer index alone places the rows
  J.resizeNonZeros(nonzeros);   // within the room empty() reserved: rows × the most of one row
  SparseRows::StorageIndex* outer = J.outerIndexPtr();
  SparseRows::StorageIndex* inner = J.innerIndexPtr();
  double* value = J.valuePtr();
  Eigen::Index r = 0, at = 0;
  auto append = [&](const SparseRows& X, Eigen::Index i) {
    const auto [begin, end] = stored_row(X, i);
    std::copy(X.innerIndexPtr() + begin, X.innerIndexPtr() + end, inner + at);
    std::copy(X.valuePtr() + begin, X.valuePtr() + end, value + at);
    outer[r++] = static_cast<SparseRows::StorageIndex>(at);
    at += end - begin;
  };
  for (int c : leader) append(p.N, c);
  for (int l = 0; l < p.nl; ++l) append(p.L, l);
  for (int c : leader) append(p.S, c);
  for (int c : leader) append(p.T, c);
  outer[r] = static_cast<SparseRows::StorageIndex>(at);
  return J;
}

}  // namespace

const SparseRows& stack_stewart_trinkle_rows(const ContactProblem& problem, StewartTrinkleLcp& lcp) {
  lcp.J = &stack_rows(problem, lcp.leader, lcp.J_rows);
  lcp.problem = &problem;
  lcp.delassus_scratch.forget();   // whatever W Jᵀ was kept is of the rows stacked before
  return *lcp.J;
}

void group_stewart_trinkle_rows(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                StewartTrinkleLcp& lcp) {
  const int nc = problem.nc, nl = problem.nl, k = friction_edges;
  assert(k >= 4 && k % 2 == 0);
  lcp.delassus_scratch.forget();   // J is stacked anew (assemble_stewart_trinkle_products, or sparse)
  lcp.nc = nc;
  lcp.nl = nl;
  lcp.k = k;
  group_contacts(problem, merge_tolerance, lcp);
  const int ng = lcp.ng;

  // Only groups with μ > 0 carry friction rows (a μ = 0 pyramid would leave λ undetermined).
  lcp.friction_group.clear();
  lcp.mu.clear();
  for (int g = 0; g < ng; ++g)
    if (problem.mu[lcp.leader[g]] > 0) {
      lcp.friction_group.push_back(g);
      lcp.mu.push_back(problem.mu[lcp.leader[g]]);
    }
  const int nf = static_cast<int>(lcp.friction_group.size());
  lcp.nf = nf;
  lcp.lay_out_blocks();

  pyramid_edges(k, lcp.cos_edge, lcp.sin_edge);
}

void pyramid_edges(int k, Eigen::VectorXd& cos_edge, Eigen::VectorXd& sin_edge) {
  cos_edge.resize(k);
  sin_edge.resize(k);
  for (int j = 0; j < k; ++j) {
    const double angle = 2 * std::numbers::pi * j / k;
    cos_edge[j] = std::cos(angle);
    sin_edge[j] = std::sin(angle);
    if ((4 * j) % k == 0) {   // exactly ±t1, ±t2 at multiples of π/2 (cos(π/2) is 6e-17 in floating point)
      cos_edge[j] = std::round(cos_edge[j]);
      sin_edge[j] = std::round(sin_edge[j]);
    }
  }
}

int split_onto_edges(double s, double t, const Eigen::VectorXd& cos_edge, const Eigen::VectorXd& sin_edge,
                     double& alpha, double& beta) {
  const int k = static_cast<int>(cos_edge.size());
  const double sector = 2 * M_PI / k;
  double angle = std::atan2(t, s);
  if (angle < 0) angle += 2 * M_PI;
  const int j = std::min(static_cast<int>(angle / sector), k - 1), j1 = (j + 1) % k;
  // α d_j + β d_{j+1} = (s, t): Cramer's rule on the 2×2 of the two edges (det = sin(2π/k) > 0).
  const double det = cos_edge[j] * sin_edge[j1] - sin_edge[j] * cos_edge[j1];
  alpha = (s * sin_edge[j1] - t * cos_edge[j1]) / det;
  beta = (cos_edge[j] * t - sin_edge[j] * s) / det;
  return j;
}

void assemble_stewart_trinkle_rows(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                   StewartTrinkleLcp& lcp) {
  group_stewart_trinkle_rows(problem, friction_edges, merge_tolerance, lcp);
  assemble_stewart_trinkle_products(problem, lcp);
}

void assemble_stewart_trinkle_products(const ContactProblem& problem, StewartTrinkleLcp& lcp) {
  const int nl = problem.nl, k = lcp.k, ng = lcp.ng, nu = ng + nl, nf = lcp.nf;

  // D = J W Jᵀ with J = [N; L; S; T] over the groups: rows iN(g) = g, iL(l) = ng + l, iS(g) = nu + g,
  // iT(g) = nu + ng + g.
  const SparseRows& J = stack_rows(problem, lcp.leader, lcp.J_rows);
  lcp.J = &J;
  lcp.problem = &problem;
  grow(lcp.D, lcp.D_storage, J.rows(), J.rows());
  lcp.D.setZero();
  lcp.D_known.assign(J.rows(), 0);
  keep_delassus_rows(problem, J, lcp.delassus_scratch);   // W Jᵀ once, for the diagonal here and need_D's columns
  delassus_diagonal_into(problem, J, ng, lcp.D, lcp.delassus_scratch);
  grow(lcp.Jv, lcp.Jv_storage, J.rows());
  lcp.Jv.noalias() = J * problem.v_star;

  // (ST7): a = mean diag(N W Nᵀ), the inverse effective mass of a typical normal row.
  double a = ng > 0 ? lcp.D.diagonal().head(ng).mean() : 1.0;
  if (!(a > 0) || !std::isfinite(a)) a = 1.0;
  lcp.balance = a;

  // q = [U v* + [φ; φ_L]/dt; F v*; 0].
  grow(lcp.q, lcp.q_storage, lcp.size);
  lcp.q.setZero();
  for (int g = 0; g < ng; ++g) lcp.q[g] = lcp.Jv[g] + lcp.phi[g] / problem.dt;
  for (int l = 0; l < nl; ++l) lcp.q[ng + l] = lcp.Jv[ng + l] + problem.phi_L[l] / problem.dt;
  for (int f = 0; f < nf; ++f) {
    const int g = lcp.friction_group[f];
    for (int j = 0; j < k; ++j)
      lcp.q[lcp.offset_F + f * k + j] = lcp.cos_edge[j] * lcp.Jv[nu + g] + lcp.sin_edge[j] * lcp.Jv[nu + ng + g];
  }
}

void assemble_stewart_trinkle_matrix(StewartTrinkleLcp& lcp) {
  const int k = lcp.k, ng = lcp.ng, nu = ng + lcp.nl, nf = lcp.nf;
  const int n = lcp.size, oF = lcp.offset_F, oL = lcp.offset_lambda;
  const double a = lcp.balance;
  const MatrixView& D = lcp.D;
  const auto iS = [&](int g) { return nu + g; };
  const auto iT = [&](int g) { return nu + ng + g; };
  grow(lcp.A, lcp.A_storage, n, n);
  lcp.A.setZero();
  MatrixView& A = lcp.A;
  const Eigen::VectorXd& cs = lcp.cos_edge;
  const Eigen::VectorXd& sn = lcp.sin_edge;

  // U rows: U W Uᵀ and U W Fᵀ.
  A.topLeftCorner(nu, nu) = D.topLeftCorner(nu, nu);
  for (int f = 0; f < nf; ++f) {
    const int g = lcp.friction_group[f];
    for (int j = 0; j < k; ++j) {
      const int col = oF + f * k + j;
      A.col(col).head(nu) = cs[j] * D.col(iS(g)).head(nu) + sn[j] * D.col(iT(g)).head(nu);
      A.row(col).head(nu) = A.col(col).head(nu).transpose();
    }
  }
  // F rows: F W Fᵀ from the S/T blocks of D, and aE; λ rows: a μ̄ and −a Eᵀ.
  for (int f = 0; f < nf; ++f) {
    const int g = lcp.friction_group[f];
    for (int h = 0; h < nf; ++h) {
      const int e = lcp.friction_group[h];
      const double ss = D(iS(g), iS(e)), st = D(iS(g), iT(e)), ts = D(iT(g), iS(e)), tt = D(iT(g), iT(e));
      for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i)
          A(oF + f * k + j, oF + h * k + i) = cs[j] * (cs[i] * ss + sn[i] * st) + sn[j] * (cs[i] * ts + sn[i] * tt);
    }
    for (int j = 0; j < k; ++j) {
      A(oF + f * k + j, oL + f) = a;
      A(oL + f, oF + f * k + j) = -a;
    }
    A(oL + f, g) = a * lcp.mu[f];
  }
}

void assemble_stewart_trinkle_lcp(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                  StewartTrinkleLcp& lcp) {
  assemble_stewart_trinkle_rows(problem, friction_edges, merge_tolerance, lcp);
  lcp.need_all_D();
  assemble_stewart_trinkle_matrix(lcp);
}

void StewartTrinkleLcp::need_D(const std::vector<char>& wanted) {
  assert(static_cast<Eigen::Index>(wanted.size()) == D.rows() && problem != nullptr && J != nullptr);
  bool missing = false;
  D_wanted.resize(wanted.size());
  for (std::size_t c = 0; c < wanted.size(); ++c) {
    D_wanted[c] = wanted[c] && !D_known[c];
    missing = missing || D_wanted[c];
  }
  if (!missing) return;
  delassus_columns_into(*problem, *J, *J, D_wanted, D, delassus_scratch);
  for (std::size_t c = 0; c < wanted.size(); ++c) D_known[c] = D_known[c] || D_wanted[c];
}

void StewartTrinkleLcp::need_D_of_unknowns(const std::vector<int>& unknowns) {
  const int nu = ng + nl;
  column_mask.assign(D.rows(), 0);
  for (int i : unknowns) {
    if (i < nu) {
      column_mask[i] = 1;
    } else if (i < offset_lambda) {
      const int g = friction_group[(i - offset_F) / k];
      column_mask[nu + g] = column_mask[nu + ng + g] = 1;
    }
  }
  need_D(column_mask);
}

void StewartTrinkleLcp::need_all_D() {
  column_mask.assign(D.rows(), 1);
  need_D(column_mask);
}

double StewartTrinkleLcp::entry(int r, int c) const {
  const int nu = ng + nl;
  // A row or column of the LCP as a combination of rows of D: U rows are D's own, F row (f, j) is
  // cos_j·S_g + sin_j·T_g; λ rows have no D part.
  const auto combine = [&](int i, int& d1, double& w1, int& d2, double& w2) {
    if (i < nu) {
      d1 = i, w1 = 1, d2 = -1, w2 = 0;
      return true;
    }
    if (i < offset_lambda) {
      const int f = (i - offset_F) / k, j = (i - offset_F) % k, g = friction_group[f];
      d1 = nu + g, w1 = cos_edge[j], d2 = nu + ng + g, w2 = sin_edge[j];
      return true;
    }
    return false;
  };
  int r1, r2, c1, c2;
  double a1, a2, b1, b2;
  const bool r_in_D = combine(r, r1, a1, r2, a2), c_in_D = combine(c, c1, b1, c2, b2);
  if (r_in_D && c_in_D) {
    double value = a1 * b1 * D(r1, c1);
    if (c2 >= 0) value += a1 * b2 * D(r1, c2);
    if (r2 >= 0) value += a2 * b1 * D(r2, c1);
    if (r2 >= 0 && c2 >= 0) value += a2 * b2 * D(r2, c2);
    return value;
  }
  if (r_in_D) {   // column λ̂_h: a in the F rows of friction block h
    const int h = c - offset_lambda;
    return r >= offset_F && (r - offset_F) / k == h ? balance : 0.0;
  }
  const int f = r - offset_lambda;   // λ row f
  if (c_in_D) {
    if (c < offset_F) return c == friction_group[f] ? balance * mu[f] : 0.0;
    return (c - offset_F) / k == f ? -balance : 0.0;
  }
  return 0.0;
}

void StewartTrinkleLcp::basis_matrix(const std::vector<int>& basis, MatrixView& A_BB) {
  const int nu = ng + nl, nb = static_cast<int>(basis.size());
  basis_rows.resize(nb);
  for (int r = 0; r < nb; ++r) {
    const int i = basis[r];
    UnknownRows& u = basis_rows[r];
    u = {i, -1, -1, -1, 0.0, 0.0};
    if (i < nu) {
      u.d1 = i, u.w1 = 1;
    } else if (i < offset_lambda) {
      const int f = (i - offset_F) / k, j = (i - offset_F) % k, g = friction_group[f];
      u.d1 = nu + g, u.w1 = cos_edge[j], u.d2 = nu + ng + g, u.w2 = sin_edge[j], u.block = f;
    } else {
      u.block = i - offset_lambda;
    }
  }
  // The arithmetic of entry(), term by term.
  for (int c = 0; c < nb; ++c) {
    const UnknownRows& b = basis_rows[c];
    for (int r = 0; r < nb; ++r) {
      const UnknownRows& a = basis_rows[r];
      double value = 0.0;
      if (a.d1 >= 0 && b.d1 >= 0) {
        value = a.w1 * b.w1 * D(a.d1, b.d1);
        if (b.d2 >= 0) value += a.w1 * b.w2 * D(a.d1, b.d2);
        if (a.d2 >= 0) value += a.w2 * b.w1 * D(a.d2, b.d1);
        if (a.d2 >= 0 && b.d2 >= 0) value += a.w2 * b.w2 * D(a.d2, b.d2);
      } else if (a.d1 >= 0) {   // column λ̂_h: a in the F rows of friction block h
        value = a.block == b.block ? balance : 0.0;
      } else if (b.d1 >= 0) {   // λ row f
        if (b.index < offset_F) value = b.index == friction_group[a.block] ? balance * mu[a.block] : 0.0;
        else value = b.block == a.block ? -balance : 0.0;
      }
      A_BB(r, c) = value;
    }
  }
}

void StewartTrinkleLcp::times(const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::Ref<Eigen::VectorXd> Az,
                              Eigen::Ref<Eigen::VectorXd> p_J, Eigen::Ref<Eigen::VectorXd> Dp) const {
  const int nu = ng + nl;
  // p_J = [p_N; p_L; p_S; p_T] over the groups (ST8), D p_J, then the rows of (ST6).
  assert(Az.size() == size && p_J.size() == D.rows() && Dp.size() == D.rows());
  p_J.setZero();
  p_J.head(nu) = z.head(nu);
  for (int f = 0; f < nf; ++f) {
    const auto p_F = z.segment(offset_F + f * k, k);
    const int g = friction_group[f];
    p_J[nu + g] = cos_edge.dot(p_F);
    p_J[nu + ng + g] = sin_edge.dot(p_F);
  }
  Dp.noalias() = D * p_J;
  Az.head(nu) = Dp.head(nu);
  for (int f = 0; f < nf; ++f) {
    const int g = friction_group[f];
    for (int j = 0; j < k; ++j)
      Az[offset_F + f * k + j] = cos_edge[j] * Dp[nu + g] + sin_edge[j] * Dp[nu + ng + g] + balance * z[offset_lambda + f];
    Az[offset_lambda + f] = balance * (mu[f] * z[g] - z.segment(offset_F + f * k, k).sum());
  }
}

}  // namespace impetus
