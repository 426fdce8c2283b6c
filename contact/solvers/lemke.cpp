// Lemke's method (lemke.hpp, equations L1–L8).
#include "contact/solvers/lemke.hpp"
#include "contact/solvers/lcp_certificate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Tolerances of the pivoting, on the problem scaled to max|A_ij| = max|q_i| = 1 (lemke.hpp).
// An entry of d is a blocking candidate in (L5) only above max(kPivotAbsolute, kPivotRelative·‖d‖∞):
// d is computed through G⁻¹ with a relative error ~ 1e-16·cond(G); below these floors an entry is
// indistinguishable from an exact zero, and pivoting on it would blow G⁻¹ up.
constexpr double kPivotAbsolute = 1e-13;
constexpr double kPivotRelative = 1e-10;
// An entry of d that is smaller than kCancellation times the sum of the magnitudes of its terms is a
// cancellation: an exact zero of the exact arithmetic (a duplicated row of A, a rank-deficient
// block), which must not be pivoted on however large d is. The friction rows of many coplanar contacts on
// one body (rank ~3 per body) yield exact zeros that come out at 1e-9 … 2e-9 of their terms: on the fallen
// NAO (tests/contact/data) such a pivot took the basis from cond 1e2 to 1e9 and Lemke ended on a false
// ray, and the fallen vision60 (corpus, no equilibration) took degenerate pivots at 2.5e-9 of their terms
// and ended on rays. Erring towards zero is safe since (L10): a true entry taken for a zero still blocks
// when the step would drive it negative. Measured on vision60's 1905 problems of 2 s under
// stewart_trinkle, through the model: 1e-9 → 20 fallbacks, 1e-8 → 4, 3e-8 → 0, 1e-7 → 1; on 20 older
// NAO steps, 3e-8 → 19 solved, 1 fallback, 0 failures (was 18, 1, 1).
constexpr double kCancellation = 3e-8;
// Weight of the first-order error bound ε|G⁻¹||G||G⁻¹||·| of d, which grows with the conditioning of
// the basis: an entry of d below kAmplified times it is not told from zero. The bound is
// componentwise and pessimistic, hence a weight of one ulp; without it pivots of 1e-10 next to G⁻¹
// entries of 1e3 (contacts 1 µm apart on a 1 m box) were taken and wrecked the basis, with 1e-12
// and 1e-14 too many sound pivots were refused (measured on stacks with near-duplicate contacts).
constexpr double kAmplified = 1e-16;
// Tied candidates of the ratio test compete lexicographically only if their pivot is at least this
// fraction of the largest tied pivot (see the degenerate-run fallback in solve_once). Measured on
// stacks with contacts 1e-9 … 1e-3 m apart: 1e-6 → 8 failures in 600, 1e-3 → 1, 1e-1 → 0.
constexpr double kTiePivot = 0.1;
// A chosen pivot element below kSuspectPivot times its terms triggers a refactorisation first: on
// rank-deficient problems (48 redundant rows of rank 10) pivots at 1e-5 of their terms were seen to
// be polluted zeros after a few dozen updates, leading to a false ray termination; at 1e-4 and
// beyond they were decided right. 1e-3 keeps a decade of margin; refactorisations stay rare.
constexpr double kSuspectPivot = 1e-3;
// Two ratios of (L5) tie when the basic variable of the loser would be left within this (relative)
// distance of zero: a few hundred roundoffs, small enough never to merge genuinely different ratios
// of an O(1)-scaled problem.
constexpr double kTie = 1e-11;
// Two entries of the lexicographic rows [x B⁻¹]/d are equal within this relative distance.
constexpr double kLexTie = 1e-11;
// Basis residual ‖B x − q‖∞ (scaled problem) above which G⁻¹ is rebuilt, and how often it is measured.
constexpr double kDriftTolerance = 1e-10;
constexpr int kCheckPeriod = 32;
// A is handled column-sparse when at most this fraction of its entries are non-zero: below it the
// indexed loop beats the dense, vectorised column sweep.
constexpr double kSparseFraction = 0.25;
// (L10): a cancellation (an entry of d below kCancellation of its terms, taken for an exact zero) that the
// step θ would still drive below −kGrayFeasibility·tolerance (scaled problem, max|q_i| = 1) blocks after
// all. Clamping it to zero instead, as x ← max(0, x − θd) does, leaves the basic values off by that much,
// which the certificate (L6) sees at the same relative size; a hundredth of the tolerance keeps the
// certificate's margin and is still 1e8 roundoffs of the O(1)-scaled values. Measured on 20 saved steps
// of the NAO resting on its joint limits (two are in tests/contact/data): 1e-2 … 1 of the tolerance solve
// all 20 and leave 20 older NAO steps as they were; 1e-3 turned one of those regularised retries into a
// failure.
constexpr double kGrayFeasibility = 1e-2;
// Diagonal spread max A_ii / min A_ii (over A_ii > 0) above which the problem is equilibrated (L9).
// The floors above are relative to max|A_ij|: with a joint-limit row of a 5 g link next to contacts of a
// 5 kg torso (the NAO humanoid: A_ii from 2e-9 to 1) every contact entry sits at 1e-8 and
// kSingularPivot (1e-14) mistakes their 1e-6-conditioned block for singular. Below 1e3 the floors keep
// 10 decades of margin, and scenes of comparable bodies are left bit for bit as they were.
constexpr double kEquilibrationSpread = 1e3;
// Gauss–Jordan declares G singular when a pivot falls below this fraction of max|G_ij|.
constexpr double kSingularPivot = 1e-14;

