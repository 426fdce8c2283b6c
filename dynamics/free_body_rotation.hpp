// Free-body rotation by the implicit midpoint rule on Euler's equations (stage 4, dynamics).
//
// Semi-implicit Euler takes the gyroscopic torque ω × Iω at the start of the step, and the kinetic energy
// ½ωᵀIω and |L| = |Iω| of a torque-free body then drift (about 1 % within seconds for a body spinning
// near its intermediate axis at dt = 1 ms). For a free body (a one-link tree with a floating joint) we
// take instead the implicit midpoint rule of Simo & Wong (1991), "Unconditionally stable algorithms for
// rigid body dynamics that exactly preserve energy and momentum", Int. J. Numer. Meth. Eng. 31, §3
// (the midpoint rule on the body-frame Euler equations), as Bullet's implicit gyroscopic option does
// with a Newton solve:
//
//   I (ω* − ω) + dt · ω̄ × I ω̄ = dt · τ,      ω̄ = (ω + ω*)/2                                   (G1)
//
// with I the inertia about the centre of mass and τ the applied torque about it, all in the world axes
// of the body's pose at the start of the step (a fixed rotation of the body-frame equations, so (G1)
// is Simo & Wong's body-frame scheme written in fixed axes). For τ = 0 it conserves both quadratic
// invariants exactly: multiplying (G1) by ω̄ᵀ gives ½ω*ᵀIω* = ½ωᵀIω, and by (Iω̄)ᵀ gives |Iω*| = |Iω|.
// Stage 7 turns the body by exp(dt·[ω⁺]×), a rotation about ω⁺ itself, so the body-frame ω carries over
// to the next step unchanged and both invariants hold over any number of steps (up to round-off and
// the Newton tolerance below). Articulated trees keep the explicit bias h of RNEA.
//
// Newton on r(x) = I(x − ω) + dt·x̄ × Ix̄ − dt·τ, x̄ = (ω + x)/2, with the Jacobian
//   ∂r/∂x = I + (dt/2)([x̄]× I − [I x̄]×)                                                          (G2)
// converges quadratically from x = ω for dt·|ω| well below 1 (the step turns the body by less than a
// radian); it stops when |r| ≤ kRotationTolerance·(|Iω| + dt·|τ|) or after kMaxRotationIterations.
#pragma once

#include <Eigen/Dense>

namespace impetus {

/// Relative residual at which the Newton solve of (G1) stops: a few units of round-off of |Iω|.
constexpr double kRotationTolerance = 1e-15;
/// Newton steps of (G1) at most: from x = ω the error squares each step, and dt·|ω| < 1 reaches round-off
/// in at most 6; the bound only stops a pathological state (non-finite, or turning > 1 rad per step).
constexpr int kMaxRotationIterations = 20;

/// ω* of (G1). I_W: inertia about the centre of mass (world axes, symmetric positive definite);
/// omega: ω at the start of the step; tau: applied torque about the centre of mass without the gyroscopic
/// term (N·m). Returns the last Newton iterate.
Eigen::Vector3d implicit_midpoint_angular_velocity(const Eigen::Matrix3d& I_W, const Eigen::Vector3d& omega,
                                                   const Eigen::Vector3d& tau, double dt);

}  // namespace impetus
