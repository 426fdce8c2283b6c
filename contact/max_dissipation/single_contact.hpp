// Both phases of max_dissipation.hpp for an island with one contact, no joint limit and the Coulomb
// cone (MD5), in closed form on its 3×3 Delassus matrix: the small-island path of the model. Every
// answer is certified by the optimality conditions of (MD2) and (MD4)–(MD5) (a KKT point of a convex
// program is its optimum); when they do not hold to kCertificate the caller solves the programs by
// the interior point instead, so the path changes nothing but the cost.
//
// Glossary (contact/problem.hpp and max_dissipation.hpp have the shared notation)
//   symbol  size   meaning                                                     code
//   ------  -----  ----------------------------------------------------------  -----------------
//   G       3×nv   the contact's rows [N; S; T]                                 —
//   A       3×3    G M⁻¹ Gᵀ, the Delassus matrix                                A
//   b       3      G v*                                                         b
//   c       1      φ/dt                                                         c
//   H, a    2×2,2  A's tangential block A_tt and its coupling A_tN              H, a
//   x       2      p_t = (p_S, p_T)                                             —
//   r       1      μκ, the radius of the friction disk at p_N = κ               r
//   λ_κ, λ_g, λ_c  multipliers of the budget, the gap row and the cone          —
//
// With p = (p_N, p_t) and v⁺ = v* + M⁻¹Gᵀp, ½v⁺ᵀMv⁺ = ½v*ᵀMv* + bᵀp + ½pᵀAp.
//
// Phase I (MD2) is min ½A_NN p_N² + (b_N + c) p_N over p_N ≥ 0:
//   κ = p_N^I = max(0, −(b_N + c)/A_NN).                                                     (SC1)
// Phase II (MD4)–(MD5): min bᵀp + ½pᵀAp s.t. A_N·p + b_N + c ≥ 0, p_N ≤ κ, ‖p_t‖ ≤ μ p_N.
//   κ = 0 or μ = 0: the only feasible point is (κ, 0, 0) (the budget and the cone pin p_N ≤ κ and
//   p_N ≥ 0 resp. p_t = 0; with κ > 0 the gap row reads A_NN (p_N − κ) ≥ 0).                 (SC2)
//   κ > 0, μ > 0, with the budget active (p_N = κ, so A_NN κ + b_N + c = 0): the gap row becomes
//   aᵀx ≥ 0, and x solves the two-dimensional program
//     min ½xᵀHx + gᵀx  s.t.  ‖x‖ ≤ r,  aᵀx ≥ 0,   g = b_t + a κ,                             (SC3)
//   whose optimum is one of: the free minimum x = −H⁻¹g; the disk's boundary, x = −(H + νI)⁻¹g with
//   ‖x‖ = r (ν = λ_c/r ≥ 0, the root of a secular equation); the line aᵀx = 0; or one of the two
//   points where the line meets the circle. H is SPD, so the first case whose conditions hold is
//   the optimum. The budget's multiplier then follows from stationarity in p_N:
//     λ_κ = λ_g A_NN + λ_c μ + c − aᵀx  ≥ 0                                                   (SC4)
//   (with a = 0, λ_g is free and (SC4) always holds). If (SC4) fails, the optimum has p_N < κ
//   (a penetrating contact whose friction lifts it): left to the interior point.
#pragma once

#include <Eigen/Dense>

#include "contact/one_contact_delassus.hpp"
#include "contact/problem.hpp"

namespace impetus {

/// The closed form's result and its buffers (owned by the model's workspace).
struct SingleContact {
  double p_N_one = 0;             // κ, phase I's normal impulse (N·s)
  Eigen::Vector3d p;              // phase II's (p_N, p_S, p_T) (N·s)
  Eigen::VectorXd v_one, v_two;   // (nv) v⁺ of phase I and of phase II
  double residual = 0;            // largest violation of the optimality conditions, relative (kCertificate)
  OneContactDelassus rows_;       // A = W, b and M⁻¹Gᵀ (contact/one_contact_delassus.hpp)
};

/// Solves both phases of `problem` (nc = 1, nl = 0, the Coulomb cone) into `out`. False when the
/// closed form does not apply (a degenerate A) or does not certify its point; then `out` is
/// unspecified and the programs must be solved in general.
bool solve_single_contact(const ContactProblem& problem, SingleContact& out);

}  // namespace impetus
