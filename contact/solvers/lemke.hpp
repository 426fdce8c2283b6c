// Lemke's complementary pivoting method for the linear complementarity problem, with a lexicographic
// (anti-cycling) ratio test, a complementarity certificate, and Tikhonov retries.
//
//   LCP(q, A):  find z ∈ ℝⁿ  with  w = A z + q,   z ≥ 0,   w ≥ 0,   zᵀw = 0.                  (L1)
//
// A need not be symmetric. In contact/ it is the Stewart–Trinkle matrix (stewart_trinkle.hpp, ST6):
// copositive, with a singular PSD block and a zero diagonal in the λ rows.
//
// Glossary
//   symbol  size   meaning                                          code
//   ------  -----  -----------------------------------------------  ---------------------------
//   A, q    n×n, n the LCP data                                     A, q
//   z, w    n      unknowns and slacks, w = A z + q                 z, (w)
//   z₀      1      artificial variable of Lemke's method            column index n in cols_
//   e       n      covering vector, e = 1                           (implicit)
//   B       n×n    basis: the columns of [I  −A  −e] of the n       rows_/cols_ + Ginv_
//                  basic variables
//   R       —      rows whose w is non-basic (k of them)            rows_
//   Z'      —      basic z's and z₀ (also k of them)                cols_
//   G       k×k    G = −A[R, Z'] (the z₀ column is −1)              Ginv_ holds G⁻¹
//   ρ(z)    1      certificate residual (L6), dimensionless         lcp_residual()
//   ε       1      Tikhonov regularisation: LCP(q, A + εI)          LemkeResult::regularization
//
// Method (Lemke 1965; Cottle, Pang & Stone, "The Linear Complementarity Problem", 1992, §4.4–4.5)
//   Augment (L1) with z₀ and e:
//       w − A z − e z₀ = q,   w, z, z₀ ≥ 0,   zᵀw = 0.                                         (L2)
//   If q ≥ 0, z = 0 solves (L1). Otherwise start from the basis {w}, bring z₀ in and let the w with
//   the lexicographically smallest (q_i, e_iᵀ) leave:                                         (L3)
//       z₀ = −min_i q_i,  w = q + e z₀ ≥ 0.
//   Then repeat: the complement of the variable that just left enters (L4); it increases by
//       θ = min { x_i / d_i : d_i > 0 },   d = B⁻¹ (entering column),   x = B⁻¹ q              (L5)
//   and the minimiser leaves. Ties are broken lexicographically on the rows of [x  B⁻¹]/d_i,
//   which is Lemke's method on the perturbed q + (ε, ε², …, εⁿ): no basis repeats, so no cycling
//   (CPS §4.4 with its lexicographic degeneracy resolution). For numerical safety only tied
//   candidates whose pivot is within a factor 10 of the largest tied pivot compete; since that
//   voids the guarantee, a run of more than n degenerate (θ = 0) pivots switches to the pure
//   lexicographic rule for the rest of the run. z₀ leaving ends with a solution; an
//   entering column with no positive entry ends on a secondary ray: for copositive-plus A, (L1) is
//   then infeasible (CPS §4.4); for a merely copositive A, Lemke may also stop there.
//
//   Certificate (checked on the result, never trusted from the pivoting; a run that stops on a ray
//   or the pivot cap with z₀ ≈ 0 is Solved when its z meets it, one that ends with z₀ leaving is
//   not when its z misses it):
//       ρ(z) = maxᵢ max( −zᵢ/z_ref,  −wᵢ/w_ref,  |zᵢ wᵢ|/(z_ref w_ref) ),                     (L6)
//       z_ref = ‖z‖∞,  w_ref = ‖q‖∞  (‖A z‖∞ if q = 0; 1 where these vanish).
//   ρ is invariant under scaling A, q and z. w is measured against the data q, not against the
//   terms of A z: a violation of the size of q is a failure however large z grows — which is what
//   a regularised infeasible problem produces (z ~ 1/ε with w = O(q)), and what must not pass.
//
//   Tikhonov retries (solve()): when the plain attempt fails (ray, pivot cap, numerics or
//   certificate), solve LCP(q, A + εI) for ε = ε_k·δ, δ = maxᵢ|A_ii| (or max|A_ij| when the
//   diagonal is zero), ε_k = regularization_min · growthᵏ ≤ regularization_max, and accept the
//   first z whose certificate (L6) holds for the *original* A. A + εI makes the PSD part of A
//   definite and moves each pivot away from zero; the price is w_orig = w_ε − εz, i.e. ρ ≈ ε_k,
//   which is why the schedule stays below the tolerance. When every attempt fails, the iterate
//   with the smallest ρ on the original problem (z = 0 included) is returned.                  (L7)
//
// Pivot candidates: an entry d_i counts as positive in (L5) only when it clears both the
//   magnitudes of the terms it is summed from (an exact zero, e.g. from a duplicated row of A,
//   comes out as roundoff of those) and a first-order bound of the error G⁻¹ carries,
//   ε|G⁻¹||G||G⁻¹|, which grows with the conditioning of the basis.
//   That test cannot tell an exact zero from a true entry that nearly dependent rows make small
//   against large, cancelling terms (a 5 g finger resting on its joint limit while touching the
//   ground: its limit row and its contacts' rows are nearly parallel in the metric W). Such an entry,
//   passed over, is driven negative by the step and clamped to zero, and the basic values no longer
//   solve B x = q: Lemke then ends far from a solution. So, with θ_c the ratio over the entries
//   that clear the test, an entry that fails it but would be left below −δ blocks all the same:
//       d_i > floor  and  x_i − θ_c d_i < −δ,   δ = 1e-2 · tolerance (scaled problem),          (L10)
//   and θ is the smallest ratio over both kinds. A pivot on such an entry is small against its terms,
//   so G⁻¹ is rebuilt and the choice made again on an accurate d first (below).
//
// Basis handling: the basis is never stored as an n×n inverse. With R and Z' as above,
//       B x = b  ⇔  x_Z' = G⁻¹ b_R,   x_W = b_W + A[W, Z'] x_Z'     (W: the basic w's)         (L8)
//   so only G⁻¹ (k×k, k the number of basic z's plus z₀) is kept, updated in O(k²) per pivot by
//   bordering (a w leaves, a z enters), deletion (a z leaves, a w enters), or a row / column
//   replacement (Sherman–Morrison). The problem is first scaled to max|A_ij| = max|q_i| = 1.
//   Every `check_period` pivots the basis residual ‖B x − q‖∞ is measured; above 1e-10 G⁻¹ is
//   recomputed from scratch (Gauss–Jordan, partial pivoting) and x from it, as it is before any
//   pivot element below 1e-3 of its own terms and before declaring a ray. At the end two steps of
//   iterative refinement polish x. A pivot costs O(n·k + k²) flops — O(nnz + k²) when A is
//   mostly zeros, as for islands of many bodies, where A is also kept column-compressed.
//
// Equilibration (L9): when the positive diagonal of A spans more than three decades (a light link's
//   joint limit next to a heavy body's contacts), the pivoting works on the equivalent
//       LCP(S q, S A S),  z = S y,  S = diag(s) > 0,                                          (L9)
//   (y ≥ 0 ⇔ z ≥ 0, S A S y + S q = S w), with s_i = 1/√A_ii, or for a zero diagonal the scale that
//   brings its row and column to O(1). The tolerances of the pivoting, relative to max|A_ij|, then mean
//   the same for every block; the certificate (L6) is still checked on the original A, q, z. In the
//   scaled problem the covering vector e = 1 stands for S⁻¹1 in the original: another valid, positive
//   covering vector (CPS §4.4), so the path (not the guarantee) differs from the unscaled one.
//
// No allocation once warm: every buffer is a member, grow-only (Sized): a solve of any n up to the largest met
// allocates nothing.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

