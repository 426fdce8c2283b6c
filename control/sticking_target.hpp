// A closed-loop gait's velocity target made consistent with the contacts its ID holds sticking (seed 004
// §4.5, Eqs. 46–51).
//
// An ID call asks P v⁺ = q̇_des, q̇_des = q̇ + Δt q̈_cmd (Eqs. 38–39, the PD feedback inside q̈_cmd). With
// the gait's stance feet held and every leg joint driven, the base's six coordinates are over-determined
// (a diagonal pair of feet already fixes five), so q̇_des must agree with the contacts exactly: a rigid
// no-slip ID has no answer for a target that disagrees, and a Coulomb ID at μ = 100 answers with an
// internal squeeze. Measured on links_trot flat_noslip, the trot's second call (two feet down): the measured
// q̇ disagrees with sticking by 2.7e-11 m/s (the simulator's own no-slip answer, to its tolerance), and
// id_qp_coulomb, id_lcp_coulomb and id_qp_noslip all predicted 1770 N of tangential impulse per foot
// along the line between the two feet (25 N of load each) and τ 88 times the effort limit.
//
// So the target the ID sees is the nearest one its contacts allow, each sticking:
//   q̇* = P v̂,  v̂ = argmin ‖P v − q̇_des‖  over  J v = 0,   J = [N; S; T] of the ID's contacts
// seed 004 §4.5's least-squares problem with equality rows for every contact of the problem (a gait's ID
// problem holds the contacts closed, at rest and not let go of by the gait, sim/control_stage.cpp; a held
// foot is meant to stick) and without the dynamics, which leave the answer's
// q̇* reachable: the coordinates J and P leave free are the base's motions that move no held contact (two
// feet: turning about the line through them), which the ID's dynamics set. With Z a basis of null(J) (SVD;
// rank to kRankTolerance of the largest singular value), v = Z y, y = argmin ‖P Z y − q̇_des‖ (least
// squares), so a consistent target comes back unchanged to rounding and an inconsistent one loses only the
// part no sticking motion has.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/parked_by_count.hpp"
#include "control/inverse_dynamics/by_shape.hpp"
#include "control/inverse_dynamics/id_problem.hpp"
#include "control/inverse_dynamics/inequality_least_squares.hpp"

namespace impetus {

/// The buffers of make_sticking_consistent, held by its caller from call to call: while the problem's sizes
/// (contacts, rank of J) repeat, a call allocates nothing.
struct StickingTargetWorkspace {
  /// J and its SVD, for one shape of J (3 n_c × n_v).
  struct Svd {
    Eigen::MatrixXd J;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd;
  };
  /// P Z, its COD and the least-squares solve by the COD's factors (cod.solve() allocates its temporaries):
  /// Qᵀq̇_des, τ_k times the k-th reflector's essential part, the solution before the column permutation, y,
  /// and one coefficient of Householder workspace; for one shape of P Z (n_a × (n_v − rank J)).
  struct Cods {
    Eigen::MatrixXd PZ;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    Eigen::VectorXd c, tau_essential, unpermuted, y, householder;
  };
  ByShape<Svd> svd;
  ByShape<Cods> cod;
  // make_contacts_consistent's normal rows N (dense), their image N Z on null([S; T]) and bounds, its solver
  // (its [S; T] and SVD in svd, its P Z and y in cod).
  Eigen::MatrixXd N, NZ;
  Eigen::VectorXd gap;
  InequalityLeastSquares inequalities;
  // N (nc × nv) and the bounds (nc) at the other contact counts, made for every count up to reserve()'s bound
  // (issue 16: a count first met once warm then allocates nothing); N Z (nc × nz) by nc for each nz met, every
  // count up to the most met (reserving every nz ≤ nv would cost nv²/2 times N's memory).
  ParkedByCount<Eigen::MatrixXd> N_sizes, NZ_sizes;
  ParkedByCount<Eigen::VectorXd> gap_sizes;

  /// For problems of nv coordinates and up to most_contacts contacts.
  void reserve(int nv, int most_contacts) {
    N_sizes.reserve(most_contacts, nv);
    gap_sizes.reserve(most_contacts, 1);
  }
};

/// Replaces qd_des (na, problem.actuated's order) by q̇* above; unchanged when the problem holds no contact,
/// zero when its contacts hold every coordinate (null(J) = {0}).
void make_sticking_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& ws);

/// QP,∞'s target (id_qp_noslip): seed 004 §4.5 (Eqs. 46–51) as printed, the normal rows inequalities —
///   q̇* = P v̂,  v̂ = argmin ‖P v − q̇_des‖  over  S v = T v = 0 (contacts within touch_margin),
///                                              N v ≥ −max(φ, 0)/Δt (every contact)
/// — where make_sticking_consistent holds N v = 0 as well. A contact may open (a finger's feedback
/// lifting its tip off the box, a speculative contact closing its gap) but not press into its body or slip
/// while touching; QP,∞ answers exactly such targets (its p_N = 0 rows open, its μ_∞ rows stick), and the
/// equality form moved the arm's reachable targets (ArmHoldingABoxIsARightInverse: 2.2e-7 rad/s at step 1,
/// a tip the feedback opened held shut) onto another contact set. With Z a basis of null([S; T]) (SVD, as
/// above), v = Z y and y = argmin ‖P Z y − q̇_des‖ s.t. N Z y + max(φ, 0)/Δt ≥ 0 (inequality_least_squares.hpp,
/// from y = 0: feasible as φ⁺ ≥ 0; a penetrating contact is asked not to close further, its own separation
/// left to the ID's row N v⁺ ≥ −φ/Δt). Where that solve misses its certificate the equality form stands (its
/// v̂ has N v̂ = 0, feasible here). Unchanged without contacts; allocates in the inequality solve.
void make_contacts_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& ws);

}  // namespace impetus
