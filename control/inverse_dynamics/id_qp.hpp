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
// feet: rank H ≤ nv − na = 6 for 12 impulse components), so Stage I's optimum is a face. Every optimum
// is z₀ + W w with W spanning {x : H x = 0, cᵀx = 0} (the objective and H z are constant on the face);
// H W = 0 ⇒ D B W = 0, so v⁺ and the rows N v⁺ + φ/dt do not move along it (the paper: "Z·ker(ZᵀAZ)
// = 0", so those n + 1 constraints are unnecessary). Stage II:
//   minimise  ½‖τ₀ + T_z W w‖² + ½ε‖w‖²   s.t.  z₀ + W w ≥ 0,  A_μ(z₀ + W w) ≥ 0              (QP3)
// T_z = T_τ B (ID2), ε = kStageTwoRegularization·‖T_z W‖² makes the minimiser unique where τ does not
// depend on w (edges ±t of one contact both loaded). w is free: w = w⁺ − w⁻, and the KKT conditions are
// again a monotone LCP for Lemke. Eq. 112's expansion and the energy equality (108) are what (QP3)
// says with W already inside the optimal face. If Stage II fails, Stage I's z₀ stands (a fallback).
//
// The budget [mine]. The twin forward model (max_dissipation.hpp MD4–MD5, seed 002) caps phase II's normal
// impulses by κ = Σ p_N of its frictionless phase I at the applied τ; seed 004's Stage I has no such cap,
// and without it the ID buys friction with normal impulse the simulator never applies (on the leg of
// tests/control, sliding at 0.05 m/s with μ = 0.2, it predicts p_N = 0.086 N·s where the simulator
// applies 0.081 and misses q̇_des by 9 mm/s). So Stage I carries the same budget,
//   Σ p_N ≤ κ(τ),   κ(τ) = Σ LCP(N v*(τ) + φ/dt, N M⁻¹Nᵀ),   v*(τ) = v* + M⁻¹Pᵀτ           (QP4)
// (phase I of max_dissipation, MD2, at the τ being computed). κ depends on the τ it shapes, so it is
// found by fixed-point iteration: κ₀ from the ID's own frictionless problem (the LCP of (QP1) without
// friction), then Stage I with κ_k → τ_k → κ_{k+1} = κ(τ_k), until |κ_{k+1} − κ_k| ≤ kBudgetTolerance·κ
// (at most kBudgetIterations; otherwise the last iterate stands and the call counts a fallback).
//
// Right inverse: at fixed τ the forward phase II is (QP1) with M⁻¹ for K; both have the stationarity
// condition B ᵀJ v⁺ + multipliers = 0, and with the same budget the ID's point satisfies the forward
// program's optimality conditions whenever the non-penetration rows need no multiplier of their own
// (where the budget binds, it carries it). The tests measure how close the two come.
#pragma once

#include "contact/solvers/lemke.hpp"
#include "control/inverse_dynamics/friction_edges.hpp"
#include "control/inverse_dynamics/id_solver.hpp"

namespace impetus {

struct IdQpOptions {
  bool unbounded_friction = false;   // true: QP,∞ (id_qp_noslip): every contact's μ is mu_infinity
  double mu_infinity = 100;          // μ standing for ∞ (the paper's "μ = ∞" runs: μ = 100); > 0
  int friction_edges = 4;            // k of the pyramid, as max_dissipation's friction_edges (3 … 16)
  bool stage_two = true;             // false: Stage I alone (to measure the chatter Stage II removes)
  LemkeOptions lemke;
};

/// What the last call did, stage by stage.
struct IdQpReport {
  int nullspace_dimension = 0;       // dim W of (QP3)
  int budget_iterations = 0;         // fixed-point iterations of (QP4)
  double kappa = 0;                  // κ of (QP4) (N·s)
  bool stage_two_run = false, stage_two_accepted = false;
  int stage_one_pivots = 0, stage_two_pivots = 0;
  double tau_norm_stage_one = 0, tau_norm_stage_two = 0;   // ‖τ‖ (impulse) before and after Stage II
};

class IdQp final : public InverseDynamicsSolver {
 public:
  explicit IdQp(IdQpOptions options = {}) : options_(options), lemke_(options.lemke) {}
  std::string_view name() const override { return options_.unbounded_friction ? "id_qp_noslip" : "id_qp_coulomb"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;
  const IdQpReport& last_report() const { return report_; }

 private:
  /// Stage I (QP2) with the budget Σ p_N ≤ κ (κ = ∞: none); z: (nz).
  LemkeResult stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, double kappa, Eigen::VectorXd& z);
  /// κ(τ) of (QP4) for the actuator impulse τ.
  double phase_one_budget(const ContactProblem& cp, const Eigen::VectorXd& tau);
  bool stage_two(const Eigen::VectorXd& c, double kappa, Eigen::VectorXd& z, SolverStatistics& stats);

  IdQpOptions options_;
  LemkeSolver lemke_;
  ActuatedElimination elimination_;
  FrictionEdges edges_;
  IdQpReport report_;
  Eigen::MatrixXd H_, DB_, A_;
  Eigen::VectorXd q_, x_, p_;
};

}  // namespace impetus