enum class LemkeStatus {
  Solved,              // z meets the certificate (L6), however the pivoting ended
  RayTermination,      // the entering column had no positive entry (L5), and z misses (L6)
  PivotLimit,          // LemkeOptions::max_pivots reached, and z misses (L6)
  NumericalFailure,    // non-finite data or values, or a singular basis at refactorisation
  CertificateFailed,   // z₀ left the basis but z misses the certificate (ill-conditioning)
};
const char* to_string(LemkeStatus status);

struct LemkeOptions {
  /// Pivot cap per attempt. 0: automatic, 20·n + 100 (Lemke typically needs O(n) pivots).
  /// Range ≥ 0.
  int max_pivots = 0;
  /// Accept z when ρ(z) ≤ tolerance (L6). Dimensionless. Default 1e-6: far below anything that shows
  /// in a trajectory (for contact it is a velocity error of 1e-6 of the velocities in the problem),
  /// and above the ρ ≈ 1e-7 of the largest default regularisation. Nominal range 1e-12 … 1e-3.
  double tolerance = 1e-6;
  /// Tikhonov schedule (L7), relative to the diagonal scale δ: ε_k = min · growthᵏ ≤ max.
  /// Defaults 1e-10 … 1e-7, ×10 (four retries). Set regularization_max = 0 to disable retries.
  /// Ranges: 0 ≤ min ≤ max < tolerance (larger ε cannot meet the certificate), growth > 1.
  double regularization_min = 1e-10;
  double regularization_max = 1e-7;
  double regularization_growth = 10;
  /// Work budget of one solve(): pivots summed over the plain attempt and the retries (L7). Each attempt
  /// stops at the smaller of its cap and what is left; no retry starts once it is spent, and the result
  /// says so (LemkeResult::budget_spent). 0: no budget (each attempt only its own cap). Range ≥ 0.
  int pivot_budget = 0;
};

