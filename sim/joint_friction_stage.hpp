// Joint friction (seed 002 §5, QP4) as a stage of its own: for every contact model, after stage 4
// (dynamics) and before stage 5 (assembly), each tree's free velocity v* is replaced by the velocity
// that the tree's Coulomb joint friction leaves — the least kinetic energy its bounded joint impulses
// can reach (contact/joint_friction/joint_friction.hpp, JF1–JF4).
//
//   state → kinematics → collision → dynamics → [joint friction] → assembly → contact → integration
//
// Why here
//   • After dynamics: QP4 needs v* = (M + dt·D)⁻¹(M v + dt(τ − h)), which holds the step's gravity and
//     applied impulses; only against them can a joint whose friction exceeds its load stay at rest
//     (seed-002 notes §1.6). It needs the same H = M + dt·D that the stepper factored, so that the
//     friction impulse x enters exactly as the damping does: (M + dt·D) v⁺ = M v + dt(τ − h) + E_F x.
//   • Before assembly: every ContactProblem then starts from the friction-corrected v*, so the stage
//     works with every contact model without any of them knowing about it, and the contact stage's
//     energy checks (½v⁺ᵀMv⁺ against ½v*ᵀMv*) see what contact alone did.
//
// Coulomb and viscous parts. URDF <dynamics friction="μ_c" damping="μ_v">: the stepper already takes
// the damping implicitly (H = M + dt·D). That is the viscous law of seed 002 Eq. (6) integrated by
// implicit Euler — exact for the linear law and stable at any step — and it is what QP4's viscous
// bound μ_v|q̇| approximates ([002] §5: "exactly, for sufficiently small coefficients or step sizes").
// So the viscous part is reused, not added again: this stage bounds the impulses by the Coulomb part
// alone, β_i = dt·μ_c,i (a torque over the step; the sign typo and the missing dt of the printed
// QP4 are corrected in joint_friction.hpp). Adding dt·μ_v|q̇| to β would count the damping twice.
//
// What splitting costs. Joint friction is solved with this step's contact impulses unknown, and
// contact is then solved with the friction impulses fixed (operator splitting, first order in dt).
// When a contact loads a joint — a finger pressing on an object, a leg on the ground — the friction
// that the contact impulse would have called for is not there in this step: the joint can slip by up
// to dt·(contact impulse − friction bound)/H in a step where a joint solve would hold it, and the
// friction answers one step late. Energy is still never added (both stages are dissipative: x = 0 and
// p = 0 are feasible), and joints loaded only by gravity and actuators are exact. A joint solve would
// put the bounds |x_i| ≤ β_i into the contact model's own program, i.e. into every model.
#pragma once

#include "sim/step_data.hpp"

namespace impetus {

/// Replaces data.v_star, tree by tree, with the velocity after Coulomb joint friction (QP4). Needs
/// stage 4 in `data` (M_eff, M_llt, v_star). dt: the step (s). Trees without joint friction are not
/// touched. Allocates nothing once warm.
void apply_joint_friction(const WorldModel& model, double dt, StepData& data);

}  // namespace impetus
