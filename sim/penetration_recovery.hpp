// Penetration recovery without kinetic energy (after stage 7, integration): post-stabilisation of the
// configuration along the contact normals, Cline & Pai (2003), "Post-stabilization for rigid body
// simulation with contact and constraints", ICRA, §3–4.
//
// Why: the papers' gap row N·v⁺ ≥ −φ/dt (seed 004 Eq. 36) pushes a penetrating contact (φ < 0) out at
// a velocity −φ/dt that stays in the state: a contact first seen 2 cm deep at dt = 2 ms leaves at
// 10 m/s, and the contact stage adds kinetic energy that no model's dissipation can account for. So:
//
//   (R1) assembly (sim/assembly.cpp) enters each contact with max(φ, 0): N·v⁺ ≥ −max(φ, 0)/dt. A gap
//        still closes within the step at most; a penetration is no longer pushed out by the velocity,
//        and every model's normal impulse then does work p_N·N·v⁺ = −p_N·max(φ, 0)/dt ≤ 0.
//   (R2) after integration, the penetration at q⁺ is removed by a displacement δ of the configuration
//        (not of the velocity), the smallest in the kinetic-energy metric M(q⁺): Cline & Pai's
//        post-stabilisation, with the contacts detected again at q⁺ (gaps φ⁺, rows N⁺ at q⁺):
//
//          δ = argmin ½ δᵀ M δ   s.t.   φ⁺ + N⁺ δ ≥ 0                                                 (R2)
//
//        over the contacts that penetrate (φ⁺ < −kRecoverySlop) and those within the deepest
//        penetration of touching (the correction may close them). Its KKT conditions are the LCP
//
//          λ ≥ 0,  w = A λ + φ⁺ ≥ 0,  λᵀ w = 0,   A = N⁺ M⁻¹ N⁺ᵀ,   δ = M⁻¹ N⁺ᵀ λ                   (R3)
//
//        solved by projected Gauss–Seidel to kRecoveryTolerance. q⁺ ← q⁺ ⊕ δ (the exponential map of
//        dynamics/integration.hpp with δ in place of dt·v), repeated at most kRecoveryPasses times
//        (each a linearised projection, exact for translating face contacts); what remains after the
//        last is removed the next step. v⁺ is not touched, so the recovery adds no kinetic energy; it lifts
//        bodies out of each other, which gives back the potential energy the penetration had taken.
//        Detecting at q⁺ (a second collision pass per step, measured in README) is what makes the
//        state at the end of each step free of penetration: a contact whose normal turns within the
//        step (a box tumbling onto an edge of another) is not seen by the rows of the step's start.
//   (R4) That pass is skipped when a certificate shows it has nothing to correct. With D_g the farthest
//        any point of geometry g moved within the step (its rigid motion ΔX = X_WG(q⁺) X_WG(q)⁻¹ applied
//        to the sphere (c, ρ) holding g: D_g ≤ |ΔX c − c| + 2 sin(θ/2)·ρ, θ the angle of ΔX) and s_g
//        its sweep in the step's collision stage (collision/collision_detector.cpp, speculative contact):
//
//          D_g ≤ s_g + m/4 for every geometry g,   and   φ − D_ab ≥ −kRecoverySlop for every contact  (R4)
//
//        of the step's collision stage that (R2) would correct, m the collision margin. The first makes every
//        pair that can come within m/2 of touching at q⁺ one that the collision stage reported (the others
//        were farther apart than m + s_a + s_b; the m/4 is for round-off: a body in free fall moves by its
//        s_g = dt(|v| + |g|dt) exactly, up to the last bits, and m/2 is left for the gaps' accuracy); the second bounds each reported pair's gap at q⁺ from below, a signed distance moving
//        by at most the displacement of the two surfaces: D_ab = D_a + D_b, or less, how far the relative
//        motion R = ΔX_b⁻¹ΔX_a moves a's sphere (or R⁻¹ b's), since the pair at q⁺ is congruent to (R A, B);
//        bodies falling together move their gaps by nothing. Both hold for bodies at rest (D_g ~ dt·|v⁺|,
//        s_g ≥ |g|·dt²), so resting scenes pay one forward kinematics per step instead of a collision
//        pass; a moving contact (D_g > φ) or a body the contact stage sped up (D_g > s_g) takes the pass.
//        The certificate rests on the collision stage's gaps being the pairs' signed distances to its
//        accuracy (collision/manifold.hpp); it trusts nothing of the contact solve.
//
// The ECP model's hull bodies (contact/ecp/ecp_model.hpp) are corrected like every other body, their
// ground contacts included: the model's q⁺ meets its own gap row (E6′), which, like (R1), keeps a depth the
// hull has at t instead of pushing it out; a converged step that starts without penetration ends without
// it (the hull is the body's, so FCL's contacts at q⁺ find nothing deeper than the slop), and what a step
// that starts at depth, or a failed solve, leaves is removed here. ecp::kGapFloorSlop equals kRecoverySlop:
// the depth (E6′) leaves to (R2) is exactly the depth (R2) corrects.
// A compliant pair's contacts are not corrected: their penetration is the spring's (contact/compliance.hpp).
// Joints a <controller> drives keep their coordinates (δ = 0 on them; (R2) is solved over the rest, with
// the block of M over the rest as metric): their motion is the controller's to decide, and the
// inverse-dynamics controllers prescribe it within the step (P v⁺ = q̇_target, seed 004's right inverse).
// A correction there that the controller does not predict is a tracking error of the next step, which
// sticking contacts need not allow: a quadruped standing 1.6e-7 m deep under id_lcp_noslip had its four
// legs bent by ~1e-6 rad, not quite alike, and the no-slip ID found q̇_des inconsistent with its stuck
// feet (seed 004 §4.5), fell back to τ_c and let the body sink. With the joints held, the body is lifted.
// A tree every coordinate of which is held (a fixed-base arm under a controller) is not moved.
//
// Mimic joints and joint limits. (R2) is solved over each tree's independent coordinates u (dynamics/
// mimic.hpp (1), v = G u): δ_v = G δ_u, metric GᵀMG, rows N⁺G, as the dynamics does (mimic.hpp (2)); a
// follower's q_m = g·q_r + o is linear in q, so q⁺ ⊕ Gδ_u keeps it. q⁺ meets the limits when (R2) starts
// (dynamics/integration.hpp's project_onto_joint_limits); δ must keep them, else the next step's
// projection undoes part of δ and swings the links it moved back into the contact, deeper each step (a
// NAO's thumb under max_dissipation: (R2) turned light finger joints by up to 4.9 rad, past their limits,
// and the penetration grew to 4.6 mm). So (R2) with the limits of the 1-DoF columns c of u as rows:
//
//   δ_u = argmin ½ δ_uᵀ GᵀMG δ_u   s.t.   φ⁺ + N⁺G δ_u ≥ 0,   u_c − ℓ_c + δ_c ≥ 0,   h_c − u_c − δ_c ≥ 0    (R6)
//
// (ℓ_c, h_c: mimic.hpp's u_lower, u_upper), whose KKT conditions are (R3) with B = [N⁺G; L] for N⁺,
// L's rows ±e_cᵀ, and the limits' gaps appended to φ⁺:
//
//   λ ≥ 0,  w = B (GᵀMG)⁻¹ Bᵀ λ + [φ⁺; u − ℓ; h − u] ≥ 0,  λᵀ w = 0,   δ_u = (GᵀMG)⁻¹ Bᵀ λ             (R7)
//
// A limit that (R3)'s solution meets does not bind: that δ with λ_L = 0 meets (R7) (w_L ≥ 0), and (R6) is
// strictly convex, so it is (R6)'s solution. Hence an active set that grows: (R3) first; each limit row
// that δ violates is added and (R7) solved again (at most one round per limit); a step where no limit
// binds gives (R3)'s numbers bit for bit. The limit rows are the last of each Gauss–Seidel sweep; what
// the tolerance leaves of their violation (≤ kRecoveryTolerance) is put on the limit by
// project_onto_joint_limits, and a contact that only a joint beyond its limit could clear keeps the rest of its
// penetration (reported as the next step's max_penetration).
#pragma once