/// (L9) applies: the positive diagonal of A spans more than kEquilibrationSpread.
bool equilibration_needed(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  double d_min = kInf, d_max = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    if (A(i, i) > 0) {
      d_min = std::min(d_min, A(i, i));
      d_max = std::max(d_max, A(i, i));
    }
  return d_max > kEquilibrationSpread * d_min;
}

/// In-place inverse by Gauss–Jordan elimination with partial pivoting. False when singular.
bool invert_in_place(Eigen::Ref<Eigen::MatrixXd> a, std::vector<int>& perm, VectorView& col, VectorView& row) {
  const int k = static_cast<int>(a.rows());
  if (k == 0) return true;
  const double scale = a.cwiseAbs().maxCoeff();
  if (!(scale > 0) || !std::isfinite(scale)) return false;
  for (int p = 0; p < k; ++p) {
    Eigen::Index at = 0;
    const double best = a.col(p).tail(k - p).cwiseAbs().maxCoeff(&at);
    const int piv = p + static_cast<int>(at);
    if (!(best > kSingularPivot * scale)) return false;
    perm[p] = piv;
    if (piv != p) a.row(p).swap(a.row(piv));
    const double inv = 1.0 / a(p, p);
    a(p, p) = 1.0;
    a.row(p) *= inv;
    col.head(k) = a.col(p);
    col[p] = 0;
    a.col(p).setZero();
    a(p, p) = inv;
    row.head(k) = a.row(p).transpose();
    // a −= col rowᵀ by columns, skipping the exact zeros of row, where a − c·0 = a (up to the sign of a zero
    // a): the zero blocks of a KKT matrix leave many (id_qp's Stage I LCP: 29 % of the columns).
    for (int j = 0; j < k; ++j)
      if (row[j] != 0) a.col(j).noalias() -= row[j] * col.head(k);
  }
  for (int p = k - 1; p >= 0; --p)
    if (perm[p] != p) a.col(p).swap(a.col(perm[p]));
  return true;
}

}  // namespace

const char* to_string(LemkeStatus status) {
  switch (status) {
    case LemkeStatus::Solved: return "solved";
    case LemkeStatus::RayTermination: return "ray termination";
    case LemkeStatus::PivotLimit: return "pivot limit";
    case LemkeStatus::NumericalFailure: return "numerical failure";
    case LemkeStatus::CertificateFailed: return "certificate failed";
  }
  return "unknown";
}

double lcp_certificate(const Eigen::VectorXd& q, const Eigen::VectorXd& z, const Eigen::VectorXd& w, double az_norm) {
  return certificate_rho(q, z, w, az_norm);
}

double certificate_rho(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& z,
                       const Eigen::Ref<const Eigen::VectorXd>& w, double az_norm) {
  const Eigen::Index n = q.size();
  if (n == 0) return 0;
  if (!z.allFinite() || !w.allFinite()) return kInf;
  double w_ref = q.lpNorm<Eigen::Infinity>();
  if (!(w_ref > 0)) w_ref = az_norm;
  double z_ref = z.lpNorm<Eigen::Infinity>();
  if (!(w_ref > 0)) w_ref = 1;
  if (!(z_ref > 0)) z_ref = 1;
  double rho = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    rho = std::max(rho, -z[i] / z_ref);
    rho = std::max(rho, -w[i] / w_ref);
    rho = std::max(rho, std::abs(z[i] * w[i]) / (z_ref * w_ref));
  }
  return std::isfinite(rho) ? rho : kInf;
}

namespace {

/// lcp_residual into a w of size n already (the solver's own buffer, a view).
double residual_into(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::Ref<Eigen::VectorXd> w, double epsilon) {
  const Eigen::Index n = q.size();
  if (n == 0) return 0;
  if (!z.allFinite()) return kInf;
  w.noalias() = A * z;
  if (epsilon != 0) w += epsilon * z;
  const double az = w.lpNorm<Eigen::Infinity>();
  w += q;
  return certificate_rho(q, z, w, az);
}

}  // namespace

double lcp_residual(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::VectorXd& w, double epsilon) {
  w.resize(q.size());
  return residual_into(A, q, z, w, epsilon);
}

void LemkeSolver::use_size(int n) {
  s_.n = n;
  grow(s_.As_, s_.As_storage_, n, n);
  grow(s_.Ginv_, s_.Ginv_storage_, n, n);
  grow(s_.Gbuf_, s_.Gbuf_storage_, n, n);
  grow(s_.qs_, s_.qs_storage_, n);
  grow(s_.eq_, s_.eq_storage_, n);
  grow(s_.xw_, s_.xw_storage_, n);
  grow(s_.xz_, s_.xz_storage_, n);
  grow(s_.dz_, s_.dz_storage_, n);
  grow(s_.dw_, s_.dw_storage_, n);
  grow(s_.dz_scale_, s_.dz_scale_storage_, n);
  grow(s_.dw_scale_, s_.dw_scale_storage_, n);
  grow(s_.t_, s_.t_storage_, n);
  grow(s_.u_, s_.u_storage_, n);
  grow(s_.h_, s_.h_storage_, n);
  grow(s_.lex_best_, s_.lex_best_storage_, n);
  grow(s_.lex_cand_, s_.lex_cand_storage_, n);
  grow(s_.gj_col_, s_.gj_col_storage_, n);
  grow(s_.gj_row_, s_.gj_row_storage_, n);
  grow(s_.w_, s_.w_storage_, n);
  grow(s_.best_z_, s_.best_z_storage_, n);
}

