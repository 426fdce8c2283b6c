// Modified principal pivoting (seed 000 Algorithm 1, "PPM I") for the normal LCP of the no-slip and
// viscous models, on the incremental factor of delassus_factor.hpp: the n×n LCP matrix is never
// formed, only the Delassus matrix of the rows held (at most nv×nv, Lemma 1).
//
// Problem. With the equality rows G (already in the factor, positions [0, k_G)), the unilateral rows
// U = [N; L] and offsets b (unilateral_rows.hpp), metric W and free velocity v_f:
//     W v⁺ = W v_f + Gᵀλ_G + Uᵀz,   G v⁺ = 0,   0 ≤ z ⊥ w = U v⁺ + b ≥ 0                         (PP1)
// i.e. LCP(e, F) with F = U P Uᵀ, e = U P W v_f + b, P the top-left block of the inverse KKT
// matrix (notes §2.8, which correct the paper's (57): e carries W v_f, so Δt·f, and the gap b).
//
// Active set 𝒜 (the paper's B, "non-basic": z free, w = 0); the inactive rows have z = 0. For a given
// 𝒜 the rows C = [G; U_𝒜] are held in the factor and (D2) gives λ = [λ_G; z_𝒜] and v⁺ — Algorithm 1
// lines 10–13 in Schur form; line 14 is w = U v⁺ + b over all n rows, O(nnz(U)).
//
// Iteration (Algorithm 1 lines 15–39, with neutral names; notes §3.1):
//     i = argmin_{u ∉ 𝒜} w_u,   j = argmin_{p ∈ 𝒜} z_p                                          (PP2)
//     w_i ≥ −τ_w and z_j ≥ −τ_z: solved.  Otherwise drop j if z_j < −τ_z and add i if w_i < −τ_w
//     (the paper adds then drops by the old index; dropping first gives the same set, notes P8).
// Tolerances (notes P6; the paper gives none): τ_w = τ₀·s_v with s_v the largest velocity of the
// problem (|U v_f|, |b|, |G v_f|), τ_z = τ₀·max_p |z_p|; argmin over the inactive rows only, first
// index on ties (deterministic, unlike the authors' random tie-breaking).
//
// Modifications, each because the paper's listing fails without it:
//   (a) Warm start: 𝒜₀ = {u : guess_u > 0}, the previous step's positive impulses of the same
//       contacts (their independent subset). Cold start is the paper's line 3–8.
//   (b) A dependent entering row (sin²θ ≤ τ_dep: Theorem 1's caveat, dependent rows with
//       inconsistent gaps, or 𝒜 already of rank nv) cannot be added to a Cholesky factor. It is
//       exchanged as in Goldfarb–Idnani's dual method: c_i = ρᵀC, and raising z_i by t moves
//       λ by −tρ without changing v⁺, so the first active z_p (ρ_p > 0) to reach zero,
//       p = argmin z_p/ρ_p, leaves and i enters. With no ρ_p > 0 the constraint set of
//       (PP1) is empty (Farkas, all z ≥ 0): the row is marked infeasible and skipped.
//   (c) Termination: PPM I is proved only for P-matrices; F is P0 and cycles (notes §6.4, P7). The
//       active set is hashed (Zobrist) each iteration; a repeated set is a cycle, since the
//       rule is deterministic. Pivots are also capped. Either ends with a status for the caller's
//       fallback (unilateral_projection.hpp).
//
// Cost per iteration: O(k² + nv·k) for (D2), O(nnz(U)) for w, O(nv²) per pivot (D3/D4). The
// number of positive z never exceeds rank(U_𝒜) ≤ nv − rank(G) (Lemma 1), by construction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "contact/solvers/delassus_factor.hpp"
#include "contact/solvers/unilateral_rows.hpp"