#include "collision/collision_detector.hpp"
#include "sim/step_data.hpp"

namespace impetus {

/// Penetration (m) below which a linearised gap φ⁺ is not corrected: round-off of φ⁺ = φ + dt·N v⁺
/// for resting contacts (φ and dt·N v⁺ each ≲ 1 m, so a few 1e-16 relative each), far below any
/// penetration the collision stage reports (its manifolds are accurate to ~1e-9 m).
constexpr double kRecoverySlop = 1e-9;
/// Violation of (R3) (m) at which Gauss–Seidel stops: a thousandth of the 1 mm penetration bound.
constexpr double kRecoveryTolerance = 1e-6;
/// Gauss–Seidel sweeps at most; a stack whose violation has not met the tolerance by then keeps the rest
/// of its correction for the next step (each sweep reduces the violation; none adds energy).
constexpr int kRecoveryMaxSweeps = 200;

/// Projections (R2) per step at most, each detecting again at the q⁺ the last one left. The first is
/// exact for translating face contacts; the second always follows a first that corrected something and
/// removes what a turning contact (a normal that turned within the step, a new feature pair) left of it;
/// further passes follow only while the last found a penetration deeper than kRecoveryTolerance. Why more
/// than two: a box edge entering a face is reported as one point (collision/manifold.hpp (M5)), and lifting
/// that point in the M metric tilts the box about it, so the rest of the edge stays in: measured on
/// scenes/fast_drop.xml (box on box at 9 m/s), 12.4 → 4.5 → 1.6 → 0.56 → 0.22 mm over five passes, a
/// ratio of ≈ 0.37 per pass. Eight passes take 12 mm below 20 µm; what is left is removed the next step.
constexpr int kRecoveryPasses = 8;

/// What (R2) may move: every coordinate but those a controller drives.
struct RecoveryScope {
  std::vector<char> held;                   // (nv) driven by a <controller>: δ = 0
  std::vector<char> held_column;            // (nv) entry v_offset + c: column c of the tree's u is held
  std::vector<int> free_coordinates;        // (trees) columns of u not held; a tree with none is not moved
  std::vector<int> q_index_of;              // (nv) q index of a 1-DoF joint's coordinate, else −1

  RecoveryScope() = default;
  explicit RecoveryScope(const WorldModel& model);
};

/// Moves data.q_plus out of penetration by (R2). Overwrites data.multibody (kinematics at q⁺ through
/// kinematics_at, sim/step_kinematics.hpp, and M at q⁺, which the next step recomputes) and data.recovery.
void recover_penetration(const WorldModel& model, CollisionDetector& detector, const RecoveryScope& scope,
                         StepData& data);

}  // namespace impetus