void LemkeSolver::reserve(int n) {
  n_ = n;
  s_.rows_.resize(n);
  s_.cols_.resize(n);
  s_.rpos_.resize(n);
  s_.cpos_.resize(n + 1);
  s_.perm_.resize(n);
  s_.sorted_rows_.resize(n);
  s_.ties_.reserve(n + 1);
}

// t = A[:, Z'] x (|A[:, Z']|·|x| with `magnitudes`), the z₀ column being e = 1: the O(n·k) part of a
// pivot, over the non-zeros only when A is sparse (islands of many bodies).
void LemkeSolver::basis_columns_times(const VectorView& x, bool magnitudes) {
  s_.t_.setZero();
  for (int c = 0; c < k_; ++c) {
    const int j = s_.cols_[c];
    const double a = magnitudes ? std::abs(x[c]) : x[c];
    if (j == n_) {
      s_.t_.array() += a;
    } else if (sparse_) {
      for (int p = s_.col_start_[j]; p < s_.col_start_[j + 1]; ++p)
        s_.t_[s_.row_index_[p]] += a * (magnitudes ? std::abs(s_.value_[p]) : s_.value_[p]);
    } else if (magnitudes) {
      s_.t_.noalias() += a * s_.As_.col(j).cwiseAbs();
    } else {
      s_.t_.noalias() += a * s_.As_.col(j);
    }
  }
}

// u = |A[R, Z']|·|x|: the rows R of basis_columns_times(x, true), each summed in the same order, in
// O(k²) (O(nnz) when sparse) instead of O(n·k): only these rows enter G's error bound in direction().
void LemkeSolver::basis_rows_magnitudes(const VectorView& x) {
  const int k = k_;
  s_.u_.head(k).setZero();
  for (int c = 0; c < k; ++c) {
    const int j = s_.cols_[c];
    const double a = std::abs(x[c]);
    if (j == n_) {
      for (int r = 0; r < k; ++r) s_.u_[r] += a;
    } else if (sparse_) {
      for (int p = s_.col_start_[j]; p < s_.col_start_[j + 1]; ++p) {
        const int r = s_.rpos_[s_.row_index_[p]];
        if (r >= 0) s_.u_[r] += a * std::abs(s_.value_[p]);
      }
    } else {
      for (int r = 0; r < k; ++r) s_.u_[r] += a * std::abs(s_.As_(s_.rows_[r], j));
    }
  }
}

// d = B⁻¹·(column of the entering variable), split by (L8) into s_.dz_ (k, by column position) and
// s_.dw_ (entries of the basic w's): column −A_{:,j} for z_j, e_j for w_j (j ∈ R).
void LemkeSolver::direction(Entering v) {
  const int k = k_;
  auto Gi = s_.Ginv_.topLeftCorner(k, k);
  if (v.is_z) {
    // dz = G⁻¹u and its term magnitudes |G⁻¹|·|u| in one sweep over G⁻¹ (u is sparse for sparse A).
    s_.dz_.head(k).setZero();
    s_.dz_scale_.head(k).setZero();
    for (int a = 0; a < k; ++a) {
      s_.u_[a] = -s_.As_(s_.rows_[a], v.j);
      if (s_.u_[a] == 0) continue;
      s_.dz_.head(k).noalias() += s_.u_[a] * Gi.col(a);
      s_.dz_scale_.head(k).noalias() += std::abs(s_.u_[a]) * Gi.col(a).cwiseAbs();
    }
  } else {
    s_.dz_.head(k) = Gi.col(s_.rpos_[v.j]);
    s_.dz_scale_.head(k) = s_.dz_.head(k).cwiseAbs();
  }
  // s_.dz_scale_ so far: the magnitudes of the terms of dz (an entry far below its own terms is a
  // cancellation: an exact zero up to roundoff, e.g. a duplicated row of A). G⁻¹ itself is inexact,
  // |δG⁻¹| ≲ ε|G⁻¹||G||G⁻¹| to first order, which amplifies them by the conditioning of the basis:
  // add that bound, weighted kAmplified/kCancellation, so that one threshold covers both.
  basis_rows_magnitudes(s_.dz_scale_);                                // u = |A[R, Z']|·|terms| = |G|·…
  s_.h_.head(k).setZero();
  for (int a = 0; a < k; ++a)
    if (s_.u_[a] != 0) s_.h_.head(k).noalias() += s_.u_[a] * Gi.col(a).cwiseAbs();
  s_.dz_scale_.head(k) += (kAmplified / kCancellation) * s_.h_.head(k);

  // A[:, Z'] dz, so that dw_i = (column)_i + (A[:, Z'] dz)_i for i ∈ W; and the magnitudes behind each dw_i,
  // |A[:, Z']|·|dz_scale|: basis_columns_times of both in one sweep over the columns (each entry summed
  // in the same order).
  s_.dw_.setZero();
  s_.dw_scale_.setZero();
  for (int c = 0; c < k; ++c) {
    const int j = s_.cols_[c];
    const double a = s_.dz_[c], b = std::abs(s_.dz_scale_[c]);
    if (j == n_) {
      s_.dw_.array() += a;
      s_.dw_scale_.array() += b;
    } else if (sparse_) {
      for (int p = s_.col_start_[j]; p < s_.col_start_[j + 1]; ++p) {
        s_.dw_[s_.row_index_[p]] += a * s_.value_[p];
        s_.dw_scale_[s_.row_index_[p]] += b * std::abs(s_.value_[p]);
      }
    } else {
      s_.dw_.noalias() += a * s_.As_.col(j);
      s_.dw_scale_.noalias() += b * s_.As_.col(j).cwiseAbs();
    }
  }
  if (v.is_z) {
    s_.dw_ -= s_.As_.col(v.j);
    s_.dw_scale_ += s_.As_.col(v.j).cwiseAbs();
  }
}

