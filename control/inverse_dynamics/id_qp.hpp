// ID(t_i)_QP,μ and ID(t_i)_QP,∞ — complementarity-free inverse dynamics (seed 004 §6), `id_qp_coulomb`
// and `id_qp_noslip`: Stage I, the maximum-dissipation contact impulses; Stage II, among Stage I's
// optimal impulses the one of least ‖τ‖ (the paper's chatter fix, §6.2.4).
//
// Stage I (seed 004 Eqs. 69–74 with id_problem.hpp's signs; z = [p_N; p_F] ≥ 0, p = B z, FE1):
//   minimise  ½ zᵀ H z + cᵀ z,   H = Bᵀ D B,  D = J K Jᵀ,   c = Bᵀ J v_c                        (QP1)
//   s.t.      N v⁺ + φ/dt ≥ 0  (Eq. 70),   z ≥ 0 (Eq. 71),   μ_c p_N,c ≥ Σ_j p_F,cj (Eq. 72)
// QP,∞ is the same with every μ_c = μ_∞ (default 100, the paper's own stand-in for ∞, notes 004 §5.4):
// a literal ∞ has no convex form (unbounded friction at p_N > 0, none at p_N = 0 is not a closed set), and
// dropping the pyramid would let friction act where no normal impulse is.
// with v⁺ = v_c + K Jᵀ B z (Eqs. 73–74 eliminated, ID3). The gradient of (QP1) in z is Bᵀ J v⁺: the
// relative contact velocities, exactly the gradient of the forward max_dissipation program ½v⁺ᵀMv⁺
// over its impulses with τ fixed (max_dissipation.hpp MD4). [mine] Eq. 69 as printed minimises ½v⁺ᵀMv⁺
// with τ free, whose gradient is Bᵀ J K M v⁺; the two differ by Bᵀ J M⁻¹PᵀG⁻¹q̇_des, i.e. they agree
// when q̇_des = 0 (a static hold), and otherwise Eq. 69 spends actuator work to change the kinetic
// energy of the driven motion, which the forward model (τ given) cannot see: the impulses it picks are
// then not the simulator's. (QP1) is Eq. 69 minus the actuator's work τᵀq̇_des, so that its
// optimality conditions are the forward model's at the same v⁺. The notes' reading of Eqs. 75–78
// (the ½, X⁻¹ on κ, the q̇_des and φ/dt terms dropped in print) is settled by this derivation.
// Solved as the paper's footnote 1 does: the KKT conditions as a monotone LCP, by Lemke,
//   ⎡ H   −A_Nᵀ  −A_μᵀ ⎤ ⎡ z   ⎤   ⎡ c             ⎤
//   ⎢ A_N   0      0   ⎥ ⎢ y_N ⎥ + ⎢ N v_c + φ/dt  ⎥  ⊥ [z; y_N; y_μ] ≥ 0,  A_N = (D B)_N rows   (QP2)
//   ⎣ A_μ   0      0   ⎦ ⎣ y_μ ⎦   ⎣ 0             ⎦
//
// Stage II (§6.2.4, Eqs. 102–112). H is PSD and singular whenever the support is indeterminate (four
// feet: rank H ≤ nv − na = 6 for 12 impulse components), so Stage I's optimum is a face. Two optima z₀, z₁
// of a convex quadratic have H(z₁ − z₀) = 0, and H x = 0 ⇔ K Jᵀ B x = 0 ⇔ U Jᵀ B x = 0 (ker K = range Pᵀ,
// U: the rows of the undriven coordinates). So the face is described in p = B z, where it is
// p₀ + Z w with Z an orthonormal basis of ker(U Jᵀ) (least_torque.hpp LT1), exact and built from
// geometry alone — no eigenvalue threshold on H, and none of the pyramid's edge redistributions (ker B),
// along which τ does not move and which made the old z-space Stage II singular. Along Z, v⁺ does not
// move, nor the rows N v⁺ + φ/dt (the paper: "Z·ker(ZᵀAZ) = 0", so those n + 1 constraints are
// unnecessary), and τ moves by T_τ Z w = −P Jᵀ Z w. Stage II:
//   minimise  ½‖τ₀ + T_τ Z w‖² + ½ε‖p₀ + Z w‖²   over p = p₀ + Z w
//   s.t.      p_N ≥ 0,  A_facet p ≥ 0 (FE2),  κ_c + (g_p − 1_N)ᵀp ≥ 0 (QP5),  ℓ_pᵀ(p − p₀) ≤ δ (QP7) (QP3)
// T_τ Z is injective where J has full row rank (Jᵀ Z w = Pᵀa ⇒ T_τ Z w = −a), so (QP3) is strictly
// convex without ε; ε = kStageTwoRegularization·‖T_τ Z‖²/dim only breaks ties, centred at p = 0, not at
// p₀, so that Stage I's choice does not leak in. Eq. 112's expansion and the energy equality (108) are
// what (QP3) says with Z inside the optimal face. If Stage II fails, Stage I's p₀ stands (a fallback).
//
// Solved as least squares under inequalities by a primal active set (QP10) [mine]: with Z w the only
// unknown, the objective is ½‖[T_τ Z; √ε Z] w + [τ₀; √ε p₀]‖², and p₀ itself (w = 0) is feasible, so
// the method (inequality_least_squares.hpp) starts there and never leaves the feasible set: it cannot
// end on a ray, as (QP3)'s dual LCP did by Lemke (22 rows on 6 dimensions on four feet: a degenerate
// dual; certificate 2.2e-6 > 1e-6 at the step where Stage I's vertex squeezed the feet).
// Its answer is accepted only with its KKT certificate (ILS3); else Stage I's p₀ stands, a Fallback
// whose message says why.
//
// Exactly duplicated contacts (QP9) [mine]. Contacts with the same rows of J, the same φ and μ (the
// bench's n/4 copies per foot) have the same columns in T_τ and in every row of (QP3) but their own
// p_N ≥ 0 and pyramid: Stage II is solved on one representative per group, whose p is the group's sum
// (the sum of pyramids at one point is the pyramid of the summed p_N; the budget and gap rows see only
// the sum, ℓ_p being equal for equal columns), and the result is split evenly among the copies. On the
// representatives T_τ Z is again injective, so ε does not carry the split.
//
// The budget [mine]. The twin forward model (max_dissipation.hpp MD4–MD5, seed 002) caps phase II's normal
// impulses by κ = Σ p_N of its frictionless phase I at the applied τ; seed 004's Stage I has no such cap,
// and without it the ID buys friction with normal impulse the simulator never applies. κ depends on
// the τ being computed; iterating on its value (κ_k → τ_k → κ_{k+1}) diverges on the quadruped (κ
// falls each round until Stage I is infeasible). On phase I's active set A, though, κ is affine in z:
//   κ(z) = κ_c + gᵀz,  κ_c = −uᵀ(N_A v_c + φ_A/dt),  gᵀ = −uᵀ N_A M⁻¹Pᵀ T_τ B,  u = (N_A M⁻¹N_Aᵀ)⁻¹1  (QP5)
// (phase I's LCP solved on A, with v*(τ) = v_c + M⁻¹Pᵀ T_τ B z by ID2–ID3). The iteration is over A:
// start from the active set of the ID's frictionless impulses (at their τ the forward phase I has the
// same solution, so z = those impulses meets (QP5) with equality: Stage I is feasible), solve, run
// phase I at the new τ, and stop when its active set is A (at most kBudgetIterations; else Fallback).
//
// Cycles of the active set (QP8) [mine]. Phase I's impulses are piecewise affine in τ, and Stage I's τ may
// land where two active sets meet: the four-foot stance alternates {LF, RF, LH} → {RF, LH, RH} → {LF, RF, LH}
// (two diagonal feet trading the frictionless support; measured, RightInverse id_qp_coulomb_FourFeetSticking
// step 6), and no iterate has A(τ(z)) = A. What the right inverse needs of the budget is its value only: at
// fixed τ the row's gradient is −1_N (QP6's column), so an iterate z is the forward model's optimum up to the
// mismatch |κ_c + gᵀz − κ(τ(z))| of that one number. On a repeated set the union of the last two is tried
// (both diagonal feet loaded: the linearisation on the side of the kink the cycle straddles; the other
// choice, their intersection, led away to a two-foot set and 9e-3 rad/s on the same step); if no set
// settles, the solved iterate of least mismatch stands, reported as a Fallback with the mismatch
// (there: 6.6e-8 N·s, q̇_target met to 6.7e-6 rad/s, against 2e-5 N·s and 8.5e-4 rad/s for the last iterate).
//
// Stage I as an equilibrium (QP6) [mine]. The right inverse needs z to be the forward phase II's
// optimum at τ(z): its KKT conditions with τ held fixed, where the rows' gradients are those of the
// forward program (N M⁻¹JᵀB for non-penetration, −1 on p_N for the budget), not of the ID's:
//   ⎡ H           −F_Nᵀ  −A_μᵀ   1_N      ⎤ ⎡ z   ⎤   ⎡ c            ⎤
//   ⎢ A_N           0      0      0       ⎥ ⎢ y_N ⎥ + ⎢ N v_c + φ/dt ⎥  ⊥ ≥ 0,   F_N = N M⁻¹JᵀB  (QP6)
//   ⎢ A_μ           0      0      0       ⎥ ⎢ y_μ ⎥   ⎢ 0            ⎥
//   ⎣ gᵀ − 1_Nᵀ     0      0      0       ⎦ ⎣ y_b ⎦   ⎣ κ_c          ⎦
// With y_N = y_b = 0 it is (QP2) without the budget, the convex program. It is not monotone (F_N ≠ A_N,
// g ≠ 0), so Lemke may end on a ray; then the convex program with the same rows (the ID's gradients,
// F_N → A_N and 1_N → 1_N − g: monotone, always solved) stands, which is the right inverse only where
// y_N = y_b = 0 (the tests measure how close it comes).
//
// The budget as one number (QP14) [mine]. The forward model sees κ only as a value: with the budget row's
// value held at a constant κ̄ (gradient −1 on p_N as before), (QP6) is the forward phase II's optimality at
// τ(z) with budget κ̄, and z is the right inverse exactly when h(κ̄) = κ(τ(z(κ̄))) − κ̄ = 0 (or the row is
// slack, y_b = 0, with Σ p_N ≤ κ(τ)). Every solved iterate of the set loop is a sample of h: its z meets
// (QP6) with κ̄ = κ_c + gᵀz as a constant (same rows, same complementarity). κ(τ) is continuous and
// piecewise affine in τ (phase I's LCP has a P-matrix), so where the set cycles (QP8) the kink lies between
// samples of opposite sign, and regula falsi on κ̄ (Illinois) finds the root on the piece it lies on; where
// (QP6) ended on a ray on the last set, earlier samples may still bracket it. The root's (QP6) is then
// re-linearised on its own phase I set for Stage II. No bracket, a ray at κ̄, or no root in
// kBudgetRootEvaluations: as before (QP8's best iterate or the convex stand-in, a Fallback).
//
// QP,∞'s least-torque term (QP15) [mine]. With μ_∞ = 100 the optimal face of (QP1) on four feet holds
// squeezes up to 100 p_N (ker U JᵀB), along which the objective is flat or moves only by the actuator work
// cᵀx; Lemke ends on a vertex of that face at the pyramid's boundary (|p_t| 1–2 N·s against Σ p_N 0.047 N·s,
// τ 317 N·m past the 20 N·m effort limit) whose facet multipliers the slab (QP7) then keeps binding, so
// Stage II cannot leave it. QP,∞ adds ½w‖τ(z)‖² to (QP1) (H += w BᵀT_τᵀT_τB, c +=
// w BᵀT_τᵀτ_c): on the face the least-‖τ‖ point wins before any vertex is reached. It perturbs (QP6)'s
// stationarity by w BᵀT_τᵀτ, so the answer is certified against (QP6) without the term (ρ ≤ Lemke's
// tolerance), else reported as a Fallback with the residual. QP,μ is left as it is (its squeezes are
// bounded by μ ~ 1 and its answers are Stage I's own).
//
// The forward twin as the last resort (QP16) [mine]. Where phase I's set does not settle and the budget has
// no root (QP8, QP14: two solutions of (QP6) at one κ̄, or a squeeze that keeps κ(τ) ahead of κ̄; the arm
// holding its box), Stage I's z is not the forward model's answer at τ(z). The forward
// max_dissipation's v⁺ is unique at every τ, so the right inverse is a root of P v⁺(τ) = q̇_des, which
// Newton on the twin itself finds from the (Stage II) τ (forward_twin.hpp FT1–FT2). QP,μ only; accepted
// when the twin's own solve at the last τ meets q̇_des, and the call then reports the twin's impulses (still
// a Fallback: the equilibrium route failed); when Newton stalls above its stop at the twin's noise but below the
// error of Stage I/II's τ (as the twin measures both), the twin's last τ is kept (a Fallback that says both errors:
// the arm holding its box, portable build, step 24: 3.6e-6 against a stop of 3.4e-6, 1.7e-3 at Stage I's τ), else
// Stage I/II's answer stands.
//
// A fully driven island (QP17) [mine]. With every coordinate driven (P square: a fixed-base arm touching
// only static geometry), K = 0 (id_problem.hpp): v⁺ = v_c = q̇_des whatever p, D = J K Jᵀ = 0 and H = 0
// (notes 004 §6.14). (QP1) is then linear, cᵀz with c = Bᵀu, u = J v_c, and in a hold u is round-off:
// its optimum is a vertex chosen by the signs of that round-off, or none (the budget does not bound p_N:
// on one contact κ(τ(p)) = κ_c + p_N + g_tᵀp_t), and Lemke returns a vertex or a ray. The right inverse
// asks less of p than (QP1) does: p must be the forward program's optimum at τ(p) (QP6), and that
// program's gradient there is J v⁺ = u for every p. Where u vanishes on the contacts that are loaded
// (s = N v_c + φ/dt = 0, u = 0) and the others open (s > 0, reduced costs u_N + μ min_j u_tᵀd_j ≥ 0 with
// their pyramid multiplier), (QP6) holds with every multiplier y = 0, and only primal feasibility is
// left: every p with p = 0 on the open contacts, p in the pyramid on the touching ones and Σ p_N ≤ κ(τ(p))
// is a right inverse. Stage II's least ‖τ‖ among them is
//   minimise  ½‖τ_c + T_τ p‖² + ½ε‖p‖²   over the touching contacts' p
//   s.t.      p_N ≥ 0,  A_facet p ≥ 0 (FE2),  κ_c + (g_p − 1_N)ᵀp ≥ 0 (QP5 on phase I's set A)     (QP17)
// strictly convex in τ, whose feasible set moves continuously with the state (the table carries what
// of the arm's weight its pyramid and budget allow), solved by (QP10) from p = 0, which is feasible
// (κ ≥ 0). A is the touching set, then phase I's at the answer's τ until Σ p_N ≤ κ(τ) (else p = 0
// stands, a Fallback). "Touching" is s ≤ ε_v = tol·v̄, v̄ the velocity scale of the forward LCP (lemke.hpp
// L6); ρ, the largest |u| or |s| on a loaded contact (and −s, the open reduced costs' deficit elsewhere)
// over v̄, certifies y = 0: above tol the target moves or closes a contact (q̇_des off the reachable
// set, §4.5) and the call is a Fallback that still returns these impulses. Stage I alone
// (stage_two="false") is left as it is, to measure what (QP17) removes.
//
// Which points of the face Stage II may take (QP7) [mine]. Along ker(U JᵀB) the objective of (QP1) moves
// by cᵀx = v⁺ᵀJᵀB x = q̇_desᵀ P JᵀB x, the actuator's work: exact optimality keeps cᵀx = 0 and every row
// binding with a positive multiplier, a face chosen by which multipliers are positive — discontinuous in
// the state (in a hold q̇_des ≈ 0 and its sign picks the vertex), which made τ jump from step to step.
// What Stage II must keep is the right inverse: z must meet the forward model's KKT conditions (QP6) at
// τ(z). With Stage I's multipliers y held, the slacks of the non-penetration rows do not move along the
// face and every other complementarity product is linear in z, so the gap of (QP6) is
//   [z; y]ᵀ(A [z; y] + q) = ℓᵀz + const,   ℓ = r + a A_μᵀ y_μ + a y_b (g − 1_N),   r = (A x + q)_z
// (r: Stage I's reduced costs). Every term of ℓ is Bᵀ of a vector in p (r = Bᵀ(J v⁺ − J M⁻¹Nᵀy_N) − a
// A_μᵀy_μ + a y_b 1_N in (QP6), g = Bᵀg_p), so ℓ = Bᵀℓ_p with ℓ_p = (B Bᵀ)⁻¹B ℓ (B Bᵀ is diagonal: 1 on
// the N rows, k/2 on the S, T rows of a contact with edges) and the gap is ℓ_pᵀp + const in p.
// Stage II admits the points whose gap exceeds Stage I's by at most δ. A gap δ in the forward program's
// KKT conditions bounds its objective's excess by δ, and that objective is ½‖v⁺‖²_M: the forward v⁺
// may then differ from the predicted one by √(2δ/m) at the LCP's own impulse-per-velocity scale
// m = ‖x‖∞/‖q‖∞. Stage I is certified to velocities within tol·‖q‖∞ (lemke.hpp L6); asking the same of
// Stage II gives
//   δ = ½ tol² ‖x‖∞ ‖q‖∞.
// (Measured: δ = tol·‖x‖∞‖q‖∞, the gap L6 grants one complementarity product, lets three sticking feet
// miss q̇_target by 2.1e-4 rad/s; with ½tol² they meet it as Stage I does.) p₀ lies strictly inside the
// slab ℓ_pᵀ(p − p₀) ≤ δ, so the feasible set moves continuously with the data, and with the strictly
// convex objective so does the minimiser: where the actuator work along the face is below δ (a hold),
// the whole face is open and τ is the least-norm one; where it is larger, the face narrows smoothly.
// The result's τ is checked against phase I itself (the budget is affine only on A): Σ p_N ≤ κ(τ), else
// Stage I stands (a fallback).
//
// Stage II on phase I's set (QP18) [mine]. Where Stage I's budget binds (y_b > 0), the twin repeats its
// prediction only while its own budget binds at Stage II's τ, y_b(κ(τ) − Σ p_N) = 0, and (QP5)'s row is
// κ(τ) only on phase I's set A: off A, κ(τ) exceeds the linearisation and Stage II's answer was refused
// (measured: RightInverse id_qp_noslip four feet, id_qp.cpp). Phase I's solution on A is affine in p
// (τ = τ_c + T_τ p, v*(τ) = v_c + M⁻¹Pᵀ T_τ p):
//   p^I_A(p) = −S_A⁻¹(r_A + E_A p) ≥ 0,   w_i(p) = r_i + E_i p + (N M⁻¹N_Aᵀ)_i p^I_A(p) ≥ 0  (i ∉ A),
//   S_A = N_A M⁻¹N_Aᵀ,  E = N M⁻¹Pᵀ T_τ,  r = N v_c + φ/dt                                          (QP18)
// — the region of τ where phase I's LCP has the set A, on which (QP5) is exact. Where Stage II left the
// budget slack, it is solved again with these nc rows added to (QP3); p₀ meets them (Stage I settled on A),
// so w = 0 stays feasible. The check above stays as the certificate: where the retry still leaves the
// budget slack (A from a non-settled iterate, QP8), Stage I stands (a Fallback). Only as a retry, so that
// calls Stage II answered already keep their answer. Not with copies (QP9), whose S_A is singular.
//
// The warm start across calls (QP19) [mine; seed 004 §4.6 warm-starts its no-slip solver from the last step]. A
// controller calls the ID once per step on nearly the same problem, and where phase I's set settled on the same
// contacts the last call's answer names both the set A to start the loop from and a complementary basis of
// (QP6): the support of its [z; y]. Before Lemke on (QP6), the least-norm correction on that basis is tried
// (contact/solvers/guessed_basis.hpp GB1) and accepted only by Lemke's own certificate (L6) at the same
// tolerance: then the call makes 0 pivots, and its answer is an LCP solution Lemke would have accepted, on
// the same optimal face (possibly another point of it, which Stage II's least ‖τ‖ then chooses among as
// before). Kept only where the set loop itself settled on (QP6) (not by QP14's root, nor on the convex
// stand-in), and used only on the same contacts (nc, ContactProblem::keys in order, the same LCP size).
// A warm loop that does not settle on (QP6) is discarded and the call runs cold from the frictionless
// impulses' set, as without the warm start: where the set cycles (QP8) every call is the cold one.
#pragma once

