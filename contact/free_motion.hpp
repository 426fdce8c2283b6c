// Free motion as a contact problem's answer: v⁺ = v* with every impulse zero.
//
// It answers a model when v* violates none of the rows the model holds:
//     N v* + φ/dt ≥ 0,   L v* + φ_L/dt ≥ 0          every unilateral row separates, as computed        (FM1)
//     |S_i v*|, |T_i v*| ≤ tol·s_v                   no slip, to the certificate, where slip is held     (FM2)
// with s_v the projection's velocity scale (UP2) and tol its certificate tolerance. At z = 0 the LCP
// 0 ≤ z ⊥ U v⁺ + b ≥ 0 of every model holds exactly by (FM1), ρ = 0. no_slip's equalities G v⁺ = 0 (NS2) are
// certified by (FM2) on its sticking contacts, as any answer of its general path is. Viscous friction's
// (V1) v_f = v* − dt W⁻¹ K v*: backward Euler only slows a slip towards 0, so v* differs from v_f by at most the
// slip (FM2) bounds, below the certificate's resolution of velocities. max_dissipation's phase I at p = 0 (MD13) and
// stewart_trinkle's z = 0 (with λ_g the groups' free slip speeds) need (FM1) alone: Coulomb friction at p_N = 0 has
// nothing to act on. (Those two take it only without a guess, where the previous step left no impulse.)
//
// Why: a pile in free fall is an island of thousands of contacts the collision margin reports before they
// touch, its bodies moving together (their relative velocities zero up to rounding, 1e-17 m/s). Tested in
// one pass over the rows, its answer costs O(nnz), where no_slip's FIND-INDICES factored G W⁻¹ Gᵀ over every
// contact and the pivoting visited every normal row (granular under no_slip: 0.76 s a step).
#pragma once

#include <vector>

#include "contact/problem.hpp"

namespace impetus {

/// (FM1) Every contact's and joint limit's row separates under v*: N v* + φ/dt ≥ 0 and L v* + φ_L/dt ≥ 0.
bool every_row_separates(const ContactProblem& problem);

/// max |S_i v*|, |T_i v*| (m/s) over the contacts i with `held[i]` (nc entries), or over every contact when
/// `held` is empty; 0 when there is none, +∞ when one is not finite. (FM2) compares it with tol·s_v.
double largest_free_slip(const ContactProblem& problem, const std::vector<char>& held);

/// The velocity scale s_v of the projection's certificate (UP2) at free motion: max |U_u v*|, |b_u| over the
/// unilateral rows U = [N; L], b = [φ; φ_L]/dt, at least the smallest normal double. The equality rows' |G v*|
/// add nothing where (FM2) holds (they are ≤ tol·s_v < s_v).
double free_motion_velocity_scale(const ContactProblem& problem);

}  // namespace impetus
