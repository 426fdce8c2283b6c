// A primal-dual interior-point method for the cone program of cone_program.hpp (a convex quadratic
// program over the nonnegative orthant and three-dimensional second-order cones), sparse in velocity
// space: the Delassus matrix is never formed.
//
// References
//   [VA]  Vandenberghe, "The CVXOPT linear and quadratic cone program solvers" (2010): the
//         Newton system, Nesterov–Todd scaling and the initial point (coneqp).
//   [ME]  Mehrotra, "On the implementation of a primal-dual interior point method", SIAM J. Optim.
//         2 (1992) 575–601: the predictor–corrector.
//   [NW]  Nocedal & Wright, "Numerical Optimization" (2006), §16.6 and §14.2.
//
// Glossary (program symbols in cone_program.hpp, KKT symbols in interior_point_kkt.hpp)
//   symbol  size   meaning                                                      code
//   ------  -----  -----------------------------------------------------------  -----------------
//   m̄, v̄   1, 1   mass and velocity scales of the problem (IP2)                 mass_scale, velocity_scale
//   x       nv+np  (v, p) in scaled units                                        v_, p_
//   y       nv     multiplier of the equation of motion (CP2)                    y_
//   s, z    m      slacks and multipliers of the cone constraints (𝒞 = ℝ₊ × Q³)   s_, z_
//   λ       m      scaled point W z = W⁻¹ s                                      lambda_
//   μ       1      duality measure sᵀz / ϑ, ϑ = rows of ℝ₊ + number of cones     —
//   σ       1      centring parameter of the corrector                           sigma
//   r_x, r_y, r_z  residuals of the optimality conditions (IP1)                  rx_, ry_, rz_
//
// Optimality conditions of (CP1)–(CP6), written  min ½xᵀPx + qᵀx  s.t.  A x = b,  G x + s = h,
// s ∈ 𝒞 (interior_point_kkt.hpp gives P, A, G, h; q = (0, c), b = M v*):
//   r_x = P x + Aᵀ y + Gᵀ z + q = 0,   r_y = A x − b = 0,   r_z = G x + s − h = 0,
//   s, z ∈ 𝒞,   s ∘ z = 0.                                                                      (IP1)
//
// Scaling (IP2): the solver works in units where M̃ = M/m̄ and velocities are v/v̄, impulses p/(m̄v̄),
// with m̄ = tr(M)/nv and v̄ the largest of |v*|, |𝐉v*|, |r|, |c| (and 1 when all vanish). The
// iteration is invariant under these scalings; the tolerances and the regularization are not,
// and are stated in these units.
//
// Method: Mehrotra predictor–corrector with Nesterov–Todd scaling, infeasible start ([VA] §§5–6):
//   1. W from (s, z), λ = W z.
//   2. Predictor: solve (IP3) with right-hand side (−r_x, −r_y, −r_z + s); Δs = −s − W²Δz.
//   3. α_a: the largest step in [0, 1] keeping s, z in 𝒞;  σ = ((s + α_aΔs)ᵀ(z + α_aΔz)/sᵀz)³.
//   4. Corrector: d_s = −λ∘λ − (W⁻¹Δs_a)∘(WΔz_a) + σμe; solve (IP3) with right-hand side
//      (−r_x, −r_y, −r_z − W(λ⁻¹∘d_s)); Δs = W(λ⁻¹∘d_s) − W²Δz.
//      Safeguard (IP8, after Salahi, Peng & Terlaky, SIAM J. Optim. 18 (2007)): when α_a < 0.1 the
//      second-order term is dropped and σ ≥ 0.5. Without it the iteration can cycle on degenerate
//      cones — a contact with zero impulse on the verge of sliding puts s at the apex and z on the
//      boundary of the dual cone, the affine step is short, and the corrector undoes each step.
//   5. Step α = min(1, 0.99·α_max) on (x, y, z, s), shortened (×0.8 at a time) until every pair is
//      in the wide neighbourhood of the central path                                          (IP7)
//          s_i z_i ≥ γμ (linear rows),   (λ₀ − ‖λ₁‖)² ≥ γμ (cones, λ = W z),   γ = 1e-3,
//      which keeps the corrector from cycling. The neighbourhood is kept once the iterate is in it,
//      never required of a step from outside it (a warm start's s and z): no short step enters it,
//      and demanding it shrank every step 0.8⁴⁰-fold: 60 iterations without progress, and 36 of the
//      500 steps of granular_small kept phase I (bench_max_dissipation scene granular_small.xml).
// The Newton system is the sparse quasi-definite system (IP5) of interior_point_kkt.hpp, factored by
// LDLᵀ in minimum-degree order with static and dynamic regularization, which iterative refinement on
// the unregularized system (IP3) removes.
//
// Termination (IP6), all in scaled units:
//   primal:  max(‖r_y‖∞/(1 + ‖b‖∞), ‖r_z‖∞/(1 + ‖h‖∞)) ≤ tol
//   dual:    ‖r_x‖∞/(1 + ‖q‖∞) ≤ tol
//   gap:     sᵀz / max(1, |½xᵀPx + qᵀx|) ≤ gap_tol
// Tail stop (IP9): when the residuals meet tol and the gap is within 100× of gap_tol but the merit
// max(primal, dual, gap) has not halved in stall_window iterations, the iteration stops (Stalled,
// hence Acceptable): at degenerate solutions rounding can hold the gap just above gap_tol.
// Failures are statuses, never exceptions: the iteration limit, a stall (steps below 1e-10 three
// times, or IP9), or a non-finite iterate; the result then holds the iterate with the smallest
// residual, and is Acceptable when that residual meets acceptable_tolerance. Every step keeps s and z strictly
// inside their cones: the step is shortened until they are, since rounding can put a point that the
// step-length formula places inside just outside.
//
// Certificate of a candidate (IP10). A candidate is typically the previous step's answer (the same
// contacts' impulses, matched by contact key): on a resting island it is often an optimum of this step's
// program as it stands. Before iterating, the solver completes the candidate p into a primal-dual point and
// tests it with (IP6), the test the iteration stops on:
//   v from the equation of motion (r_y = 0 up to rounding);  s = Π_𝒞(h − G x), the projection onto the cones
//   (r_z = its distance, a primal infeasibility);  z = 0 on every row but the linear row aᵀp_g + b ≥ 0 of a
//   one-coordinate group, whose multiplier is the coordinate's reduced cost w = (c + 𝐉v)_g / a when that
//   exceeds the slack s (the row is inactive: p_g at its bound, and z takes w so that r_p = 0) and 0 otherwise
//   (the row is active: w ≈ 0 is left in r_p);  y = −v − M̃⁻¹G_vᵀz (the v-rows of r_x vanish).
// z ∈ 𝒞 by construction, so passing (IP6) means primal and dual feasibility to tol and a gap within gap_tol:
// the point is an optimum of this program to the accuracy of a Solved iterate, and it is returned (Solved, 0
// iterations, InteriorPointResult::certified) with no factorization. The zero multipliers certify exactly
// the optima where no constraint but those bounds pushes: phase I's LCP (every row a bound), and a phase II
// whose v⁺ stops every contact (½v⁺ᵀMv⁺ = 0, the least). Anything else fails (IP6) and the
// iteration runs as without the test (bit for bit). The point depends on the program and the candidate
// only, never on what the solver solved before.
//
// Initial point: [VA] §5.3 — the solution of (IP3) with W = I and right-hand side (−q, b, h), whose
// s = h − G x and z are moved into the interior along e. A warm start replaces its p by a guess
// (the previous step's impulses): v follows from the equation of motion, s = h − G x, and both s and
// z are moved into the interior by the same rule.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "contact/solvers/cone_program.hpp"
#include "contact/solvers/interior_point_kkt.hpp"

