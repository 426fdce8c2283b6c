// The no-slip contact model of seed 000 (Drumwright, "Rapidly computable viscous friction and no-slip
// rigid contact models", arXiv:1504.00719, §VI), velocity level, solved in O(m³ + m²n).
//
// Model (seed 000 (23)–(25), (45)–(46), with the errata of notes §8 corrected and the gap term of
// DESIGN.md added). For one island, impulses over the step:
//     M v⁺ = M v* + Nᵀ p_N + Sᵀ p_S + Tᵀ p_T + Lᵀ p_L                                          (NS1)
//     S v⁺ = 0,  T v⁺ = 0                    at every contact (infinite friction)               (NS2)
//     0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0,   0 ≤ p_L ⊥ L v⁺ + φ_L/dt ≥ 0                                   (NS3)
// v* = v⁻ + dt M⁻¹(τ − h) already carries the applied forces: this is the paper's (54) with the
// missing Δt·f(t) (erratum E6). μ is not used: friction is unbounded. Joint-limit rows L are
// unilateral and frictionless, like N. (NS1)–(NS3) is the KKT system of the strictly convex QP
//     v⁺ = argmin ½ (v − v*)ᵀ M (v − v*)  s.t.  [S; T] v = 0,  N v ≥ −φ/dt,  L v ≥ −φ_L/dt      (NS4)
// (notes §2.8), so v⁺ is unique even where the impulses are not, and with no applied force and
// φ = 0, ½v⁻ᵀMv⁻ − ½v⁺ᵀMv⁺ = ½(v⁻ − v⁺)ᵀM(v⁻ − v⁺) ≥ 0 (M-orthogonal projection onto a cone).
//
// Solution (each step, per island):
//   1. G ← FIND-INDICES(M, S, T) (Algorithm 2; contact/solvers/find_indices.hpp): the independent
//      no-slip rows, by bordered Cholesky of D = G M⁻¹ Gᵀ. Dropped rows hold automatically.
//   2. The normal LCP (paper (56)–(57) read as notes §2.8: F = N P Nᵀ, e = N P M v* + φ/dt) by the
//      modified principal pivoting method (Algorithm 1; contact/solvers/principal_pivoting.hpp) on
//      the same factor, warm-started from the previous step's positive impulses (p_N_guess,
//      p_L_guess), never forming F; Lemke with regularisation on the dense F as the fallback
//      (contact/solvers/unilateral_projection.hpp), counted as status Fallback.
//   3. v⁺ = v* + M⁻¹(Gᵀλ_G + Nᵀp_N + Lᵀp_L); p_S, p_T are the λ_G of the kept rows, 0 on dropped
//      rows (the split of friction among dependent rows is not determined by the model).
//   3a. (NS6) A dropped row c holds only through its dependence: with C the rows kept (C v⁺ = 0) and
//      c = ρᵀC + c_⊥, c_⊥ W⁻¹Cᵀ = 0, ‖c_⊥‖_{W⁻¹} = sinθ‖c‖_{W⁻¹} (D3), Cauchy–Schwarz in the W pairing gives
//          |c v⁺| = |c_⊥ v⁺| ≤ sinθ ‖c‖_{W⁻¹} ‖v⁺‖_W ≤ √τ_G ‖c‖_{W⁻¹} ‖v⁺‖_W.
//      No τ_G chosen beforehand meets the certificate: that needs sin²θ ≤ (tol·s_v / (‖c‖‖v⁺‖))², ~1e-23 on
//      arm7_grasp (tol 1e-9, s_v 0.02 m/s, ‖c‖ 3, ‖v⁺‖ 5), below the roundoff of sin²θ itself. So after the
//      solve, the dropped rows with |c v⁺| > tol·s_v join G (when sin²θ > 1e-14, above that roundoff) and
//      v⁺ is corrected with the active set kept (it moves by |c v⁺|/‖c_⊥‖ along W⁻¹c_⊥ᵀ), kept when (UP2)
//      still holds, else pivoting runs again from that set; twice at most. Measured (test_sim, every
//      slipping row): the slip is all c_⊥ v⁺ (ρᵀC v⁺ ~ 1e-17), ‖ρ‖ ≈ 1, sin²θ from 2e-15 to 1.2e-10.
//   3b. (NS7) A dropped row still slipping beyond the certificate after (NS6) — one it could not hold, whose
//      sin²θ ≤ 1e-14 is the roundoff of δ itself — is certified by its backward error instead. v⁺ meets
//      exactly the row c + Δc with ‖Δc‖_{W⁻¹} = |c v⁺|/‖v⁺‖_W (the W pairing's dual norms), so
//          e_W = |c v⁺| / (‖c‖_{W⁻¹} ‖v⁺‖_W) ≤ sinθ
//      is the relative change of the row's data under which v⁺ is (NS4)'s exact answer (λ = 0 on that row:
//      the rest of the KKT system is untouched). Accepted when e_W ≤ 1e-7 = √1e-14, the resolution in sinθ of
//      the test that found the row dependent: below it the data do not say that the row is independent.
//      Holding it all the same (as h = c − ρᵀC, tried) moves v⁺ by |c v⁺|/‖c_⊥‖_{W⁻¹} along W⁻¹c_⊥ᵀ, metres
//      per second for a 1e-10 m/s slip at sinθ ~ 1e-11, and on arm7_grasp's four-fingertip squeeze it made
//      the active normal rows' targets −φ/dt infeasible (multipliers 3e5). Measured there (3 s replays,
//      box_noslip): slips 1e-10 to 1e-9 m/s at e_W 4e-11 to 1.2e-9, on 149 steps under id_lcp_coulomb, which
//      were Failed before (NS7), with v⁺ unchanged. Such a result is still retried (NS5), the retry kept
//      only when it meets the certificate on every row.
//      The status is Solved (or Fallback) only when every sticking row meets the certificate, dropped
//      ones included, or (NS7) for a dropped one; otherwise Failed, with the slip in the message. The
//      report keeps the largest slip of any row (equality_residual) and the largest e_W accepted.
//   4. (NS5) When the result is not Solved (pivoting missed its certificate and Lemke ran), steps 1–3
//      once more with FIND-INDICES at τ_G = kNoSlipRetryDependence: a row kept just above τ_G can
//      leave G so ill-conditioned that v⁺ is wrong with G v⁺ = 0 to roundoff. The retry is kept only
//      when Solved with the certificate met on every no-slip row, dropped ones included.
//   0. One contact and no joint limit: first in closed form on the 3×3 Delassus matrix (single_contact.hpp,
//      SC1–SC3), before FIND-INDICES; kept when it meets the certificate of step 3a–3b (Solved, no pivot, the
//      report's rank 2 and one active row or none), otherwise steps 1–4 unchanged.
//   0'. Otherwise, when v* itself violates no row — every unilateral row separating (N v* + φ/dt ≥ 0, L v* +
//      φ_L/dt ≥ 0, as computed) and |S v*|, |T v*| ≤ tol·s_v on every sticking contact (contact/free_motion.hpp
//      FM1–FM2) — v⁺ = v*, p = 0 meets (NS3) exactly and (NS2) within the certificate, as step 3's answers do:
//      Solved, no row tried by FIND-INDICES, no pivot, the report's projection.free_motion set. A pile in free fall,
//      whose bodies move together, is such an island of thousands of contacts.
// Errata used: E3/E6 (sign and Δt·f of (39)/(54)), E4/E7 ((56)–(57) mean the top-left block of the
// inverse KKT matrix), E11 (line 28: w ← w†), P8 (index bookkeeping), P7 (Algorithm 1 cycles:
// detected, capped, fallback).
//
// Options (<physics><no_slip …/>): those of contact/solvers/projection_options.hpp, and
//   stick_gap   double (m), default inf   contacts with φ > stick_gap get no no-slip rows, only
//                                         their normal row (the paper: every contact sticks; with
//                                         the default the collision margin is the no-slip zone)
//   equality_dependence_tolerance  double, default 1e-10  τ_G: FIND-INDICES drops a no-slip row with
//                                         sin²θ ≤ τ_G (its angle to the rows kept, W⁻¹ metric)
#pragma once

