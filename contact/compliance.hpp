// Compliant contact: a spring–damper normal (stiffness k, N/m; damping b, N·s/m) in the velocity-level
// time-stepping of every model, as a regularised (soft) gap row.
//
// Over a step of length dt the spring–damper pushes with the force it has at the end of the step, on the
// penetration φ⁺ = φ + dt·N v⁺ and the normal velocity N v⁺ (implicit, so that a stiff ground is stable at
// any dt):
//
//   f = −k φ⁺ − b N v⁺,   p_N = dt·f   ⇔   N v⁺ + R p_N = −γ φ/dt                                   (C1)
//
//   with   R = 1 / (dt (k dt + b))   (1/kg: velocity per unit impulse),   γ = k dt / (k dt + b) ∈ (0, 1].  (C2)
//
// A ground pushes and never pulls, so (C1) holds while p_N > 0 and the row is the complementarity
//
//   0 ≤ p_N  ⊥  N v⁺ + R p_N + φ̃/dt ≥ 0,   φ̃ = γ φ for φ < 0,  φ̃ = φ for φ ≥ 0.                    (C3)
//
// At φ ≥ 0 the contact is speculative: nothing pushes until the step would end penetrating (the rigid
// row's φ/dt), and then the spring–damper acts on that penetration. As k → ∞ with b fixed, R → 0 and
// γ → 1: (C3) becomes the rigid row N v⁺ ≥ −φ/dt of seed 004 Eq. 36. At rest (N v⁺ = 0) a contact
// carrying the force f sits at φ = −f/k.
//
// This is the standard soft constraint: Catto's "soft step" (Box2D; GDC 2011, "Soft Constraints"), whose
// spring–damper gives the constraint-force mixing R and error reduction γ of ODE (CFM = R, ERP = γ); MuJoCo's
// solref/solimp give the same regulariser from a time constant and damping ratio.
//
// How every model receives it (sim/assembly.cpp): (C3) is the rigid row of a larger system. Give each soft
// contact i one more velocity coordinate w_i with mass 1/R_i and free velocity w*_i = 0, and its normal row
// a 1 in that column: N'_i v'⁺ = N_i v⁺ + w_i⁺, and the equation of motion of w_i is (1/R_i)(w_i⁺ − 0) = p_N,i,
// so N'_i v'⁺ = N_i v⁺ + R_i p_N,i exactly. The problem every model gets then has M' = blkdiag(M, R⁻¹),
// N' = [N  I], S' = [S  0], T' = [T  0] and gaps φ̃: an LCP model's Delassus block N' M'⁻¹ N'ᵀ = N M⁻¹ Nᵀ + R
// (the positive diagonal of (C3)), a QP over v⁺ gains ½ Σ w_i²/R_i (the regularised primal), an NCP the
// same rows — each model's own complementarity structure untouched, and no model edited. The w_i are
// discarded after the solve (½ R p_N² of the contact stage's kinetic energy: what the damper and the
// implicit step dissipate).
//
// A pair's k and b are the pair's (<ground>, <contact>), shared equally by the pair's contact points of the
// step, so that a body resting on a face sinks m g / k however many points the collision stage reports.
#pragma once

#include <cmath>
#include <limits>

namespace impetus {

/// A spring–damper surface: k in N/m (∞: rigid, the default), b in N·s/m (≥ 0).
struct SurfaceCompliance {
  double stiffness = std::numeric_limits<double>::infinity();
  double damping = 0;
  bool rigid() const { return std::isinf(stiffness); }
};

/// (C2) of one contact point: R (1/kg, the velocity per unit impulse), its inverse (the mass of the
/// contact's extra coordinate w) and γ (dimensionless).
struct SoftRow {
  double R = 0, mass = 0, gamma = 1;
};

/// (C2) for a contact point of stiffness k > 0 and damping b ≥ 0 (finite), step dt > 0.
inline SoftRow soft_row(double k, double b, double dt) {
  const double kdt_b = k * dt + b;
  return {1.0 / (dt * kdt_b), dt * kdt_b, k * dt / kdt_b};
}

/// φ̃ of (C3): the gap the soft row enters the problem with.
inline double soft_gap(double phi, const SoftRow& row) { return phi < 0 ? row.gamma * phi : phi; }

}  // namespace impetus