namespace impetus {

/// Sees every Newton matrix the interior point factors (InteriorPointOptions::kkt_observer): for programs
/// that study the factorization on real programs (tools/bench/bench_kkt_factorization.cpp), never for a run.
class KktObserver {
 public:
  virtual ~KktObserver() = default;
  /// Called after each factorization of K̃ (IP5–IP6), with the system that was factored (its matrix(),
  /// signs(), last_rows() and layout()).
  virtual void factored(const InteriorPointKkt& kkt) = 0;
};

struct InteriorPointOptions {
  /// Relative tolerance of (IP6): residuals and gap, dimensionless (scaled units). Default 1e-8:
  /// a velocity error of 1e-8 of the problem's velocity scale. Contact programs are degenerate
  /// (redundant contacts, a budget that non-penetration already implies), so their Newton systems
  /// turn singular at the solution and the attainable residual is ~1e-9; the default stays above it.
  /// Range 1e-13 … 1e-3.
  double tolerance = 1e-8;
  /// Relative tolerance of the gap sᵀz in (IP6). Default 1e-11: the gap bounds the velocity error of
  /// a constraint whose slack is small (z ≈ gap/s), so it must be much smaller than `tolerance` for
  /// the velocities to be good to it; Newton's last steps divide it by ~100 each, so it costs one or
  /// two iterations. Range 1e-15 … 1e-3.
  double gap_tolerance = 1e-11;
  /// When the iteration stops short (limit, stall, numerical failure), its best iterate is still
  /// reported as usable (InteriorPointStatus::Acceptable) if (IP6) holds at this looser level.
  /// Default 1e-6. Range tolerance … 1e-2.
  double acceptable_tolerance = 1e-6;
  /// Iteration cap. Default 60 (well-posed programs converge in 10–30). Range ≥ 1.
  int max_iterations = 60;
  /// Fraction of the step to the boundary of the cones. Default 0.99; range (0, 1).
  double step_fraction = 0.99;
  /// Rounds of iterative refinement of each Newton solve on (IP3). Default 2; range ≥ 0.
  int refinement_steps = 2;
  /// (IP9): stop, Acceptable, when the residuals meet `tolerance`, the gap is within 100× of
  /// `gap_tolerance`, and the best merit (largest of the three measures of IP6) has not halved in
  /// this many iterations. Default 3; 0 disables. On moving sphere piles (bench_max_dissipation
  /// contacts) the gap otherwise sits at 1–3× gap_tolerance for a dozen iterations, a third of the
  /// solve, while the residuals stay at 1e-13.
  int stall_window = 3;
  /// Record the solver trace (InteriorPointResult::trace): per iteration the measures of (IP6), μ,
  /// σ, the step lengths and the time of the factorization. For diagnosis (tests, benchmarks); off by
  /// default, and then nothing is recorded and no clock is read. It never changes the iterates.
  bool trace = false;
  /// Told of every factorization (KktObserver); null (the default) for none. It never changes the iterates.
  KktObserver* kkt_observer = nullptr;
};

enum class InteriorPointStatus {
  Solved,            // (IP6) met
  Acceptable,        // stopped short, but the best iterate meets (IP6) at acceptable_tolerance
  IterationLimit,    // max_iterations reached
  Stalled,           // the step to the boundary vanished three times in a row
  NumericalFailure,  // a non-finite iterate or a factorization that failed at every regularization
  InvalidProgram,    // the program breaks a requirement of cone_program.hpp
};
const char* to_string(InteriorPointStatus status);

/// One iteration of the solver trace, in the scaled units of (IP2). The measures are those of the
/// iterate the iteration starts from; the last entry (the returned or abandoned iterate) has no step,
/// and its step fields stay NaN.
struct InteriorPointIterate {
  int iteration = 0;
  double primal_residual = 0, dual_residual = 0, gap = 0;   // (IP6): primal, dual, relative gap
  double mu = NAN;                  // duality measure sᵀz/ϑ
  double sigma = NAN;               // centring parameter σ of the corrector (after IP8)
  double alpha_affine = NAN;        // α_a, the predictor's step to the boundary (capped at 1)
  double alpha = NAN;               // the step taken on (x, y, z, s), after shortening (IP7)
  double refinement_error = NAN;    // ‖(IP3) residual‖∞ of the corrector's solve before its last refinement
  int regularized_pivots = 0;       // pivots the factorization regularized dynamically (QD1)
  double factor_seconds = NAN;      // wall time of the factorization
};

/// The opt-in solver trace (InteriorPointOptions::trace).
struct InteriorPointTrace {
  int kkt_size = 0;                 // order of the reduced KKT matrix (IP5)
  long kkt_nonzeros = 0;            // its nonzeros (lower triangle), and those of its LDLᵀ factor
  long factor_nonzeros = 0;
  double factor_flops = 0;          // floating-point operations of one factorization (symbolic count)
  std::vector<InteriorPointIterate> iterations;
};

struct InteriorPointResult {
  InteriorPointStatus status = InteriorPointStatus::Solved;
  int iterations = 0;
  double primal_residual = 0, dual_residual = 0, gap = 0;   // of (IP6), at the returned iterate
  int regularized_pivots = 0;       // the most pivots one factorization regularized dynamically (QD1)
  std::string message;              // why, when not Solved
  Eigen::VectorXd v;                // (nv) m/s, rad/s
  Eigen::VectorXd p;                // (np) N·s
  // Multipliers and slacks in physical units (for certificates and tests): y (nv, m/s); z and s (m,
  // layout of interior_point_kkt.hpp ConeLayout): a row stated in velocities (R rows) has s in m/s and
  // z in N·s, a row stated in impulses (group rows, budgets) has s in N·s and z in m/s.
  Eigen::VectorXd y, z, s;
  Eigen::VectorXd z_R;              // (nr) = the head of z: multipliers of the velocity rows (N·s)
  InteriorPointTrace trace;         // only with InteriorPointOptions::trace
  bool certified = false;           // (IP10): the candidate passed (IP6), no iteration ran
  bool solved() const { return status == InteriorPointStatus::Solved; }
  bool usable() const { return solved() || status == InteriorPointStatus::Acceptable; }
  double residual() const { return std::max({primal_residual, dual_residual, gap}); }
};

class InteriorPointSolver {
 public:
  explicit InteriorPointSolver(InteriorPointOptions options = {}) : options_(options) {}