// h = r'ᵀ G⁻¹ with r'_c = A[i, Z'_c]: the coupling of row i to the basis (row i of A[W,Z'] G⁻¹ in L8).
void LemkeSolver::r_times_ginv(int i) {
  const int k = k_;
  for (int c = 0; c < k; ++c) s_.u_[c] = a_entry(i, s_.cols_[c]);
  s_.h_.head(k).noalias() = s_.Ginv_.topLeftCorner(k, k).transpose() * s_.u_.head(k);
}

// Gathers r'_c = A[i, Z'_c] of a w_i candidate (unused for a z candidate).
void LemkeSolver::lex_prepare(const LexCandidate& x, VectorView& u) const {
  if (!x.is_z)
    for (int c = 0; c < k_; ++c) u[c] = a_entry(x.index, s_.cols_[c]);
}

// Entry j (an original row: the order of the perturbation ε^j) of the row [B⁻¹]/d of a basic
// variable, through (L8):  z at column position c: G⁻¹(c, rpos j);  w_i: e_i + (A[i,Z'] G⁻¹) on R.
double LemkeSolver::lex_entry(const LexCandidate& x, const VectorView& u, int j) const {
  const int a = s_.rpos_[j];
  double value = 0;
  if (x.is_z) {
    if (a >= 0) value = s_.Ginv_(x.index, a);
  } else if (j == x.index) {
    value = 1;                                   // w_i is basic, so row i is not in R
  } else if (a >= 0) {
    value = u.head(k_).dot(s_.Ginv_.col(a).head(k_));
  }
  return value / x.d;
}

// Whether x's row [B⁻¹]/d precedes y's lexicographically. Entries are computed lazily, column by
// column, over the columns where either can be non-zero (R, sorted, and a w candidate's own row),
// until the first that differs: O(k) per entry instead of O(k²) per row.
bool LemkeSolver::lex_less(const LexCandidate& x, const VectorView& ux, const LexCandidate& y,
                           const VectorView& uy) const {
  int extra[2] = {x.is_z ? n_ : x.index, y.is_z ? n_ : y.index};
  if (extra[0] > extra[1]) std::swap(extra[0], extra[1]);
  int p = 0, e = 0;
  while (true) {
    const int next_r = p < k_ ? s_.sorted_rows_[p] : n_;
    const int next_e = e < 2 ? extra[e] : n_;
    if (next_r >= n_ && next_e >= n_) break;
    int j;
    if (next_r <= next_e) {
      j = next_r;
      ++p;
    } else {
      j = next_e;
      ++e;
    }
    const double a = lex_entry(x, ux, j), b = lex_entry(y, uy, j);
    if (std::abs(a - b) > kLexTie * std::max({1.0, std::abs(a), std::abs(b)})) return a < b;
  }
  return x.d > y.d;   // numerically equal rows: the larger pivot
}

void LemkeSolver::recompute_values() {
  const int k = k_;
  for (int a = 0; a < k; ++a) s_.u_[a] = s_.qs_[s_.rows_[a]];
  s_.xz_.head(k).noalias() = s_.Ginv_.topLeftCorner(k, k) * s_.u_.head(k);       // x_Z' = G⁻¹ q_R
  basis_columns_times(s_.xz_, false);
  for (int i = 0; i < n_; ++i)
    if (s_.rpos_[i] < 0) s_.xw_[i] = s_.qs_[i] + s_.t_[i];                          // x_W = q_W + A[W,Z'] x_Z'
}

// ‖B x − q‖∞ for the current values (L8): rows R: −A[R,Z'] x_Z' − q_R; rows W: x_W − A[W,Z'] x_Z' − q_W.
// Leaves the residual r = q − B x in s_.t_.
double LemkeSolver::basis_residual() {
  basis_columns_times(s_.xz_, false);
  s_.t_ += s_.qs_;                       // q + A[:,Z'] x_Z'
  for (int i = 0; i < n_; ++i)
    if (s_.rpos_[i] < 0) s_.t_[i] -= s_.xw_[i];
  return s_.t_.lpNorm<Eigen::Infinity>();
}

// One step of iterative refinement: x += B⁻¹ (q − B x), through (L8).
void LemkeSolver::refine() {
  const int k = k_;
  basis_residual();
  for (int a = 0; a < k; ++a) s_.u_[a] = s_.t_[s_.rows_[a]];
  s_.dz_.head(k).noalias() = s_.Ginv_.topLeftCorner(k, k) * s_.u_.head(k);
  s_.xz_.head(k) += s_.dz_.head(k);
  for (int i = 0; i < n_; ++i)
    if (s_.rpos_[i] < 0) s_.xw_[i] += s_.t_[i];    // δx_W = r_W + A[W, Z'] δx_Z'
  basis_columns_times(s_.dz_, false);
  for (int i = 0; i < n_; ++i)
    if (s_.rpos_[i] < 0) s_.xw_[i] += s_.t_[i];
}

bool LemkeSolver::refactor() {
  const int k = k_;
  auto G = s_.Gbuf_.topLeftCorner(k, k);
  for (int c = 0; c < k; ++c)
    for (int a = 0; a < k; ++a) G(a, c) = -a_entry(s_.rows_[a], s_.cols_[c]);
  if (!invert_in_place(G, s_.perm_, s_.gj_col_, s_.gj_row_)) return false;
  s_.Ginv_.topLeftCorner(k, k) = G;
  recompute_values();
  return s_.Ginv_.topLeftCorner(k, k).allFinite();
}