/// One attempt on LCP(q, A + εI).
struct LemkeAttempt {
  LemkeStatus status = LemkeStatus::Solved;
  int pivots = 0;
  double residual = 0;   // ρ(z) against LCP(q, A + εI)
};

/// Outcome of LemkeSolver::solve (L7).
struct LemkeResult {
  LemkeStatus status = LemkeStatus::Solved;        // Solved: ρ(z) ≤ tolerance for the original A
  LemkeStatus plain_status = LemkeStatus::Solved;  // outcome of the unregularised attempt
  int pivots = 0;              // summed over attempts
  int attempts = 0;            // 1 + the regularised retries made
  double regularization = 0;   // ε (units of A) of the attempt that produced z; 0: plain
  double relative_regularization = 0;   // the same ε / δ (L7), dimensionless
  double residual = 0;         // ρ(z) (L6) against the original problem
  bool budget_spent = false;   // LemkeOptions::pivot_budget ran out before an attempt met the certificate
  bool solved() const { return status == LemkeStatus::Solved; }
};

/// ρ(z) of (L6) from w = A z + q already formed; az_norm = ‖A z‖∞ (the reference when q = 0).
double lcp_certificate(const Eigen::VectorXd& q, const Eigen::VectorXd& z, const Eigen::VectorXd& w, double az_norm);

/// ρ(z) of (L6) for LCP(q, A + εI); writes w = (A + εI) z + q. Non-finite z gives +∞.
double lcp_residual(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::VectorXd& w, double epsilon = 0);

class LemkeSolver {
 public:
  explicit LemkeSolver(LemkeOptions options = {}) : options_(options) {}

  /// Solves (L1) with the Tikhonov retries of (L7). z (n) is always finite. Never throws. A and q may be
  /// views (grow_only.hpp).
  LemkeResult solve(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                    Eigen::VectorXd& z);
  /// The same into a z of size n already, which may be a view too: a caller whose problem size changes
  /// then keeps no plain object per size.
  LemkeResult solve(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                    Eigen::Ref<Eigen::VectorXd> z);

  /// One run of Lemke's method on LCP(q, A + εI), ε ≥ 0; the certificate is that of this problem.
  /// z (n) is the final iterate (on failure: the almost-complementary point where it stopped).
  LemkeAttempt solve_once(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                          double epsilon, Eigen::VectorXd& z);
  /// The same into a z of size n already.
  LemkeAttempt solve_once(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& q,
                          double epsilon, Eigen::Ref<Eigen::VectorXd> z);

  const LemkeOptions& options() const { return options_; }
  LemkeOptions& options() { return options_; }

 private:
  struct Entering {
    bool is_z;   // z_j (true) or w_j (false)
    int j;
  };