#include <limits>
#include <memory>

#include "contact/contact_model.hpp"
#include "contact/no_slip/single_contact.hpp"
#include "contact/solvers/find_indices.hpp"
#include "contact/solvers/unilateral_projection.hpp"

namespace impetus {

/// τ_G of the retry (NS5). 1e-6 (θ ≥ 1e-3 rad): on every step of jaco and atlas whose first attempt
/// missed its certificate (bench_corpus_robots --model no_slip --dump-problems) 1e-7 met it on 190 of
/// 431 (jaco) and 2 of 3 (atlas), 1e-6 on all 431 and the same 2 of 3 (the third goes to Lemke). A
/// dropped row is violated by at most 1e-3·‖c‖_{W⁻¹}·‖v⁺‖_W, which the certificate checks.
inline constexpr double kNoSlipRetryDependence = 1e-6;

struct NoSlipOptions {
  ProjectionOptions projection;
  /// Contacts with φ > stick_gap (m) are frictionless; default +∞ (every contact of the problem).
  double stick_gap = std::numeric_limits<double>::infinity();
  /// τ_G of FIND-INDICES (step 1), in (0, 0.5]. Default 1e-10 (θ ≥ 1e-5 rad), not the unilateral
  /// rows' 1e-12: every later solve of (PP1) runs on G's factor, and a kept row at sin²θ ~ 1e-12 made
  /// cond(D) ~ 1e12, λ_G ~ 1e8 and later rows' dependence tests wrong (hyq lying on its legs: N v⁺ off
  /// by 0.15 m/s, a normal row taken for infeasible, Lemke's fallback on a ray). Swept on every step of
  /// hyq, anymal_c, allegro_right and atlas under no_slip (bench_corpus_robots --dump-problems, with
  /// the refinement D5): 1e-12 → 5 failures, 736 fallbacks, max ρ 0.42; 1e-11 → 3, 508; 1e-10 → 1
  /// (atlas), 0, max ρ 4e-7. A dropped row is violated by at most sinθ·‖c‖_{W⁻¹}·‖v⁺‖_W, which
  /// the report's equality_residual and the result's residual carry.
  double equality_dependence_tolerance = 1e-10;

