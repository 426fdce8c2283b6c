// Maximum-dissipation contact (seed 002): friction is whichever admissible impulse leaves the least
// kinetic energy, found by two convex programs per step, with no complementarity anywhere.
//
// References
//   [002]  Drumwright & Shell, "Modeling contact friction and joint friction in dynamic robotic
//          simulation using the principle of maximum dissipation" (seed 002): QP2 (time stepping),
//          QP3 (phase I), Appendix A (energy); notes: shared/notes/seed-002-notes.md.
//   [004]  Zapolsky & Drumwright (seed 004), Eq. (36): the gap term of non-penetration.
//   interior_point.hpp (the solver), phase_programs.hpp (the programs), phase_one_pgs.hpp (fallback).
//
// Glossary (contact/problem.hpp has the shared notation)
//   symbol  size   meaning                                                     code
//   ------  -----  ----------------------------------------------------------  ------------------------
//   p_t     2      (p_S, p_T) of one contact                                     —
//   κ       1      budget: Σ p_N of phase I (N·s)                               report.kappa
//   ρ       1      elastic bound of phase I (N·s), (MD3)                        kElasticFactor
//   c_i     1      viscous allowance dt·μ_v,i‖(S_i v*, T_i v*)‖ (N·s), (MD7)     —
//   k       1      edges of the optional pyramid                                friction_edges
//   KE      1      ½ vᵀ M v (J)                                                 —
//
// Model. One step; every unknown an impulse over dt; M, N, S, T, L, φ frozen at the start:
//   M v⁺ = M v* + Nᵀp_N + Sᵀp_S + Tᵀp_T + Lᵀp_L                                               (MD1)
//
// Phase I ([002] QP3, frictionless, in velocity form, with the gap of [004] (36)):
//   minimise ½ v⁺ᵀMv⁺ + (φ/dt)ᵀp_N + (φ_L/dt)ᵀp_L   s.t. (MD1) with p_S = p_T = 0,  p_N, p_L ≥ 0.  (MD2)
//   Eliminating v⁺ gives QP3, min ½pᵀAp + pᵀ(G v* + φ/dt) over p ≥ 0 (A = G M⁻¹ Gᵀ, G = [N; L]),
//   whose optimality conditions are the frictionless LCP 0 ≤ p ⊥ G v⁺ + φ/dt ≥ 0: non-penetration
//   holds at the solution without being imposed, so the program is feasible for every input.
//   κ = Σ p_N.
//   It "cannot fail" in two ways: the elastic bound p ≤ ρ keeps it bounded when non-penetration
//   itself is infeasible (a body squeezed between surfaces that all demand separation: the dual
//   would be unbounded), and if the interior-point method does not certify it, projected
//   Gauss–Seidel on the dual box QP (phase_one_pgs.hpp), which has no failure mode, takes over:   (MD3)
//       minimise ½pᵀA p + pᵀ(G v* + φ/dt)  over  0 ≤ p ≤ ρ,  ρ = 10³·tr(M)·v̄.
//
// Phase II ([002] QP2): the least kinetic energy that friction can reach without enlarging the
// normal impulses,
//   minimise ½ v⁺ᵀMv⁺   s.t. (MD1),  N v⁺ + φ/dt ≥ 0,  L v⁺ + φ_L/dt ≥ 0,  0 ≤ p_L ≤ p_L^I,     (MD4)
//            Σ p_N ≤ κ,  and per contact the friction set:                                    (MD5)
//     cone (default)  ‖p_t‖ ≤ μ p_N                       — second-order cone                   (MD5)
//     pyramid         n_jᵀ p_t ≤ μ p_N cos(π/k), j < k,   n_j at angle (2j+1)π/k from t1        (MD6)
//                     (the k-gon with vertices μ p_N d_j, d_j at 2πj/k: stewart_trinkle's pyramid)
//     viscous         ‖p_t‖ ≤ μ p_N + c_i,  p_N ≥ 0,  c_i = dt·μ_v,i‖(S_i v*, T_i v*)‖          (MD7)
//   The budget is what [002] calls the "friction cone constraint": without it phase II would raise
//   normal impulses to buy friction. Phase II has no complementarity: it may move, reorder or
//   remove normal impulse among contacts, and a contact may separate with p_N > 0 ([002] §2.4).
//   Joint limits ([002] has none) are frictionless, so more limit impulse buys nothing but stopping
//   a joint before it reaches its limit; each keeps at most its phase I impulse, p_L ≤ p_L^I (one
//   budget per limit, since revolute and prismatic limits do not share units), and a limit that
//   phase I leaves at zero keeps only its velocity row.
//
// Energy (MD8, [002] Appendix A). (p_N^I, 0, p_L^I) is feasible for phase II (non-penetration holds at
// it by the LCP of (MD2), the budget with equality, friction 0 lies in every friction set), so
//   KE(v⁺_II) ≤ KE(v⁺_I),
// and with φ, φ_L ≥ 0, p = 0 being feasible for (MD2) and (φ/dt)ᵀp ≥ 0,
//   KE(v⁺_I) ≤ KE(v⁺_I) + (φ/dt)ᵀp_N + (φ_L/dt)ᵀp_L ≤ KE(v*).
// A step never adds kinetic energy unless a penetration (φ < 0) is being pushed out. With μ = 0
// and φ = 0 phase I's point is optimal for phase II (phase II = phase I); with φ ≠ 0 phase II may
// redistribute normal impulse to dissipate more, since its objective lacks the gap cost.
//
// Rows that cannot bind (MD10). Every v with ½vᵀMv ≤ E has |N_i v| ≤ √(N_i M⁻¹N_iᵀ)·√(2E)
// (Cauchy–Schwarz in the M inner product). Phase II's optimum has KE ≤ KE(v⁺_I) (MD8), so a contact
// with φ_i/dt > 2·√(2 KE(v⁺_I) N_i M⁻¹N_iᵀ) cannot meet its non-penetration row there: the row is
// left out of phase II (likewise a limit's), which leaves the optimum unchanged, since the optimum of
// the smaller program satisfies the row and so is feasible for the whole one. The contact keeps its
// impulses. In a settling pile most contacts the collision margin reports are such rows, and each
// costs phase II's Newton systems fill (their multipliers couple every contact of two bodies).
// (MD9) still checks every row.
//
// Acceptance (MD9). Phase II is kept when the interior-point method reports it usable (interior_point.hpp
// IP6, at the tolerance or the acceptable tolerance) and v⁺ = v* + M⁻¹(Nᵀp_N + Sᵀp_S + Tᵀp_T + Lᵀp_L), recomputed from the impulses, passes
//   N v⁺ + φ/dt ≥ −ε v̄,   ‖p_t‖ ≤ μ p_N + c + ε p̄,   Σ p_N ≤ κ + ε p̄,   KE(v⁺) ≤ KE(v⁺_I) + ε E,
// with ε = check_tolerance, v̄ the problem's velocity scale, p̄ = max(κ, m̄ v̄) and E = max(KE(v*),
// ½ m̄ v̄²). Otherwise the step keeps phase I and reports SolveStatus::Fallback with the reason;
// Failed is reported only when phase I itself is not certified (then v⁺ is its best iterate, which
// still has 0 ≤ p ≤ ρ).
//
// Errata of [002] and how this implementation settles them (notes §1.2, §1.3, §6.2)
//   • The Coulomb/viscous bound of QP1/QP2, μ_c²p_N² + μ_v²‖b_T‖² ≥ ‖p_t‖², is the inside of a
//     hyperboloid and not convex when μ_v‖b_T‖ > 0 (notes §1.2 counter-example); "viscous" uses the
//     convex superset (MD7) instead, with p_N ≥ 0 stated (it no longer follows from the cone).
//   • The squared form μ²p_N² ≥ ‖p_t‖² is an indefinite quadratic constraint that convex solvers
//     reject; (MD5) is the same set written as a second-order cone.
//   • μ_v multiplies a velocity: with μ_v in N·s/m (problem.hpp), the impulse bound is dt·μ_v‖b_T‖,
//     b_T = (S v*, T v*) the pre-contact slip (notes §1.2 on b_T and units).
//   • QP2 prints N v ≥ 0 and mentions stabilization without giving it; here [004] (36) N v⁺ ≥ −φ/dt,
//     and phase I carries the matching cost (φ/dt)ᵀp_N so that its optimality conditions are the
//     stabilized LCP.
//   • [002] gives phase I only in A/b form and phase II with bilateral J; here both are in velocity
//     form with block-diagonal M (the island's trees, no J), never forming A.
//
// Small islands: one contact without limits under the Coulomb cone is solved in closed form on its
// 3×3 Delassus matrix (single_contact.hpp), and only when its optimality conditions certify the point;
// the report then counts no interior-point iterations.
//
// Warm start: phase II starts from the previous step's impulses of the same contacts
// (problem.p_*_guess) when there are any, else from phase I's; phase I from the previous normal
// impulses (interior_point.hpp describes how a guess enters). Option warm_start="false" (or "0") disables both.
//
// Certified warm start (MD12, interior_point.hpp IP10). The previous step's impulses, matched by contact key,
// are first tested for optimality in this step's programs, by the test the interior point stops on:
// phase I's candidate is (p_N, p_L) of the guess, phase II's the guess (p_N, p_S, p_T). On a resting island
// both are usually optima as they stand — phase I's LCP holds at them to the tolerance, and the friction
// that held the island last step still stops every contact — and they are returned with no iteration, so
// the indeterminate split of a resting island's impulses stays the previous step's (continuous in time)
// instead of moving to the interior point's central choice. Phase II's budget κ is still this step's
// Σ p_N^I. Otherwise the interior point iterates from the same start, as without the test. The candidate is a function of the
// problem alone (its guesses), so results do not depend on the thread count or on which islands a
// workspace solved before.
//   Phase II's candidate is the guess moved to the point that stops the island, when one exists nearby: the
// interior point's answer stops a resting island only to its tolerance, and a velocity error of δ left
// in v⁺ returns in the next step's v*, so returned as it is the guess would fail the test after a step
// or two (measured on scenes/stack10.xml: the dual residual grows by ~4e-9 a step against the 1e-8
// tolerance). When the rows 𝐉_𝒜 of the contacts that carry impulse have full column rank (they hold
// every degree of freedom of the island), the least-norm Δp on them with 𝐉_𝒜ᵀΔp = −M v(guess),
//   Δp = 𝐉_𝒜 (𝐉_𝒜ᵀ𝐉_𝒜)⁻¹(−M v),
// gives v⁺ = 0: if that point is feasible (its friction inside the cones, Σ p_N ≤ κ to tolerance) it is
// the optimum, since ½v⁺ᵀMv⁺ = 0 is the least, and the test certifies it. Δp is of the size of the
// guess's velocity error, so the split of the impulses moves by as little. 𝐉_𝒜ᵀ𝐉_𝒜 is factored dense up to
// 192 DoF.
//   (MD14, stop_projection.hpp) Beyond 192 DoF, also where 𝐉_𝒜 is rank deficient — a pile's rattler, a sphere
// on one loaded contact that may still spin about its normal — the candidate is the guess moved to the
// M-projection of its velocity onto ker 𝐉_𝒜 (the least kinetic energy with every loaded contact at rest), by
// proximal-point rounds on the regularized contact-space system (A + δI)Δp = −𝐉_𝒜v, A = 𝐉_𝒜M⁻¹𝐉_𝒜ᵀ (singular
// where contacts are redundant), through the quasi-definite LDLᵀ of [M 𝐉_𝒜ᵀ; 𝐉_𝒜 −δI]. With full column rank
// this is the stop above (v⁺ = 0); with a rattler, v⁺ keeps the motion no loaded contact can change, which is
// still phase II's optimum when the moved friction lies inside the cones. Either way the same (IP6) test
// decides: a candidate outside the cones or the budget is not certified, and the interior point iterates.
//
// Contacts not yet touching (MD13). When the previous step left every contact of the island without impulse
// (no guess: a falling pile, whose contacts the collision margin reports before they touch), phase I's
// candidate is p = 0, tested by the same (IP6): it is the optimum when every row is separating,
// N v* + φ/dt ≥ 0 (the LCP of MD2 at p = 0). Then κ = 0, and phase II needs no solve: the cone and the
// pyramid hold p_N ≥ 0, so Σ p_N ≤ κ = 0 leaves p = 0 (and p_L ≤ p_L^I = 0) its only feasible point —
// phase I's, v⁺ = v*. (The viscous set allows friction at p_N = 0 and keeps its phase II.) Where every row separates
// under v* as computed, G v* + φ/dt ≥ 0 in floating point (contact/free_motion.hpp FM1), p = 0 is that optimum
// exactly (the gradient of QP3 at 0 is that row vector) and phase I's program is not built: a falling pile's island
// of ~2000 speculative contacts is then answered in one pass over its rows.
//
// Contacts screened by phase I, verified after (MD16). On a large island most contacts are a pile's speculative ones,
// far from binding, and each adds three impulses, a cone and a velocity row to phase II's Newton systems, whose factor
// is phase II's cost (the landing granular pile: 2400–2900 contacts, ~2e8 flop a factorization). Phase II over a subset
// 𝒦 of the contacts (the others without impulse, row or share of κ) is a restriction of (MD4) in its impulses and a
// relaxation in its rows. Its optimum (v⁺, p_𝒦 and the multipliers y, z_κ of the interior point) is phase II's when,
// for every contact i left out,
//   N_i v⁺ + φ_i/dt ≥ 0                       (its row holds: the point is feasible for the whole program)
//   g_N ≥ μ_i‖(g_S, g_T)‖,  g = −J_i y + e_N z_κ   (its impulse could not lower the objective: g ∈ the dual cone)
// — then the point with p_i = 0, z_R,i = 0 and the cone multiplier z_i = diag(μ_i,1,1)⁻¹g ∈ Q³ meets every condition
// of (IP1) for the whole program, which is convex, so it is the optimum. (−y = v⁺ − M⁻¹Rᵀz_R: where no row binds,
// −J_i y is the contact's relative velocity, so g_N is its separating speed plus the budget's price and g_t its slip:
// a contact whose friction would buy more dissipation than its normal impulse costs fails the test.) Both are
// checked to the interior point's tolerance (tolerance · v̄); a contact failing either is put in 𝒦 and phase II solved
// again. 𝒦 starts as the contacts whose row phase I's answer leaves within τ of binding,
//   N_i v⁺_I + φ_i/dt ≤ τ,   τ = ¼‖v⁺_I − v*‖∞,
// a quarter of the largest change phase I made to a velocity (friction moves v⁺ on the scale of what the contact
// impulses did): a resting pile keeps every loaded contact, an impact its near ones. When 𝒦 is more than half the
// island, or becomes so by the contacts put back, or after kScreenRounds screened solves, the whole program is solved
// (the screen saves less than a second solve costs). The screen only chooses the work; the answer is phase II's
// either way. It applies to the Coulomb cone (the pyramid's and the viscous set's dual sets differ) on islands of more
// than screen_contacts_above contacts, where a second solve is cheaper than the fill it may save.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "contact/contact_model.hpp"
#include "contact/max_dissipation/phase_one_pgs.hpp"
#include "contact/max_dissipation/phase_programs.hpp"
#include "contact/max_dissipation/single_contact.hpp"
#include "contact/max_dissipation/stop_projection.hpp"
#include "contact/solvers/interior_point.hpp"
#include "contact/workspace_by_structure.hpp"