#include <limits>
#include <type_traits>
#include <vector>

#include "contact/parked_by_count.hpp"
#include "contact/solvers/guessed_basis.hpp"
#include "contact/solvers/lemke.hpp"
#include "control/inverse_dynamics/forward_twin.hpp"
#include "control/inverse_dynamics/friction_edges.hpp"
#include "control/inverse_dynamics/id_solver.hpp"
#include "control/inverse_dynamics/impulse_memory.hpp"
#include "control/inverse_dynamics/inequality_least_squares.hpp"
#include "control/inverse_dynamics/least_torque.hpp"

namespace impetus {

struct IdQpOptions {
  bool unbounded_friction = false;   // true: QP,∞ (id_qp_noslip): every contact's μ is mu_infinity
  double mu_infinity = 100;          // μ standing for ∞ (the paper's "μ = ∞" runs: μ = 100); > 0
  int friction_edges = 4;            // k of the pyramid, as max_dissipation's friction_edges (3 … 16)
  bool stage_two = true;             // false: Stage I alone (to measure the chatter Stage II removes)
  bool forward_twin = true;          // QP,μ: where Stage I did not settle, τ by Newton on the twin (QP16)
  bool warm_start = true;            // start from the last call's settled set and (QP6) basis (QP19)
  LemkeOptions lemke;
};

/// What the last call did, stage by stage.
struct IdQpReport {
  int nullspace_dimension = 0;       // dim W of (QP3)
  int budget_iterations = 0;         // iterations over phase I's active set (QP5)
  double kappa = 0;                  // κ(τ) of phase I at the final iterate (N·s)
  double budget_mismatch = 0;        // |κ_c + gᵀz − κ(τ(z))| of the returned iterate (QP8), 0 when A settled
  bool stage_two_run = false, stage_two_accepted = false;
  bool stage_two_left_budget = false;   // a Stage II left the budget Stage I binds slack (refused)
  bool stage_two_on_set = false;        // Stage II retried on phase I's set A (QP18)
  int stage_one_pivots = 0, stage_two_pivots = 0;   // Stage II: active-set iterations (QP10)
  double stage_two_stationarity = 0;                 // (QP10)'s KKT residual, relative (ILS3)
  double tau_norm_stage_one = 0, tau_norm_stage_two = 0;   // ‖τ‖ (impulse) before and after Stage II
  int budget_root_evaluations = 0;   // (QP14): Stage I solves at a constant budget κ̄
  double stage_one_residual = 0;     // QP,∞: ρ of (QP6) without the least-torque term at Stage I's point (QP15)
  bool twin_run = false, twin_accepted = false;   // (QP16): Newton on the forward twin tried / certified
  bool fully_driven = false;         // (QP17) answered the call (stage_two_*: its least squares)
  bool warm_start_tried = false;     // (QP19): the last call's set and basis were tried
  bool warm_start_used = false;      // (QP19): its basis met the certificate (Stage I's first solve: 0 pivots)
  bool warm_start_discarded = false; // (QP19): the warm loop did not settle on (QP6); the call ran cold
};

class IdQp final : public InverseDynamicsSolver {
 public:
  explicit IdQp(IdQpOptions options = {})
      : options_(options), lemke_(options.lemke), twin_(options.friction_edges) {}
  std::string_view name() const override { return options_.unbounded_friction ? "id_qp_noslip" : "id_qp_coulomb"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;
  const IdQpReport& last_report() const { return report_; }
  const PredictionMemory* memory() const override { return &kept_; }
  void restore_memory(const PredictionMemory& memory) override { kept_ = memory; }

 private:
  /// κ(z) = κ_c + gᵀz of (QP5) on phase I's active set.
  void linearize_budget(const ContactProblem& cp, const std::vector<char>& active);
  /// (QP18): phase I's region of budget_set_ as rows region_G_ p + region_h_ ≥ 0 (nc × 3nc).
  void phase_one_region(const ContactProblem& cp);
  /// Stage I, the equilibrium LCP (QP6); z: (nz).
  LemkeResult stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, bool convex, Eigen::VectorXd& z);
  /// (QP6)'s A_ and q_ (the budget κ_c + gᵀz, or the constant fixed_budget_ when finite: QP14).
  void assemble_stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, bool convex);
  /// (QP14): the root κ̄ of κ(τ(z(κ̄))) = κ̄ by regula falsi (Illinois) on the bracket [lo, hi] of the
  /// samples; leaves the root's z, its (QP6) in A_, q_, x_ linearised on its phase I set. True when found.
  bool solve_budget_root(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z, LemkeResult& result,
                         InverseDynamicsSolution& solution);
  /// (QP6), else its convex stand-in.
  LemkeResult solve_stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z);
  /// The forward phase I at the actuator impulse τ: κ(τ) = Σ p^I and its active set.
  double phase_one(const ContactProblem& cp, const Eigen::VectorXd& tau, std::vector<char>& active);
  /// The set loop (QP5, QP8) from phase I's set `active_`: Stage I solved into z and result, over the sets
  /// it visits; true when phase I's set settled.
  bool set_loop(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z, LemkeResult& result,
                InverseDynamicsSolution& solution);
  /// group_[c]: the first contact with c's rows of J, φ and μ (QP9); c itself if none.
  const std::vector<int>& duplicate_groups(const ContactProblem& cp);
  /// Stage II (QP3, QP7, QP9, QP10) from Stage I's p_ = B z and LCP (A_, q_, x_); p_: Stage II's on success.
  /// on_set: with phase I's region of A as rows (QP18), the retry where the first left the budget slack.
  bool stage_two(const InverseDynamicsProblem& problem, const ContactProblem& cp, SolverStatistics& stats,
                 bool on_set = false);
  /// (QP17), every coordinate of the island driven: least ‖τ‖ over the impulses of the contacts at rest
  /// (id_qp_fully_driven.cpp); the whole call.
  void solve_fully_driven(const ContactProblem& cp, InverseDynamicsSolution& solution);

  IdQpOptions options_;
  LemkeSolver lemke_;
  InequalityLeastSquares least_squares_;
  ForwardTwin twin_;   // (QP16)
  ActuatedElimination elimination_;
  FrictionEdges edges_;
  IdQpReport report_;
  Eigen::MatrixXd A_;   // (QP6)'s matrix: plain, as GuessedBasis::solve takes it
  // H = Bᵀ D B (nz × nz), D B (3nc × nz), F_N = N M⁻¹Jᵀ B (nc × nz): views of grow-only storage (grow_only.hpp)
  MatrixView H_{nullptr, 0, 0}, DB_{nullptr, 0, 0}, F_N_{nullptr, 0, 0};
  Eigen::VectorXd H_storage_, DB_storage_, F_N_storage_;
  Eigen::VectorXd q_, x_, p_, g_, gp_;   // g_ = Bᵀ gp_ (QP5)
  double kappa_c_ = 0;
  std::vector<char> budget_set_;   // phase I's set A that (QP5) is linearised on
  Eigen::MatrixXd region_G_;       // (QP18)
  Eigen::VectorXd region_h_;
  double fixed_budget_ = std::numeric_limits<double>::quiet_NaN();   // (QP14): κ̄ when finite
  double torque_weight_ = 0;   // w of (QP15); 0 for QP,μ
  MatrixView TB_{nullptr, 0, 0};   // T_τ B (QP15), na × nz
  Eigen::VectorXd TB_storage_;
  Eigen::VectorXd tau_z_, certificate_w_, certificate_q_;   // (QP15)'s certificate: T_τ B z, w and q of (QP6)
  struct BudgetSample {
    double budget, excess;   // κ̄ = the budget row's value at z, and h = κ(τ(z)) − κ̄ (QP14)
  };
  std::vector<BudgetSample> samples_;
  bool stage_one_convex_ = false;   // the last solve_stage_one fell back to the convex stand-in
  std::vector<int> group_;                   // (QP9)
  std::vector<std::vector<char>> visited_;   // phase I's active sets solved in this call (QP8)

  // Issue 16, no allocation once warm: H_, DB_, F_N_, TB_ and every temporary of a call are views of storage
  // grown only (the trot's contacts and the effort limits' driven joints change the sizes every few steps:
  // storage kept per shape allocated for each shape first met once warm); the plain vectors above are kept by
  // size, every size up to the most met made (contact/parked_by_count.hpp), and A_ per shape met. Each
  // statement computes what it computed into a fresh object, in the same order (a view has a fresh object's
  // layout and alignment: contact/solvers/grow_only.hpp).
  // The temporaries handed to functions that take a plain object stay plain, kept per shape met (a vector per
  // size: every size up to the most met, contact/parked_by_count.hpp).
  template <class Plain>
  struct PlainScratch {
    Plain x;
    std::conditional_t<Plain::ColsAtCompileTime == 1, ParkedByCount<Plain>, ParkedByShape<Plain>> sizes;
    Plain& operator()(Eigen::Index rows, Eigen::Index cols = 1) {
      sizes.fit(x, rows, cols);
      return x;
    }
  };
  template <class Plain>
  struct Scratch {
    using View = Eigen::Map<Plain, Eigen::AlignedMax>;   // grow_only.hpp's MatrixView or VectorView, or a row
    Eigen::VectorXd storage;                             // the largest rows·cols met
    View x{nullptr, Plain::RowsAtCompileTime == 1 ? 1 : 0, Plain::ColsAtCompileTime == 1 ? 1 : 0};
    /// The rows×cols temporary; contents unspecified. A row vector (1×cols) is laid out as grow() lays out a
    /// vector, which grow_only.hpp has no view type for.
    View& operator()(Eigen::Index rows, Eigen::Index cols = 1) {
      if constexpr (Plain::ColsAtCompileTime == 1) {
        grow(x, storage, rows);
      } else if constexpr (Plain::RowsAtCompileTime == 1) {
        if (storage.size() < cols) storage.resize(cols);
        new (&x) View(storage.data(), cols);
      } else {
        grow(x, storage, rows, cols);
      }
      return x;
    }
  };
  ParkedByShape<Eigen::MatrixXd> A_sizes_;
  // Vectors by their size (every size up to the most met: a size first met below it allocates nothing).
  ParkedByCount<Eigen::VectorXd> q_sizes_, x_sizes_, p_sizes_, g_sizes_, gp_sizes_, tau_z_sizes_, certificate_w_sizes_,
      certificate_q_sizes_;
  Scratch<Eigen::MatrixXd> S_, NMPt_, A_phase_, A_sym_, D_N_, H_sym_, TZ_, C_, NY_;
  PlainScratch<Eigen::MatrixXd> Jt_, Z_, Aw_, C_kept_;
  Scratch<Eigen::VectorXd> r_, u_, v_star_, tmp_q_, q_phase_, p_phase_, Jv_, pn_, qn_, p0_, tau0_, y_mu_, wq_, ell_, ell_p_, BBt_, budget_row_, d_, tmp_n_, tmp_a_, tmp_f_;
  PlainScratch<Eigen::VectorXd> mu_, c_, z_, bw_, d_kept_, w_, p2_, tau2_;
  Scratch<Eigen::RowVectorXd> Ni_, uN_, uNT_, row_;
  BySize<Eigen::LDLT<Eigen::MatrixXd>> ldlt_;
  UndrivenKernelWorkspace kernel_;
  std::vector<int> set_, copies_, free_, row_of_, facets_;
  std::vector<char> active_, next_, best_, has_friction_, active2_;
  std::size_t visited_count_ = 0;   // visited_'s first entries are this call's (the others kept for their storage)

  // (QP19): what the last call settled on (keys, set, lcp; p_N unused), valid for the same contacts only;
  // lcp empty: nothing kept. Part of restart points (memory()).
  PredictionMemory kept_;
  ParkedByCount<Eigen::VectorXd> kept_lcp_sizes_;
  GuessedBasis guessed_;
  bool try_kept_basis_ = false;   // the next non-convex (QP6) at a linearised budget tries kept_.x first
};

}  // namespace impetus