  // For programs (benchmarks, tests), not a scene attribute:
  /// An island of one contact and no joint limit is solved in closed form on its 3×3 Delassus matrix
  /// (single_contact.hpp), kept only when it meets the general path's certificate; false sends it to the
  /// general path like every other island (tests compare the two). Only under the principal pivoting
  /// solver, whose one-step answer it is: `solver="lemke"` asks for Lemke's pivots on every island (seed 000's
  /// comparison of the two, the seed000_walk replay).
  bool single_contact_closed_form = true;
  /// An island whose v* violates no row (contact/free_motion.hpp FM1, FM2 on its sticking contacts) takes v⁺ = v*
  /// without FIND-INDICES or pivoting, under the principal pivoting solver; false sends it to the general path
  /// (tests compare the two).
  bool free_motion = true;

  /// Parses <physics><no_slip …/>; throws OptionError for an unknown key or a bad value.
  static NoSlipOptions parse(const ModelOptions& options);
};

/// What a solve did (ContactResult::report).
struct NoSlipReport {
  FindIndicesResult indices;        // rows kept by FIND-INDICES and held by (NS6); indices.rank = rank(G)
  ProjectionReport projection;      // pivots, fallback, ρ
  double equality_residual = 0;     // max |S_i v⁺|, |T_i v⁺| (m/s) over every sticking contact, dropped rows included
  double dropped_row_backward_error = 0;   // (NS7) the largest e_W of a dropped row certified by it; 0: none was
};

class NoSlipModel final : public ContactModel {
 public:
  explicit NoSlipModel(NoSlipOptions options = {}) : options_(options) {}
  /// The factory's entry (contact/factory.cpp): parses the scene's options, throws OptionError.
  static std::unique_ptr<ContactModel> create(const ModelOptions& options) {
    return std::make_unique<NoSlipModel>(NoSlipOptions::parse(options));
  }
  std::string_view name() const override { return "no_slip"; }
  std::unique_ptr<ContactWorkspace> make_workspace() const override;
  using ContactModel::solve;
  void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const override;

  const NoSlipOptions& options() const { return options_; }

 private:
  /// The buffers of its solves (ContactWorkspace): what the model object must not hold.
  struct Workspace final : ContactWorkspace {
    BlockInertia M_inverse_;
    DelassusFactor factor_;
    UnilateralProjection projection_;
    UnilateralRows U_;
    // Grow-only (contact/solvers/grow_only.hpp): z = [p_N; p_L], λ_G, the projection's warm start, and
    // w = U v⁺ + b of (NS6)'s correction.
    VectorView z_{nullptr, 0}, lambda_G_{nullptr, 0}, guess_{nullptr, 0}, w_{nullptr, 0};
    Eigen::VectorXd z_storage_, lambda_G_storage_, guess_storage_, w_storage_;
    std::vector<char> sticks_;
    ContactResult first_;           // the first attempt's result while (NS5) retries
    VectorView row_scratch_{nullptr, 0};   // W⁻¹cᵀ of (NS7), grow-only
    Eigen::VectorXd row_scratch_storage_;
    NoSlipSingleContact single_;    // one contact (single_contact.hpp)
  };
  /// Step 0's answer as the model's result and report.
  void take_single_contact(const NoSlipSingleContact& single, ContactResult& result) const;
  /// The contacts whose no-slip rows are held (all when `sticks` is left empty): those within the margin.
  void mark_sticking(const ContactProblem& problem, std::vector<char>& sticks) const;
  /// v⁺ = v* with no impulse as the result, when it violates no row (free_motion.hpp); false otherwise.
  bool take_free_motion(const ContactProblem& problem, ContactResult& result, Workspace& ws) const;
  /// Steps 1–3 with FIND-INDICES at τ_G.
  void attempt(const ContactProblem& problem, double tau_G, ContactResult& result, Workspace& ws) const;
  /// (NS7) e_W = |c v⁺| / (‖c‖_{W⁻¹} ‖v⁺‖_W) of a dropped row c slipping at `slip` = |c v⁺|.
  double dropped_row_backward_error(RowRef c, double slip, const ContactProblem& problem,
                                    const Eigen::VectorXd& v_plus, Workspace& ws) const;
  NoSlipOptions options_;
};

}  // namespace impetus