void LemkeSolver::extract(Eigen::Ref<Eigen::VectorXd> z, double scale) const {
  z.setZero();
  for (int c = 0; c < k_; ++c)
    if (s_.cols_[c] < n_) z[s_.cols_[c]] = std::max(0.0, s_.xz_[c]) * scale * s_.eq_[s_.cols_[c]];
}

// (L9): s_i = 1/√A_ii on a positive diagonal; on a zero one (the λ rows of ST6) the geometric mean of
// the row's and the column's largest scaled entries is brought to 1. Rounded to powers of two, so
// that S A S is exact.
void LemkeSolver::equilibrate() {
  const int n = n_;
  s_.eq_.setOnes();
  const auto power_of_two = [](double x) { return std::exp2(std::round(std::log2(x))); };
  if (!equilibration_needed(s_.As_)) return;
  for (int i = 0; i < n; ++i)
    if (s_.As_(i, i) > 0) s_.eq_[i] = power_of_two(1 / std::sqrt(s_.As_(i, i)));
  for (int i = 0; i < n; ++i) {
    if (s_.As_(i, i) > 0) continue;
    double row = 0, col = 0;
    for (int j = 0; j < n; ++j)
      if (s_.As_(j, j) > 0) {
        row = std::max(row, std::abs(s_.As_(i, j)) * s_.eq_[j]);
        col = std::max(col, std::abs(s_.As_(j, i)) * s_.eq_[j]);
      }
    const double size = row > 0 && col > 0 ? std::sqrt(row * col) : std::max(row, col);
    if (size > 0) s_.eq_[i] = power_of_two(1 / size);
  }
  s_.As_.array().colwise() *= s_.eq_.array();
  s_.As_.array().rowwise() *= s_.eq_.transpose().array();
}

LemkeAttempt LemkeSolver::solve_once(const Eigen::Ref<const Eigen::MatrixXd>& A,
                                     const Eigen::Ref<const Eigen::VectorXd>& q, double epsilon, Eigen::VectorXd& z) {
  z.resize(q.size());
  return solve_once(A, q, epsilon, Eigen::Ref<Eigen::VectorXd>(z));
}