  /// Solves `program`. `p_start` (np, N·s), when given, is the warm start; `p_candidate` (np, N·s), when
  /// given, is returned without iterating if it passes (IP10). Never throws.
  void solve(const ConeProgram& program, const Eigen::VectorXd* p_start, InteriorPointResult& result,
             const Eigen::VectorXd* p_candidate = nullptr);

  const InteriorPointOptions& options() const { return options_; }
  InteriorPointOptions& options() { return options_; }

 private:
  void residuals(const ConeProgram& program);
  /// (IP10): the primal-dual point completed from the candidate (N·s) into v_, p_, y_, s_, z_.
  void complete_candidate(const ConeProgram& program, const Eigen::VectorXd& p_candidate, double impulse_scale);
  /// The best iterate into `result`, in physical units.
  void write_result(const ConeProgram& program, double impulse_scale, InteriorPointResult& result) const;
  void scaling();
  bool factor(InteriorPointResult& result);
  double max_step(const Eigen::VectorXd& s, const Eigen::VectorXd& ds, const Eigen::VectorXd& z,
                  const Eigen::VectorXd& dz) const;
  void move_into_cone(Eigen::VectorXd& u) const;
  bool strictly_inside(const Eigen::VectorXd& u) const;
  bool centred(const Eigen::VectorXd& s, const Eigen::VectorXd& z) const;

  InteriorPointOptions options_;
  InteriorPointKkt kkt_;
  ConeScaling W_;
  double mass_scale_ = 1, velocity_scale_ = 1;

  // Scaled data: b = M̃ṽ*, q_p = c̃, h.
  Eigen::VectorXd b_, c_, h_;
  // Iterate and residuals.
  Eigen::VectorXd v_, p_, y_, s_, z_, lambda_;
  Eigen::VectorXd rv_, rp_, ry_, rz_;
  // Directions and scratch.
  Eigen::VectorXd dv_, dp_, dy_, dz_, ds_, dva_, dpa_, dya_, dza_, dsa_;
  Eigen::VectorXd ds_rhs_, tmp_z_, tmp_z2_, tmp_v_, tmp_p_, neg_rv_, neg_rp_, neg_ry_, rhs_z_;
  Eigen::VectorXd trial_s_, trial_z_;
  Eigen::VectorXd best_v_, best_p_, best_y_, best_z_, best_s_;
  std::vector<double> best_history_;   // best merit after each iteration (IP9)
};

}  // namespace impetus
