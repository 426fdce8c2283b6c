// ID(t_i)_LCP,∞ — inverse dynamics with no-slip contact (seed 004 §4), `id_lcp_noslip`.
//
// Model (seed 004's boxed model of §4 and Eqs. 38–41, with id_problem.hpp's sign convention):
//   M v⁺ = M v* + Pᵀτ + Nᵀp_N + Sᵀp_S + Tᵀp_T                                               (NS-ID1)
//   P v⁺ = q̇_des,   S v⁺ = 0,   T v⁺ = 0,   0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0                        (NS-ID2)
// This is the KKT system of the strictly convex projection
//   v⁺ = argmin ½(v − v*)ᵀM(v − v*)   s.t.  P v = q̇_des,  [S; T] v = 0,  N v ≥ −φ/dt          (NS-ID3)
// with τ the multiplier of the P rows: the no-slip model's (NS4) (contact/no_slip) with the driven
// coordinates as extra equality rows whose targets are q̇_des instead of 0. So the ID is solved by the
// no-slip model's own machinery, with nothing copied:
//   1. the P rows enter the incremental Delassus factor first (always independent: P selects
//      distinct coordinates and M is SPD), target q̇_des;
//   2. FIND-INDICES (seed 004 Algorithm 1 = seed 000 Algorithm 2) appends the independent S, T rows;
//   3. the normal LCP — seed 004 Eqs. 44–45, Q = Cᵀ A⁻¹ C in the paper's App. C form — by the
//      warm-started principal pivoting method (Algorithm 2 of seed 004), never forming Q, with Lemke
//      on the dense Q as the fallback (contact/solvers/unilateral_projection.hpp);
//   4. τ = λ of the P rows, p_S, p_T = λ of the kept S, T rows (0 on dropped rows: App. E).
// Warm start (§4.6): the previous call's positive normal impulses of the same contacts (ContactKey),
// which saves pivots when the active set repeats.
//   5. [mine] Where the impulses are indeterminate (four feet down, or three with twelve driven joints:
//      P and the kept tangent rows span every DoF), principal pivoting returns a vertex — a touching
//      foot with p_N = 0 that the next round-off lifts, and a τ that jumps when the vertex changes
//      (measured on LINKS: the weight on two diagonal feet, swapped at 0.85 s, stance lost at 1.05 s).
//      Stage II (least_torque.hpp LT2): among the impulses of the same v⁺, the least-‖τ‖ one, unique
//      and continuous in the problem's data; option stage_two, as id_qp's.
//
// Right inverse: the forward `no_slip` step with τ applied solves (NS4) with v* + M⁻¹Pᵀτ, whose
// unique v⁺ is this one (the KKT points coincide), so P v⁺ = q̇_des; p_N is unique when the active
// normal rows are independent.
//
// Dependent tangent rows (NS-ID4) [mine]: seed 004 App. E drops the rows FIND-INDICES rejects because a
// homogeneous constraint c·v⁺ = 0 follows from the kept ones. With the P rows in the factor that is
// false: a dropped row is a combination of kept rows that may include P rows with targets q̇_des ≠ 0
// (two feet of a robot with prescribed joints: their distance is fixed by q̇_des, and no-slip demands
// it be constant). So every S, T row is checked at v⁺, and a slip means q̇_des is inconsistent (§4.5
// below). (Before the least-squares target, the projection's τ was kept there, and τ_c before that,
// which folded LINKS standing under stewart_trinkle at a round-off slip of 1e-7 m/s at 0.94 s: τ_c of
// a standing robot is ≈ 0. The closest consistent target is then q̇_des itself up to that round-off.)
// Near-dependent rows (NS-ID6) [mine]: the call keeps tangent rows only at sin²θ > 1e-6 (the twin's retry
// level, not its 1e-10) and checks the dropped ones by (NS-ID4): a row independent of the P rows only
// through the φ/2 lever of a contact point off the plane (a foot lifting inside the collision margin)
// demanded p_T ~ 800 N·s at 1e-10; now a target that misses it goes to §4.5, whose ID uses the twin's 1e-10.
// The §4.5 check (Eqs. 46–51) for inconsistent desired accelerations: (NS-ID3) is infeasible when
// q̇_des demands a motion the no-slip contacts forbid (legs splaying while the feet stick): principal
// pivoting marks rows infeasible (or fails), or a dropped tangent row slips (NS-ID4). The paper then
// asks for min ‖P v⁺ − q̇_des‖ over the contact constraints; here [mine, derived]:
//   F = { v : S v = 0, T v = 0 (locked contacts), N v ≥ −φ/dt },   C = P F (the consistent targets,
//   convex: (NS-ID3) is feasible exactly when q̇_des ∈ C)                                       (NS-LS1)
//   q̇′ = argmin_{y ∈ C} ½ (y − q̇_des)ᵀ G⁻¹ (y − q̇_des),   G = P M⁻¹ Pᵀ                       (NS-LS2)
// then the ID of the consistent target q̇′: τ and the impulses of (NS-ID3) with q̇′ for q̇_des, a right
// inverse of the forward step like any other call. The metric: ½ δᵀG⁻¹δ = min { ½ ΔvᵀMΔv : P Δv = δ },
// the kinetic energy of the least motion that carries a joint-velocity miss δ (the base moving freely),
// i.e. the paper's ‖P v⁺ − q̇_des‖ measured in M. It makes (NS-LS2) computable with the no-slip model's
// own projection: with A = { v : P v = q̇_des } and M-orthogonal projections Π_A, Π_F,
//   ‖v − Π_A v‖²_M = (P v − q̇_des)ᵀ G⁻¹ (P v − q̇_des),   Π_A v = v + M⁻¹PᵀG⁻¹(q̇_des − P v)        (NS-LS3)
// so (NS-LS2) is min_{v∈F} ½ dist²_M(v, A), whose gradient in the M metric is v − Π_A v (Lipschitz 1):
// projected gradient with step 1 is the alternating projection v_{k+1} = Π_F(Π_A v_k) (Cheney–Goldstein:
// it converges to a point of F nearest to A). From v_0 = v*, Π_A v* = v_c, so the first iterate is the
// forward no-slip step under τ_c (the contact-free ID): the earlier fallback is one step of this. Its
// rate is cos² of the angle between A and F's active face (measured: 48 steps for two legs of unequal
// feet, cos² = 2/3), so the proximal form is used instead: with W_s = M + (s − 1)PᵀG⁻¹P,
//   ‖v − c‖²_{W_s} = s (P(v − c))ᵀG⁻¹P(v − c) + ‖w(v − c)‖²_M,   w = I − M⁻¹PᵀG⁻¹P (P w = 0),       (NS-LS4)
// and for c = Π_A v_k (P c = q̇_des, w(c) = w(v_k)) the projection Π_F^{W_s}(c) minimises
// s·dist²(v, A) + ‖w(v − v_k)‖²_M over F: the proximal point step of (NS-LS2) with weight s, which
// converges to the same minimiser (any s > 0): 3–5 steps on the tests' problems (a few calls stop at
// the step cap, id_lcp_noslip.cpp kTargetIterations). The projection is the no-slip model's,
// in the metric W_s (applied by Woodbury, W_s⁻¹ = M⁻¹ − (1 − 1/s) M⁻¹PᵀG⁻¹PM⁻¹).
// Optimality of q̇′ (what the tests check): r = q̇_des − q̇′ satisfies rᵀG⁻¹(y − q̇′) ≤ 0 for every y ∈ C.
// Reported as a fallback, message "inconsistent target (least squares)" with ‖r‖. Should the iteration
// or the ID of q̇′ fail, τ = τ_c and the prediction of the forward step under it (the alternating
// projection's first iterate).
#pragma once