namespace impetus {

struct PivotingOptions {
  /// Pivot cap. 0: automatic, 20 + 4·nv + 2·n (a pivot adds or drops one row; a solve needs about
  /// 2·rank pivots from cold, a handful when warm; cycles are caught by hashing, so the cap only
  /// bounds slow progress). Range ≥ 0.
  int max_pivots = 0;
  /// τ₀ of (PP2), relative to the problem's velocity (w) and impulse (z) scales. Default 1e-10:
  /// 10⁶ roundoffs above the error of w = U v⁺ + b for a Delassus condition number up to ~10⁴,
  /// and far below the 1e-9 m/s the tests ask of N·v⁺ + φ/dt. Nominal range 1e-14 … 1e-6.
  double zero_tolerance = 1e-10;
  /// τ_dep of (D3): a row is dependent when sin²θ ≤ τ_dep (θ: its angle to the rows held, in the
  /// W⁻¹ inner product). Default 1e-12 (θ ≤ 1e-6 rad): exactly dependent rows (duplicates, coplanar
  /// contacts) come out at sin²θ ~ 1e-16·cond(D), and a kept row with θ ≥ 1e-6 keeps cond(D) below
  /// ~1e12. A dropped row is then violated by at most sinθ·‖c‖_{W⁻¹}·‖v⁺‖_W. Range (0, 1).
  double dependence_tolerance = 1e-12;
};

enum class PivotingStatus {
  Solved,             // (PP2) met: w ≥ −τ_w, z ≥ −τ_z, w_𝒜 = 0
  Infeasible,         // (b) found rows whose constraint cannot be met; solved without them
  Cycling,            // an active set recurred (c)
  PivotLimit,         // the cap of (c)
  NumericalFailure,   // non-finite values, or an exchange (b) that left the row dependent
};
const char* to_string(PivotingStatus status);

struct PivotingReport {
  PivotingStatus status = PivotingStatus::Solved;
  int pivots = 0;             // rows added or dropped, warm-start rows not counted
  int iterations = 0;         // solves of (D2)
  int warm_rows = 0;          // rows of the warm start accepted into 𝒜₀
  int active = 0;             // |𝒜| at the end
  int infeasible = 0;         // rows marked infeasible (b)
  double velocity_scale = 0;  // s_v (m/s)
};

class PrincipalPivoting {
 public:
  /// Solves (PP1). `factor` holds G on entry (k_G = factor.size()) and G plus U_𝒜 on return, its
  /// last solve being the result's. `guess` (n, or null): warm start (a). Writes z (n), w = U v⁺ + b
  /// (n) and v⁺ (nv); λ_G is factor.lambda().head(k_G). Never throws.
  PivotingReport solve(DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
                       const Eigen::VectorXd* guess, const PivotingOptions& options, Eigen::VectorXd& z,
                       Eigen::VectorXd& w, Eigen::VectorXd& v_plus);
  /// The same with z and w of size n already (views of grow-only storage: contact/solvers/grow_only.hpp)
  /// and the guess empty when there is none.
  PivotingReport solve(DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
                       const Eigen::Ref<const Eigen::VectorXd>& guess, const PivotingOptions& options,
                       Eigen::Ref<Eigen::VectorXd> z, Eigen::Ref<Eigen::VectorXd> w, Eigen::VectorXd& v_plus);

 private:
  void mark(int u, int position);
  void drop(DelassusFactor& factor, int position);
  bool visited(std::uint64_t hash) const;

  int k_G_ = 0;
  std::vector<int> position_of_;   // (n) position of U_u in the factor, −1: inactive
  std::vector<int> row_at_;        // (nv) u of each factor position ≥ k_G
  std::vector<char> infeasible_;   // (n)
  std::vector<std::uint64_t> seen_;
  std::uint64_t hash_ = 0;
};

/// The largest velocity of (PP1), s_v = max(‖U v_f‖∞, ‖b‖∞, max_p |t_p − c_p v_f| over the factor's
/// rows): the scale of w. Never below the smallest normal double.
double projection_velocity_scale(const DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f);

}  // namespace impetus