LemkeAttempt LemkeSolver::solve_once(const Eigen::Ref<const Eigen::MatrixXd>& A,
                                     const Eigen::Ref<const Eigen::VectorXd>& q, double epsilon,
                                     Eigen::Ref<Eigen::VectorXd> z) {
  const int n = static_cast<int>(q.size());
  use_size(n);
  LemkeAttempt out;
  z.setZero();
  if (n == 0) return out;
  // max|A_ij| with NaN propagated: finite exactly when every entry is (one vectorised pass, also α below).
  const double a_max = A.rows() == n && A.cols() == n ? A.cwiseAbs().maxCoeff<Eigen::PropagateNaN>() : kInf;
  if (!std::isfinite(a_max) || !q.allFinite() || !std::isfinite(epsilon)) {
    out.status = LemkeStatus::NumericalFailure;
    out.residual = kInf;
    return out;
  }
  if (q.minCoeff() >= 0) {                        // z = 0 solves (L1)
    out.residual = residual_into(A, q, z, s_.w_, epsilon);
    return out;
  }

  // Scale to max|A_ij| = max|q_i| = 1: tolerances then mean the same for every problem.
  reserve(n);
  double alpha;
  if (epsilon == 0 && !equilibration_needed(A)) {
    // The plain attempt on comparable blocks (S = I): α is max|A_ij| already, and A_s = A/α one pass.
    s_.eq_.setOnes();
    alpha = a_max > 0 ? a_max : 1;
    s_.As_ = A / alpha;
  } else {
    s_.As_ = A;
    s_.As_.diagonal().array() += epsilon;
    equilibrate();
    alpha = s_.As_.cwiseAbs().maxCoeff();
    if (!(alpha > 0)) alpha = 1;
    s_.As_ /= alpha;
  }
  // Non-zeros of A_s, column by column until they pass the sparse fraction: past it A_s is dense whatever
  // the rest holds, and only a sparse A_s needs the full count (below).
  const double sparse_limit = kSparseFraction * static_cast<double>(n) * n;
  Eigen::Index nnz = 0;
  for (int j = 0; j < n && nnz <= sparse_limit; ++j) nnz += (s_.As_.col(j).array() != 0).count();
  const double beta = s_.eq_.cwiseProduct(q).lpNorm<Eigen::Infinity>();
  s_.qs_ = s_.eq_.cwiseProduct(q) / beta;
  const double z_scale = beta / alpha;            // z = S z_s·β/α (L9)

  // A compressed-column copy when A is mostly zeros (a contact couples at most two bodies).
  sparse_ = nnz <= sparse_limit;
  if (sparse_) {
    s_.col_start_.resize(n + 1);
    s_.row_index_.resize(nnz);
    s_.value_.resize(nnz);
    int p = 0;
    for (int j = 0; j < n; ++j) {
      s_.col_start_[j] = p;
      for (int i = 0; i < n; ++i)
        if (s_.As_(i, j) != 0) {
          s_.row_index_[p] = i;
          s_.value_[p++] = s_.As_(i, j);
        }
    }
    s_.col_start_[n] = p;
  }
  int max_pivots = options_.max_pivots > 0 ? options_.max_pivots : 20 * n + 100;
  if (budget_left_ > 0) max_pivots = std::min(max_pivots, budget_left_);

  std::fill(s_.rpos_.begin(), s_.rpos_.end(), -1);
  std::fill(s_.cpos_.begin(), s_.cpos_.end(), -1);
  s_.xw_ = s_.qs_;

  // (L3): z₀ enters; w_r leaves, r the lexicographic minimiser of (q_i, e_iᵀ): among the most
  // negative q_i, the largest index.
  int r = 0;
  const double qmin = s_.qs_.minCoeff();
  for (int i = 0; i < n; ++i)
    if (s_.qs_[i] <= qmin + kTie * (1 + std::abs(qmin))) r = i;
  const double z0 = -s_.qs_[r];
  s_.xw_.array() += z0;
  k_ = 1;
  s_.rows_[0] = r;
  s_.rpos_[r] = 0;
  s_.cols_[0] = n;
  s_.cpos_[n] = 0;
  s_.Ginv_(0, 0) = -1.0;                              // G = −e_r = [−1]
  s_.xz_[0] = z0;
  int pivots = 1;
  Entering entering{true, r};                      // (L4): the complement of w_r

  LemkeStatus status = LemkeStatus::Solved;
  bool z0_left = false;
  bool fresh = false;                              // G⁻¹ was just rebuilt from scratch
  // The pivot filter among ties voids the anti-cycling guarantee; after a long run of degenerate
  // steps (θ = 0) the run falls back to the pure lexicographic rule, which cannot cycle.
  bool pure_lexicographic = false;
  int degenerate_run = 0;
  while (!z0_left) {
    if (pivots >= max_pivots) { status = LemkeStatus::PivotLimit; break; }
    const int k = k_;
    direction(entering);

    // (L5): blocking candidates are d_i clear of roundoff; θ the smallest ratio.
    double dmax = s_.dz_.head(k).cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i)
      if (s_.rpos_[i] < 0) dmax = std::max(dmax, std::abs(s_.dw_[i]));
    if (!std::isfinite(dmax)) { status = LemkeStatus::NumericalFailure; break; }
    const double floor = std::max(kPivotAbsolute, kPivotRelative * dmax);
    auto clear_w = [&](int i) { return s_.rpos_[i] < 0 && s_.dw_[i] > std::max(floor, kCancellation * s_.dw_scale_[i]); };
    auto clear_z = [&](int c) { return s_.dz_[c] > std::max(floor, kCancellation * s_.dz_scale_[c]); };
    double theta_clear = kInf;
    for (int i = 0; i < n; ++i)
      if (clear_w(i)) theta_clear = std::min(theta_clear, std::max(s_.xw_[i], 0.0) / s_.dw_[i]);
    for (int c = 0; c < k; ++c)
      if (clear_z(c)) theta_clear = std::min(theta_clear, std::max(s_.xz_[c], 0.0) / s_.dz_[c]);
    // (L10): a cancellation that the step θ would drive below −δ blocks too.
    const double drop = kGrayFeasibility * options_.tolerance;
    auto driven_negative = [&](double x, double d) {
      return d > floor && theta_clear < kInf && std::max(x, 0.0) - theta_clear * d < -drop;
    };
    auto blocks_w = [&](int i) { return clear_w(i) || (s_.rpos_[i] < 0 && driven_negative(s_.xw_[i], s_.dw_[i])); };
    auto blocks_z = [&](int c) { return clear_z(c) || driven_negative(s_.xz_[c], s_.dz_[c]); };
    double theta = theta_clear;
    for (int i = 0; i < n; ++i)
      if (blocks_w(i)) theta = std::min(theta, std::max(s_.xw_[i], 0.0) / s_.dw_[i]);
    for (int c = 0; c < k; ++c)
      if (blocks_z(c)) theta = std::min(theta, std::max(s_.xz_[c], 0.0) / s_.dz_[c]);
    if (theta == kInf) {
      // A ray ends the run: make sure it is not an artefact of an inaccurate G⁻¹.
      if (!fresh) {
        if (!refactor()) { status = LemkeStatus::NumericalFailure; break; }
        fresh = true;
        continue;
      }
      status = LemkeStatus::RayTermination;
      break;
    }

    // Ties: candidates left within kTie of zero by the step θ. z₀ wins (it ends the run); otherwise
    // the lexicographic minimum of [x B⁻¹]/d; exact lexicographic ties (numerically) go to the
    // largest pivot.
    bool leave_z = false;
    int leave = -1;          // column position (z) or row index (w)
    double leave_d = 0;
    auto tied = [&](double x, double d) {
      const double xp = std::max(x, 0.0);
      return xp - theta * d <= kTie * (1 + xp);
    };
    const int z0_pos = s_.cpos_[n];
    if (blocks_z(z0_pos) && tied(s_.xz_[z0_pos], s_.dz_[z0_pos])) {
      leave_z = true; leave = z0_pos; leave_d = s_.dz_[z0_pos];
    } else {
      s_.ties_.clear();
      for (int i = 0; i < n; ++i)
        if (blocks_w(i) && tied(s_.xw_[i], s_.dw_[i])) s_.ties_.push_back({false, i, s_.dw_[i]});
      for (int c = 0; c < k; ++c)
        if (blocks_z(c) && tied(s_.xz_[c], s_.dz_[c])) s_.ties_.push_back({true, c, s_.dz_[c]});
      if (s_.ties_.size() > 1 && !pure_lexicographic) {
        // Among tied candidates only those with a pivot within kTiePivot of the largest compete: the
        // lexicographic rule alone may pick a pivot 1e-10 of its rivals and wreck the basis.
        double d_max = 0;
        for (const LexCandidate& t : s_.ties_) d_max = std::max(d_max, t.d);
        size_t kept = 0;
        for (const LexCandidate& t : s_.ties_)
          if (t.d >= kTiePivot * d_max) s_.ties_[kept++] = t;
        s_.ties_.resize(kept);
      }
      if (!s_.ties_.empty()) {
        LexCandidate best = s_.ties_.front();
        if (s_.ties_.size() > 1) {
          std::copy(s_.rows_.begin(), s_.rows_.begin() + k, s_.sorted_rows_.begin());
          std::sort(s_.sorted_rows_.begin(), s_.sorted_rows_.begin() + k);
          lex_prepare(best, s_.lex_best_);
          for (size_t t = 1; t < s_.ties_.size(); ++t) {
            lex_prepare(s_.ties_[t], s_.lex_cand_);
            if (lex_less(s_.ties_[t], s_.lex_cand_, best, s_.lex_best_)) {
              best = s_.ties_[t];
              s_.lex_best_.swap(s_.lex_cand_);
            }
          }
        }
        leave_z = best.is_z; leave = best.index; leave_d = best.d;
      }
    }
    if (leave < 0 || !std::isfinite(theta)) { status = LemkeStatus::NumericalFailure; break; }

    // A pivot element that is small against its own terms may be a zero polluted by the error the
    // updates of G⁻¹ accumulate: rebuild G⁻¹ once and decide again on an accurate d.
    const double leave_scale = leave_z ? s_.dz_scale_[leave] : s_.dw_scale_[leave];
    if (!fresh && leave_d < kSuspectPivot * leave_scale) {
      if (!refactor()) { status = LemkeStatus::NumericalFailure; break; }
      fresh = true;
      continue;
    }
    fresh = false;

    degenerate_run = theta > 0 ? 0 : degenerate_run + 1;
    if (degenerate_run > n) pure_lexicographic = true;

    // Move along d by θ: x ← x − θ d; the entering variable takes θ, the leaving one 0.
    for (int i = 0; i < n; ++i)
      if (s_.rpos_[i] < 0) s_.xw_[i] = std::max(0.0, s_.xw_[i] - theta * s_.dw_[i]);
    for (int c = 0; c < k; ++c) s_.xz_[c] = std::max(0.0, s_.xz_[c] - theta * s_.dz_[c]);

    // Basis update of G⁻¹ (L8), one of four shapes.
    const double s = leave_d;                    // the pivot element
    const int leaving_index = leave_z ? s_.cols_[leave] : leave;
    if (entering.is_z && !leave_z) {
      // w_i leaves, z_j enters: border G with row i and column j. With g = G⁻¹u = dz, h = rᵀG⁻¹
      // (r = −A[i,Z']) and s = α − rᵀg = dw_i:  [G u; rᵀ α]⁻¹ = [G⁻¹ + g h/s, −g/s; −h/s, 1/s].
      const int i = leave;
      r_times_ginv(i);                           // s_.h_ = A[i,Z'] G⁻¹ = −rᵀG⁻¹
      auto Gi = s_.Ginv_.topLeftCorner(k, k);
      s_.u_.head(k) = s_.dz_.head(k) / s;
      Gi.noalias() -= s_.u_.head(k) * s_.h_.head(k).transpose();
      s_.Ginv_.row(k).head(k) = s_.h_.head(k).transpose() / s;
      s_.Ginv_.col(k).head(k) = -s_.u_.head(k);
      s_.Ginv_(k, k) = 1.0 / s;
      s_.rows_[k] = i; s_.rpos_[i] = k;
      s_.cols_[k] = entering.j; s_.cpos_[entering.j] = k;
      s_.xz_[k] = theta;
      k_ = k + 1;
    } else if (entering.is_z && leave_z) {
      // z_l leaves, z_j enters: column replacement, the simplex eta update on row p.
      const int p = leave;
      auto Gi = s_.Ginv_.topLeftCorner(k, k);
      Gi.row(p) /= s;
      s_.h_.head(k) = Gi.row(p).transpose();
      s_.u_.head(k) = s_.dz_.head(k);
      s_.u_[p] = 0;
      Gi.noalias() -= s_.u_.head(k) * s_.h_.head(k).transpose();
      s_.cpos_[s_.cols_[p]] = -1;
      s_.cols_[p] = entering.j; s_.cpos_[entering.j] = p;
      s_.xz_[p] = theta;
    } else if (!entering.is_z && !leave_z) {
      // w_i leaves, w_j enters: row q of G (row j) is replaced by r = −A[i,Z']. Sherman–Morrison,
      // with G⁻¹e_q = dz and rᵀ G⁻¹ e_q = −dw_i:  G⁻¹ ← G⁻¹ + dz (rᵀG⁻¹ − e_qᵀ)/dw_i.
      const int i = leave, q_pos = s_.rpos_[entering.j];
      r_times_ginv(i);
      s_.h_.head(k) = -s_.h_.head(k) / s;              // rᵀG⁻¹ / dw_i
      s_.h_[q_pos] -= 1.0 / s;
      s_.Ginv_.topLeftCorner(k, k).noalias() += s_.dz_.head(k) * s_.h_.head(k).transpose();
      s_.rpos_[entering.j] = -1;
      s_.rows_[q_pos] = i; s_.rpos_[i] = q_pos;
      s_.xw_[entering.j] = theta;
    } else {
      // z_l leaves (column p), w_j enters (row position q): delete them. With H = G⁻¹,
      // (G without row q, column p)⁻¹ = H₋ₚ,₋q − H₋ₚ,q H_p,₋q / H_pq,  H_pq = dz_p.
      const int p = leave, q_pos = s_.rpos_[entering.j];
      auto Gi = s_.Ginv_.topLeftCorner(k, k);
      s_.h_.head(k) = Gi.row(p).transpose() / s;
      Gi.noalias() -= s_.dz_.head(k) * s_.h_.head(k).transpose();       // dz = G⁻¹ e_q = H(:, q)
      s_.cpos_[s_.cols_[p]] = -1;
      s_.rpos_[entering.j] = -1;
      s_.xw_[entering.j] = theta;
      const int last = k - 1;
      if (q_pos != last) {
        s_.Ginv_.col(q_pos).head(k) = s_.Ginv_.col(last).head(k);
        s_.rows_[q_pos] = s_.rows_[last]; s_.rpos_[s_.rows_[q_pos]] = q_pos;
      }
      if (p != last) {
        s_.Ginv_.row(p).head(k) = s_.Ginv_.row(last).head(k);
        s_.cols_[p] = s_.cols_[last]; s_.cpos_[s_.cols_[p]] = p;
        s_.xz_[p] = s_.xz_[last];
      }
      k_ = last;
    }
    ++pivots;
    if (!std::isfinite(s) || !std::isfinite(1.0 / s)) { status = LemkeStatus::NumericalFailure; break; }

    if (leave_z && leaving_index == n) {
      z0_left = true;                            // (L5): a complementary basis, a solution
    } else {
      entering = Entering{!leave_z, leaving_index};   // (L4)
      if (pivots % kCheckPeriod == 0 && basis_residual() > kDriftTolerance * (1 + s_.xz_.head(k_).cwiseAbs().maxCoeff())) {
        if (!refactor()) { status = LemkeStatus::NumericalFailure; break; }
        fresh = true;
      }
    }
  }

  if (status != LemkeStatus::NumericalFailure) {
    refine();
    refine();
  }
  extract(z, z_scale);
  if (!z.allFinite()) {
    z.setZero();
    status = LemkeStatus::NumericalFailure;
  }
  out.pivots = pivots;
  out.residual = residual_into(A, q, z, s_.w_, epsilon);
  // The certificate decides, not the way the pivoting ended: a run that stops on a ray (or the cap)
  // with z₀ ≈ 0 — rank-deficient data that are PSD only up to roundoff do that — may already hold
  // a z that meets (L6); and a run that ends with z₀ leaving may miss it.
  if (out.residual <= options_.tolerance) status = LemkeStatus::Solved;
  else if (status == LemkeStatus::Solved) status = LemkeStatus::CertificateFailed;
  out.status = status;
  return out;
}