#include <Eigen/Cholesky>
#include <string_view>
#include <unordered_map>

#include "contact/no_slip/no_slip_model.hpp"
#include "contact/solvers/find_indices.hpp"
#include "contact/solvers/unilateral_projection.hpp"
#include "control/inverse_dynamics/id_solver.hpp"
#include "control/inverse_dynamics/impulse_memory.hpp"
#include "control/inverse_dynamics/least_torque.hpp"

namespace impetus {

struct IdLcpNoSlipOptions {
  ProjectionOptions projection;        // the no_slip model's solver options (projection_options.hpp)
  bool stage_two = true;               // least-‖τ‖ impulses where they are indeterminate (step 5)
  double equality_dependence_tolerance = NoSlipOptions{}.equality_dependence_tolerance;   // τ_G, as the twin's
};

class IdLcpNoSlip final : public InverseDynamicsSolver {
 public:
  /// The status message of a call that answered the closest consistent target (§4.5, NS-LS2) begins so.
  static constexpr std::string_view kLeastSquaresMessage = "inconsistent target (least squares)";

  explicit IdLcpNoSlip(IdLcpNoSlipOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "id_lcp_noslip"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;
  const PredictionMemory* memory() const override { return &memory_; }
  void restore_memory(const PredictionMemory& memory) override { memory_ = memory; }

 private:
  bool solve_projection(const ContactProblem& cp, bool with_p_rows, double tau_G, const InverseDynamicsProblem& problem,
                        InverseDynamicsSolution& solution);
  /// Step 5: the least-‖τ‖ impulses of solution.v_plus (least_torque.hpp).
  void stage_two(const ContactProblem& cp, const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution);
  /// Sizes stage_two()'s buffers, and the least-‖τ‖ selection's, for any contact set of up to the most contacts
  /// met (issue 16: a trot's contact set first met once warm reallocated each of them and its decompositions).
  void reserve_stage_two(int nc, int nv, int na);

  IdLcpNoSlipOptions options_;
  BlockInertia M_inverse_;
  const InertiaOperator* metric_ = &M_inverse_;   // the projections' metric: M (by blocks or dense, NS-SP1), or W_s (NS-LS4)
  Eigen::MatrixXd M_dense_inverse_;                // (nv×nv) M⁻¹ when formed (NS-SP1)
  Eigen::VectorXd dense_scratch_;
  DelassusFactor factor_;
  FindIndicesResult indices_;
  std::vector<char> sticks_;               // (nc) the contacts locked, or empty for all
  UnilateralProjection projection_;
  UnilateralRows U_;
  SparseRows P_;
  Eigen::VectorXd v_f_;
  // (nc + nl) the warm start and z = [p_N; p_L], (rows of the factor) λ_G: grow-only (grow_only.hpp).
  VectorView guess_{nullptr, 0}, z_{nullptr, 0}, lambda_G_{nullptr, 0};
  Eigen::VectorXd guess_storage_, z_storage_, lambda_G_storage_;
  /// §4.5 (NS-LS1–3): the ID of the closest consistent target; false when it does not settle.
  bool least_squares_target(const ContactProblem& cp, const InverseDynamicsProblem& problem,
                            InverseDynamicsSolution& solution);
  /// The ID of `problem` (NS-ID1–3) with the twin's FIND-INDICES retry (NS5).
  bool solve_with_retry(const ContactProblem& cp, const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution);

  PredictionMemory memory_;            // last call's p_N by contact: the warm start of §4.6
  bool slipped_ = false;               // the last projection was solved but a dropped tangent row slips (NS-ID4)
  LeastTorqueSelection least_torque_;
  // (nv×m, m) Jᵀ of the impulse components that may change and their values: views of storage sized by
  // reserve_stage_two() for up to 3 of the most contacts met.
  MatrixView Jt_{nullptr, 0, 0};
  VectorView x_{nullptr, 0};
  Eigen::VectorXd Jt_storage_, x_storage_;
  std::vector<char> nonnegative_;
  std::vector<int> columns_;           // (m) the impulse component of each column of Jt_: i, nc + i, 2nc + i
  int stage_two_most_nc_ = -1, stage_two_nv_ = -1;   // what reserve_stage_two() sized for
  // §4.5 (NS-LS): M⁻¹Pᵀ, G = P M⁻¹ Pᵀ, the iterate and the consistent target's problem.
  Eigen::MatrixXd Minv_Pt_, G_;
  Eigen::LLT<Eigen::MatrixXd> G_llt_;
  Eigen::VectorXd e_, column_, miss_, v_iterate_, scratch_;
  InverseDynamicsProblem target_problem_;
  std::string target_failure_;         // why the last least_squares_target returned false
};

}  // namespace impetus
