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
// it be constant). So every S, T row is checked at v⁺, and a slip means q̇_des is inconsistent. Then
// the projection's τ is kept (a fallback with the reason): it holds the robot against the contacts
// the factor kept, and the forward step, which keeps the dropped rows too, moves the joints as little
// as they allow. (τ_c instead, as below, leaves every joint to the contact impulses: on LINKS standing
// under stewart_trinkle a round-off slip of 1e-7 m/s at 0.94 s gave τ = 0 and the stance folded.)
// The §4.5 check (Eqs. 46–51) for inconsistent desired accelerations: (NS-ID3) is infeasible when
// q̇_des demands a motion the no-slip contacts forbid (legs splaying while the feet stick). Principal
// pivoting then marks rows infeasible (or fails); instead of the paper's min ‖P v⁺ − q̇_des‖ the call
// falls back to τ = τ_c, the contact-free ID impulse, and predicts the impulses of the forward no-slip
// step under it (that is (NS-ID3) without the P rows from v_c): always feasible, τ is the paper's "τ = 0
// works" up to the feed-forward, and P v⁺ is then as close to q̇_des as the contacts allow in the M-norm
// rather than the Euclidean one. Counted as a fallback with the reason.
#pragma once

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

  IdLcpNoSlipOptions options_;
  BlockInertia M_inverse_;
  DelassusFactor factor_;
  FindIndicesResult indices_;
  std::vector<char> sticks_;               // (nc) the contacts locked, or empty for all
  UnilateralProjection projection_;
  UnilateralRows U_;
  SparseRows P_;
  Eigen::VectorXd v_f_, guess_, z_, lambda_G_;
  PredictionMemory memory_;            // last call's p_N by contact: the warm start of §4.6
  bool slipped_ = false;               // the last projection was solved but a dropped tangent row slips (NS-ID4)
  LeastTorqueSelection least_torque_;
  Eigen::MatrixXd Jt_;
  Eigen::VectorXd x_;
  std::vector<char> nonnegative_;
  std::vector<int> columns_;           // (m) the impulse component of each column of Jt_: i, nc + i, 2nc + i
};

}  // namespace impetus