namespace impetus {

/// Options of `max_dissipation`, the attributes of <physics><max_dissipation …/>.
struct MaxDissipationOptions {
  /// friction="cone" (default): the Coulomb cone (MD5); "pyramid": the k-gon of (MD6);
  /// "viscous": the convex Coulomb + viscous set (MD7), which reads the pairs' mu_viscous.
  /// The cone and the pyramid ignore mu_viscous.
  FrictionCone friction = FrictionCone::SecondOrder;
  /// k of the pyramid (friction="pyramid"). Default 4 (the stewart_trinkle default); 3 … 16.
  int friction_edges = 4;
  /// Relative tolerance of the interior-point method (interior_point.hpp IP6), both phases.
  /// Default 1e-8 (why not less: interior_point.hpp); range 1e-13 … 1e-4.
  double tolerance = 1e-8;
  /// Relative duality gap of the interior-point method (interior_point.hpp IP6), both phases.
  /// Default 1e-11. Phase II is degenerate, so its impulses converge like √gap and its kinetic
  /// energy like the gap (test_max_dissipation.cpp, ImpulseFormGivesTheVelocityFormSolution): 1e-9
  /// saves a quarter of the iterations on moving sphere piles (bench_max_dissipation contacts: 15
  /// instead of 20 at 997 contacts) but lets phase II end ~1e-10 J above phase I on granular_small,
  /// an energy gain the no-gain tests see. Range 1e-15 … 1e-4.
  double gap_tolerance = 1e-11;
  /// Iteration cap of each interior-point solve. Default 60; range 5 … 1000.
  int max_iterations = 60;
  /// Warm-start both phases from the previous step's impulses (true), or start cold. Default true;
  /// the scene writes true/false or 1/0.
  bool warm_start = true;
  /// (MD12) Test the previous step's impulses (the problem's guesses) for optimality before iterating,
  /// in both phases, and return them when they pass; false always iterates. Default true.
  bool certify_warm_start = true;
  /// ε of the acceptance checks (MD9), relative. Default 1e-6: a hundred times the solver's
  /// tolerance and its acceptable level, so a certified solve passes and only a wrong one fails.
  /// Range 1e-12 … 1e-2.
  double check_tolerance = 1e-6;
  /// Sweep cap of the phase-I fallback (MD3). Default 2000; range 1 … 10⁷.
  int fallback_sweeps = 2000;
  /// (MD16) Phase II of an island with more contacts than this starts from the contacts phase I leaves near binding,
  /// and verifies the others after. Default 256; −1 never screens. Range −1 … 10⁹.
  int screen_contacts_above = 256;