  void reserve(int n);
  double a_entry(int i, int c) const { return c == n_ ? 1.0 : s_.As_(i, c); }   // A with e as column n
  void basis_columns_times(const VectorView& x, bool magnitudes);
  void basis_rows_magnitudes(const VectorView& x);
  void direction(Entering v);
  struct LexCandidate {
    bool is_z;    // z at column position `index`, or w_index
    int index;
    double d;     // its entry of d (> 0)
  };
  void lex_prepare(const LexCandidate& x, VectorView& u) const;
  double lex_entry(const LexCandidate& x, const VectorView& u, int j) const;
  bool lex_less(const LexCandidate& x, const VectorView& ux, const LexCandidate& y, const VectorView& uy) const;
  void r_times_ginv(int i);
  bool refactor();
  void recompute_values();
  double basis_residual();
  void refine();
  void extract(Eigen::Ref<Eigen::VectorXd> z, double scale) const;
  void equilibrate();

  LemkeOptions options_;
  int budget_left_ = 0;         // pivots of the budget left to this attempt in solve(); 0: no budget

  int n_ = 0;
  bool sparse_ = false;         // A_s also held column-compressed below (mostly zeros)
  int k_ = 0;                   // |R| = |Z'|

  // Buffers sized by n, grow-only (contact/solvers/grow_only.hpp): each Eigen buffer is a view of n (or n×n)
  // entries of storage at the largest n met, and the std::vectors keep their capacity. An island whose contacts
  // come and go (a trot's feet) meets many sizes in turn, and a size first met once warm allocated a set of
  // buffers of its own (issue 16); a view's arithmetic is that of a plain object of its size, and a solve never
  // reads what its buffers held before, so the bits are those of fresh buffers. solve() and solve_once() point
  // the views at this object's storage first (use_size), so a copied solver never reads through another's.
  struct Sized {
    int n = -1;
    // --- the scaled problem A_s = (A + εI)/α, q_s = q/β ---
    MatrixView As_{nullptr, 0, 0};   // (n×n)
    VectorView qs_{nullptr, 0};      // (n)
    VectorView eq_{nullptr, 0};      // (n) S of (L9), powers of two; ones when not equilibrated
    std::vector<int> col_start_, row_index_;   // (n+1), (nnz)
    std::vector<double> value_;                // (nnz)

    // --- basis (L8) ---
    std::vector<int> rows_;       // (k) row index of each row position of G
    std::vector<int> cols_;       // (k) z index of each column position of G; n is z₀
    std::vector<int> rpos_;       // (n) position of row i in rows_, −1 when w_i is basic
    std::vector<int> cpos_;       // (n+1) position of z_j in cols_, −1 when non-basic
    MatrixView Ginv_{nullptr, 0, 0};   // (n×n capacity) G⁻¹ in the top-left k×k; rows ↔ cols_, cols ↔ rows_
    VectorView xw_{nullptr, 0};   // (n) values of the basic w's
    VectorView xz_{nullptr, 0};   // (n) values of the basic z's, by column position

    // --- scratch ---
    VectorView dz_{nullptr, 0}, dw_{nullptr, 0};               // (n) d = B⁻¹·(entering column), split as in (L8)
    VectorView dz_scale_{nullptr, 0}, dw_scale_{nullptr, 0};   // (n) Σ|terms| of each entry of d
    VectorView t_{nullptr, 0}, u_{nullptr, 0}, h_{nullptr, 0};   // (n)
    VectorView lex_best_{nullptr, 0}, lex_cand_{nullptr, 0};     // (n) A[i, Z'] of the w candidates being compared
    std::vector<int> sorted_rows_;          // (n) R in increasing order, for the lexicographic walk
    std::vector<LexCandidate> ties_;        // (≤ n+1) the tied candidates of (L5)
    MatrixView Gbuf_{nullptr, 0, 0};        // (n×n) refactorisation
    VectorView gj_col_{nullptr, 0}, gj_row_{nullptr, 0};
    std::vector<int> perm_;
    VectorView w_{nullptr, 0}, best_z_{nullptr, 0};   // (n) driver

    // The storage of the views above, in their order.
    Eigen::VectorXd As_storage_, qs_storage_, eq_storage_, Ginv_storage_, xw_storage_, xz_storage_, dz_storage_,
        dw_storage_, dz_scale_storage_, dw_scale_storage_, t_storage_, u_storage_, h_storage_, lex_best_storage_,
        lex_cand_storage_, Gbuf_storage_, gj_col_storage_, gj_row_storage_, w_storage_, best_z_storage_;
  };
  /// Points every buffer at n (or n×n) entries, growing the storage past the largest n met.
  void use_size(int n);
  Sized s_;
};

}  // namespace impetus
