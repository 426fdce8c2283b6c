// The viscous model (viscous_model.hpp, V1–V3) for an island of one contact and no joint limit, in closed form
// on the 3×3 Delassus matrix (contact/one_contact_delassus.hpp): the small-island path of the model. The
// answer is measured by the general path's own certificate (UP2 on the normal row at the model's
// certificate_tolerance and velocity scale s_v); when it misses it, or the Schur complement below has lost its
// digits, the island takes the general path unchanged, so the path changes the cost and the rounding, never
// the model.
//
// Glossary (viscous_model.hpp and one_contact_delassus.hpp have the shared notation)
//   symbol  size   meaning                                                       code
//   ------  -----  ------------------------------------------------------------  -------------------
//   A, b    3×3, 3 G M⁻¹ Gᵀ and G v* of the rows G = [N; S; T]                    rows.W, rows.b
//   A_tt    2×2    the viscous rows' block of A (t = S, T)                       —
//   d       1      dt μ̃: the contact's viscous impulse per unit slip (N·s²/m)    d
//   H       2×2    I + d A_tt, symmetric with eigenvalues ≥ 1                   H
//   p_t⁰    2      −d H⁻¹ b_t: the friction impulse with p_N = 0                  p_t0
//   y       2      d H⁻¹ A_tN: the friction impulse's answer to a unit p_N (−)    y
//   F, e    1, 1   the normal LCP: F = A_NN − A_Ntᵀ y = N W⁻¹ Nᵀ,
//                  e = b_N + A_Ntᵀ p_t⁰ + φ/dt = N v_f + φ/dt                    F, e
//
// With one contact K = μ̃ G_tᵀ G_t, and (V1) in the contact's coordinates, with v⁺ = v* + M⁻¹Gᵀp and
// G v⁺ = b + A p, is p_t = −d G_t v⁺ = −d (b_t + A_tN p_N + A_tt p_t):
//     H p_t = −d (b_t + A_tN p_N),   p_t = p_t⁰ − p_N y                                           (VS1)
//     N v⁺ + φ/dt = e + F p_N,   0 ≤ p_N ⊥ F p_N + e ≥ 0:   p_N = max(0, −e/F)                     (VS2)
// This is the general path's (V3) on W = M + dt K written by Woodbury, W⁻¹ = M⁻¹ − M⁻¹G_tᵀ (I/d + A_tt)⁻¹
// G_t M⁻¹: v_f = W⁻¹ M v* = v* + M⁻¹G_tᵀ p_t⁰, W⁻¹Nᵀ = M⁻¹(Nᵀ − G_tᵀ y), so F = N W⁻¹ Nᵀ > 0 whenever A_NN > 0
// (W is SPD), and s_v = max(|N v_f|, |φ/dt|) is the general path's velocity scale (projection_velocity_scale).
// (V3) is strictly convex, so this v⁺ is the general path's. With μ̃ = 0, d = 0: H = I, p_t = 0, F = A_NN.
// The friction impulses the model returns are the general path's, −d S v⁺ and −d T v⁺ of this v⁺.
//
// Declined (general path): non-finite data or d, A_NN ≤ 0, F ≤ τ_dep·A_NN when p_N must be positive (F lost to
// cancellation what τ_dep, pivoting's dependence tolerance, resolves), or a missed certificate.
#pragma once

#include <Eigen/Dense>

#include "contact/one_contact_delassus.hpp"
#include "contact/problem.hpp"
#include "contact/solvers/projection_options.hpp"

namespace impetus {

/// The closed form's answer and its buffers (owned by the model's workspace; sized once warm).
struct ViscousSingleContact {
  double p_N = 0;                    // the normal impulse (N·s)
  double velocity_scale = 0;         // s_v of (UP2): max |N v_f|, |φ/dt|
  double residual = 0;               // ρ (UP2) of p_N on the normal row
  OneContactDelassus rows;           // A, b, M⁻¹Gᵀ

  /// Solves (V1)–(V3) of `problem` (nc = 1, nl = 0) with the contact's coefficient `mu` = μ̃ (as the model
  /// distributes it). True when the answer meets the certificate at options.certificate_tolerance: then p_N, the
  /// residual and v_plus = v* + M⁻¹Gᵀp (nv) are set. False: v_plus may have been written and the island takes the
  /// general path.
  bool solve(const ContactProblem& problem, double mu, const ProjectionOptions& options, Eigen::VectorXd& v_plus);
};

}  // namespace impetus
