// The no-slip model (no_slip_model.hpp, NS1–NS4) for an island of one contact and no joint limit, in closed
// form on the 3×3 Delassus matrix (contact/one_contact_delassus.hpp): the small-island path of the model.
// The answer is measured by the general path's own certificate (UP2 on the normal row, (NS2) on the no-slip
// rows, at the model's certificate_tolerance and velocity scale s_v); when it misses it, or when the rows are
// dependent to FIND-INDICES' or pivoting's tolerance, the island takes the general path unchanged, so the path
// changes the cost and the rounding, never the model.
//
// Glossary (no_slip_model.hpp and one_contact_delassus.hpp have the shared notation)
//   symbol  size   meaning                                                       code
//   ------  -----  ------------------------------------------------------------  -------------------
//   W, b    3×3, 3 G M⁻¹ Gᵀ and G v* of the rows [N; S; T]                         rows.W, rows.b
//   W_tt    2×2    the no-slip rows' block of W (D = G M⁻¹ Gᵀ of FIND-INDICES)    —
//   y       2      W_tt⁻¹ W_tN: the no-slip rows' answer to a unit p_N              y
//   λ₀      2      −W_tt⁻¹ b_t: the no-slip impulse with p_N = 0                   lambda0
//   F, e    1, 1   the normal LCP (paper (56)–(57), notes §2.8): F = N P Nᵀ = W_NN − W_Ntᵀ y,
//                  e = N P M v* + φ/dt = b_N + W_Ntᵀ λ₀ + φ/dt                      F, e
//
// A sticking contact (φ ≤ min(stick_gap, touch_margin), as attempt() decides) holds S v⁺ = T v⁺ = 0 whatever
// p_N, so (NS1)–(NS3) reduce to the scalar LCP 0 ≤ p_N ⊥ F p_N + e ≥ 0 of the Schur complement:
//   e ≥ 0   p_N = 0, (p_S, p_T) = λ₀                    (the contact separates, still locked: the paper's lock)  (SC1)
//   e < 0   p_N = −e/F, (p_S, p_T) = λ₀ − p_N y        (W p = −(b_N + φ/dt, b_S, b_T), p_N > 0)                 (SC2)
// A contact that does not stick has its normal row alone: F = W_NN, e = b_N + φ/dt, p_S = p_T = 0.          (SC3)
// v⁺ = v* + M⁻¹Gᵀp (NS1). (NS4) is strictly convex in v⁺, so this is the general path's v⁺.
//
// Declined (general path): nv < 3 with a sticking contact, W_SS ≤ 0 or sin²θ of T to S ≤ τ_G (FIND-INDICES
// would drop a row: (NS6)/(NS7) decide then), F ≤ τ_dep·W_NN when p_N must be positive (N dependent on the
// no-slip rows: pivoting's exchange (b) decides), non-finite data, or a missed certificate.
#pragma once

#include <Eigen/Dense>

#include "contact/one_contact_delassus.hpp"
#include "contact/problem.hpp"
#include "contact/solvers/projection_options.hpp"

namespace impetus {

/// The closed form's answer and its buffers (owned by the model's workspace; sized once warm).
struct NoSlipSingleContact {
  Eigen::Vector3d p;                 // (p_N, p_S, p_T) (N·s)
  bool sticks = false;               // the contact's no-slip rows take part
  double velocity_scale = 0;         // s_v of (UP2): max |N v*|, φ/dt, |S v*|, |T v*| of the rows held
  double residual = 0;               // ρ (UP2) of p_N on the normal row
  double equality_residual = 0;      // max |S v⁺|, |T v⁺| (m/s); 0 when the contact does not stick
  OneContactDelassus rows;           // W, b, M⁻¹Gᵀ

  /// Solves (NS1)–(NS3) of `problem` (nc = 1, nl = 0). `stick_gap`: the model's min(stick_gap, touch_margin);
  /// `tau_G`: FIND-INDICES' dependence tolerance. True when the answer meets the certificate at
  /// options.certificate_tolerance: then p, the residuals and v_plus = v* + M⁻¹Gᵀp (nv) are set. False: v_plus
  /// may have been written and the island takes the general path.
  bool solve(const ContactProblem& problem, double stick_gap, double tau_G, const ProjectionOptions& options,
             Eigen::VectorXd& v_plus);
};

}  // namespace impetus