  // For programs (benchmarks, tests), not scene attributes: what the report records beyond its
  // counts. Both off by default, and then no clock is read and nothing is copied.
  /// The interior point's solver trace of each phase (InteriorPointTrace) in the report.
  bool trace = false;
  /// Wall time of each phase in the report (phase_one_seconds, phase_two_seconds).
  bool timing = false;
  /// An island with one contact, no limit and the Coulomb cone is solved in closed form
  /// (single_contact.hpp), certified by its optimality conditions; false sends it to the interior
  /// point like every other island (tests compare the two). The trace option also sends it there.
  bool single_contact_closed_form = true;
  /// Told of every factorization of both phases' interior points (interior_point.hpp KktObserver); null
  /// (the default) for none.
  KktObserver* kkt_observer = nullptr;

  /// From the scene's attributes; throws OptionError for an unknown option or a bad value.
  static MaxDissipationOptions parse(const ModelOptions& options);
};

/// What a solve did, phase by phase (ContactResult::report, for tests and benchmarks).
struct MaxDissipationReport {
  double kappa = 0;                          // κ (N·s)
  double kinetic_energy_star = 0;            // KE(v*) (J)
  double kinetic_energy_phase_one = 0;       // KE(v⁺_I)
  double kinetic_energy_phase_two = 0;       // KE(v⁺_II), when phase II ran
  InteriorPointStatus phase_one_status = InteriorPointStatus::Solved;
  InteriorPointStatus phase_two_status = InteriorPointStatus::Solved;
  bool phase_one_by_fallback = false;        // phase I came from projected Gauss–Seidel (MD3)
  bool phase_two_accepted = false;           // (MD9) passed; the result is phase II's
  int phase_one_iterations = 0, phase_two_iterations = 0;
  bool phase_one_certified = false, phase_two_certified = false;   // (MD12): the guess passed, no iteration
  int stop_rounds = 0;                       // (MD15) rounds of the projection that moved phase II's candidate
  int screened_contacts = 0;                 // (MD16) contacts left out of the phase II that gave the answer
  int screen_resolves = 0;                   // (MD16) phase II solved again with contacts put back
  double phase_one_seconds = 0, phase_two_seconds = 0;   // only with MaxDissipationOptions::timing
  InteriorPointTrace phase_one_trace, phase_two_trace;      // only with MaxDissipationOptions::trace
  Eigen::VectorXd v_phase_one;               // (nv) v⁺_I
  Eigen::VectorXd p_N_phase_one;             // (nc)
};

class MaxDissipationModel final : public ContactModel {
 public:
  explicit MaxDissipationModel(MaxDissipationOptions options = {});
  /// For the factory: parses the options (throws OptionError).
  static std::unique_ptr<ContactModel> create(const ModelOptions& options);

