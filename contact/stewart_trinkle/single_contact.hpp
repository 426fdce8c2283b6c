// Stewart–Trinkle's LCP (ST6) for an island of one contact and no joint limit, by enumeration of its active
// sets on the 3×3 Delassus matrix (contact/one_contact_delassus.hpp): the small-island path of the model.
// Every candidate is mapped to the LCP's z = (p_N, p_F, λ̂) and measured by Lemke's own certificate (lemke.hpp
// L6) on (ST6) with the model's balance (ST7); when none meets the model's tolerance the island takes the
// general path (ST10, ST11) unchanged, so the path changes the cost and the rounding, never the model.
//
// Glossary (stewart_trinkle.hpp and one_contact_delassus.hpp have the shared notation)
//   symbol  size   meaning                                                       code
//   ------  -----  ------------------------------------------------------------  -------------------
//   W, b    3×3, 3 G M⁻¹ Gᵀ and G v* of G = [N; S; T]                             rows.W, rows.b
//   q_N     1      b_N + φ/dt, the normal row of q in (ST6)                       q[0]
//   u       3      (N v⁺ + φ/dt, S v⁺, T v⁺) = W p + b + (φ/dt, 0, 0)             —
//   d_j     2      edge j of the pyramid in the (t1, t2) plane                    cos_edge[j], sin_edge[j]
//   e_j     3      (1, μ d_j): the impulse of a unit p_N with all friction on d_j  —
//   f_j     3      (0, d_{j+1} − d_j): friction moved from edge j to edge j+1       —
//   a       1      W_NN, the balance of λ (ST7) for one contact                   a
//
// With μ > 0, z = (p_N; p_F (k); λ̂) and (ST6) is
//   w_N = u_N,   w_Fj = d_j·u_t + aλ̂,   w_λ = a(μ p_N − Σ_j p_Fj).
// The candidates, each (ST2), (ST4), (ST5) on one guessed active set:
//   separating   p = 0, valid when q_N ≥ 0; λ = max(0, max_j −d_j·b_t), the free slip speed    (SS1)
//   sticking     u = 0:  W p = −(q_N, b_S, b_T), valid when p_N ≥ 0 and p_t lies in the pyramid,
//                split onto the two edges whose cone holds it (split_onto_edges); λ = 0       (SS2)
//   edge j       p = p_N e_j with u_N = 0:  p_N = −q_N / (W e_j)_N; slides with λ = −d_j·u_t, valid
//                when d_j is the edge most opposed to the slip, d_j·u_t = min_i d_i·u_t         (SS3)
//   facet j      p = p_N e_j + β f_j, 0 ≤ β ≤ μ p_N, with u_N = 0 and d_j·u_t = d_{j+1}·u_t:
//                  ⎡ (W e_j)_N    (W f_j)_N  ⎤ ⎡p_N⎤     ⎡ q_N    ⎤
//                  ⎣ f_jᵀ W e_j   f_jᵀ W f_j ⎦ ⎣ β ⎦ = − ⎣ f_jᵀ b  ⎦                           (SS4)
//                (f_j has no normal part, so f_jᵀu = f_jᵀ(W p + b)); λ = −d_j·u_t.
//   With μ = 0 there are no friction rows: z = p_N = max(0, −q_N / W_NN).                       (SS5)
//
// Choice: (SS1) or (SS2) when it is exact (ρ ≤ kExact, single_contact.cpp); else, of the sliding candidates
// that are exact, the one of maximal dissipation (least ½v⁺ᵀMv⁺ = ½v*ᵀMv* + bᵀp + ½pᵀWp: with W coupling the
// normal and the friction, Painlevé-like, (ST6) can have several solutions, all answers of the model); with
// none exact, the candidate of least ρ. It is the answer when ρ ≤ the model's tolerance.
//
// Degenerate cases: W_NN ≤ 0 or non-finite data: no closed form. A singular W (rank-deficient G) leaves
// (SS2) without a solution and a singular 2×2 leaves (SS4) out; what is left must still certify. Two
// dynamic bodies are one G over both blocks of M, as for one body.
#pragma once

#include <Eigen/Dense>

#include "contact/one_contact_delassus.hpp"
#include "contact/problem.hpp"

namespace impetus {

/// The closed form's answer and its buffers (owned by the model's workspace; sized once warm).
struct StewartTrinkleSingleContact {
  Eigen::Vector3d p;             // (p_N, p_S, p_T) of the answer, (ST8) of its z (N·s)
  double residual = 0;           // its certificate ρ (lemke.hpp L6)
  OneContactDelassus rows;       // W, b, M⁻¹Gᵀ
  Eigen::VectorXd cos_edge, sin_edge;        // (k) the pyramid's edges (pyramid_edges)
  Eigen::VectorXd q, z, w, Az, z_best;       // (k + 2) of (ST6); its head n = k + 2, or 1 when μ ≤ 0
  int k = 0;                                 // edges cos_edge and sin_edge were made for

  /// Solves (ST6) of `problem` (nc = 1, nl = 0) with a k-edge pyramid. True when the answer meets the
  /// certificate at `tolerance`: then p, residual, and v_plus = v* + M⁻¹Gᵀp (nv) are set. False: v_plus is
  /// untouched and the island takes the general path.
  bool solve(const ContactProblem& problem, int friction_edges, double tolerance, Eigen::VectorXd& v_plus);

 private:
  /// ρ of z's head n on (ST6) (w, Az filled), with p_of_z its (ST8) impulse; mu and a of the contact.
  double certify(int n, double mu, double a, Eigen::Vector3d& p_of_z);
};

}  // namespace impetus