LemkeResult LemkeSolver::solve(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                               Eigen::VectorXd& z) {
  z.resize(q.size());
  return solve(A, q, Eigen::Ref<Eigen::VectorXd>(z));
}

LemkeResult LemkeSolver::solve(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                               Eigen::Ref<Eigen::VectorXd> z) {
  use_size(static_cast<int>(q.size()));
  LemkeResult result;
  const int budget = options_.pivot_budget;
  budget_left_ = budget;
  const LemkeAttempt plain = solve_once(A, q, 0.0, z);
  budget_left_ = 0;
  result.attempts = 1;
  result.pivots = plain.pivots;
  result.plain_status = plain.status;
  result.status = plain.status;
  result.residual = plain.residual;               // ρ(z) of the plain attempt is that of the original A
  if (plain.status == LemkeStatus::Solved) return result;
  result.budget_spent = budget > 0 && result.pivots >= budget;

  // (L7): keep the best iterate on the original problem, starting from z = 0.
  s_.best_z_.setZero();
  double best_residual = residual_into(A, q, s_.best_z_, s_.w_, 0);
  double best_epsilon = 0, best_relative = 0;
  if (result.residual < best_residual) { s_.best_z_ = z; best_residual = result.residual; }

  if (A.allFinite() && q.allFinite() && options_.regularization_max > 0 && !result.budget_spent) {
    double delta = A.diagonal().cwiseAbs().maxCoeff();
    if (!(delta > 0)) delta = A.cwiseAbs().maxCoeff();
    if (!(delta > 0)) delta = 1;
    const double growth = std::max(options_.regularization_growth, 1.0 + 1e-3);
    for (double rel = std::max(options_.regularization_min, 1e-300);
         rel <= options_.regularization_max * (1 + 1e-9); rel *= growth) {
      const double epsilon = rel * delta;
      if (budget > 0) {
        budget_left_ = budget - result.pivots;
        if (budget_left_ <= 0) {
          budget_left_ = 0;
          result.budget_spent = true;
          break;
        }
      }
      const LemkeAttempt attempt = solve_once(A, q, epsilon, z);
      budget_left_ = 0;
      ++result.attempts;
      result.pivots += attempt.pivots;
      const double residual = residual_into(A, q, z, s_.w_, 0);
      if (attempt.status == LemkeStatus::Solved && residual <= options_.tolerance) {
        result.status = LemkeStatus::Solved;
        result.regularization = epsilon;
        result.relative_regularization = rel;
        result.residual = residual;
        return result;
      }
      if (residual < best_residual) {
        s_.best_z_ = z;
        best_residual = residual;
        best_epsilon = epsilon;
        best_relative = rel;
      }
      // The regularised problem is solved but the original certificate fails: its error is ∝ ε,
      // so a larger ε only moves further away (typically inconsistent constraints).
      if (attempt.status == LemkeStatus::Solved) break;
    }
  }
  if (budget > 0 && result.pivots >= budget) result.budget_spent = true;
  z = s_.best_z_;
  result.residual = best_residual;
  result.regularization = best_epsilon;
  result.relative_regularization = best_relative;
  return result;
}

}  // namespace impetus