  std::string_view name() const override { return "max_dissipation"; }
  std::unique_ptr<ContactWorkspace> make_workspace() const override;
  using ContactModel::solve;
  void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const override;

  const MaxDissipationOptions& options() const { return options_; }

 private:
  /// The buffers of the solves of one island structure: what the model object must not hold.
  struct Buffers {
    explicit Buffers(const MaxDissipationOptions& options);
    // One solver per phase: the two programs differ in structure, and each solver keeps the symbolic
    // analysis of its last program (interior_point_kkt.hpp) for the next step's.
    InteriorPointSolver ipm_one_, ipm_two_;
    PhaseOnePgs pgs_;
    // A program, a result and a start per phase too: the phases' sizes differ, and buffers shared by both
    // would be resized (reallocated) twice a solve.
    ConeProgram program_one_, program_two_;
    ImpulseLayout layout_;
    PhaseProgramScratch program_scratch_;
    InteriorPointResult result_one_, result_two_;
    SingleContact single_;
    Eigen::VectorXd p1_, p1_start_, p2_start_, p2_candidate_, v2_, impulse_, scratch_, p_closed_;
    // (MD12)'s stop of the guess: dense 𝐉_𝒜ᵀ𝐉_𝒜, its factor, the velocity of the guess and the solve on small
    // islands of full rank; (MD14)'s projection (its rows, regularized factor and rounds) otherwise.
    Eigen::MatrixXd stop_H_;
    Eigen::LLT<Eigen::MatrixXd> stop_llt_;
    Eigen::VectorXd stop_v_, stop_x_;
    std::vector<int> stop_rows_;   // 𝒜's rows of the program
    std::vector<char> kept_;       // (MD16) per contact: in phase II's program (𝒦)
    StopProjection stop_projection_;
  };
  /// The workspace (ContactWorkspace): Buffers per island structure (contact/workspace_by_structure.hpp), so
  /// that islands of different sizes solved in turn neither resize the interior point's buffers nor
  /// analyse their KKT patterns again.
  struct Workspace final : ContactWorkspace {
    explicit Workspace(const MaxDissipationOptions& options) : by_structure(options) {}
    ByStructure<Buffers, MaxDissipationOptions> by_structure;
  };
  /// (MD12, MD14) Phase II's candidate: the guess moved by the least-norm Δp on the rows of the contacts that carry
  /// impulse (𝒜) to the M-projection of its velocity onto ker 𝐉_𝒜 (v⁺ = 0 when 𝐉_𝒜 has full column rank).
  /// p2_start_ → p2_candidate_; returns the projection's rounds (0 for the dense stop).
  int stop_guess(Buffers& ws, const ContactProblem& problem) const;
  /// ws.stop_x_ ← (𝐉_𝒜ᵀ𝐉_𝒜)⁻¹ ws.stop_x_ dense; false when 𝐉_𝒜 is (near) rank deficient.
  bool stop_solve_dense(Buffers& ws, const ContactProblem& problem) const;
  /// (MD13) Phase I's answer p = 0, v⁺_I = v*, without building its program (the falling pile's speculative contacts).
  void keep_free_motion(Buffers& ws, const ContactProblem& problem, SolverStatistics& stats,
                        MaxDissipationReport& report) const;
  /// Phase I (MD2–MD3) into `report` and p1_; false when not certified even by the fallback.
  bool phase_one(Buffers& ws, const ContactProblem& problem, double rho, double impulse_scale, SolverStatistics& stats,
                 MaxDissipationReport& report) const;
  /// Phase II (MD4–MD7) by the interior point into ws.result_two_, ws.v2_ and `report`; `vbar` is the problem's
  /// velocity scale (MD9), for the verification of (MD16).
  void phase_two(Buffers& ws, const ContactProblem& problem, double kappa, double vbar, SolverStatistics& stats,
                 MaxDissipationReport& report) const;
  /// (MD16) ws.kept_: the contacts whose row phase I's v⁺_I leaves within τ of binding; returns how many.
  int screen_contacts(Buffers& ws, const ContactProblem& problem, const Eigen::VectorXd& v_one) const;
  /// (MD16) Puts in ws.kept_ the contacts left out whose row ws.v2_ violates, or whose impulse the multipliers of
  /// ws.result_two_ price below its dissipation, by more than `slack` (m/s); returns how many.
  int put_back_contacts(Buffers& ws, const ContactProblem& problem, double slack) const;
  /// v = v* + M⁻¹ 𝐉ᵀ p for the program's 𝐉.
  void velocity_of(Buffers& ws, const ContactProblem& problem, const ConeProgram& program, const Eigen::VectorXd& p,
                   Eigen::VectorXd& v) const;

  MaxDissipationOptions options_;
};

}  // namespace impetus
