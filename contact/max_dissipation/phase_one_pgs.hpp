// The fallback of phase I (max_dissipation.hpp MD3): projected Gauss–Seidel on the box-constrained
// dual of the frictionless problem. It cannot fail: every iterate is feasible (0 ≤ p ≤ ρ), each
// coordinate step minimises the dual objective exactly along its coordinate, so the objective never
// rises, and it needs nothing but the diagonal of the Delassus matrix.
//
// Glossary
//   symbol  size     meaning                                              code
//   ------  -------  ---------------------------------------------------  -----------------
//   G       nu×nv    the unilateral rows [N; L]                           (problem.N, problem.L)
//   A       nu×nu    G M⁻¹ Gᵀ (only its diagonal A_ii is formed)           diag_
//   b       nu       G v* + [φ; φ_L]/dt                                   —
//   p       nu       [p_N; p_L] (N·s)                                      p
//   ρ       1        elastic upper bound (N·s)                             rho
//
//   minimise ½ pᵀA p + pᵀb  over  0 ≤ p ≤ ρ                                                  (PG1)
//   sweep:   for i = 1 … nu:  w_i = G_i v + b_i − G_i v*,  p_i ← clamp(p_i − w_i/A_ii, 0, ρ),
//            v ← v + M⁻¹G_iᵀ Δp_i                                                           (PG2)
// with v = v* + M⁻¹Gᵀp kept current, so a sweep costs O(nnz(G)) plus the block solves of M⁻¹G_iᵀ,
// which are formed once per problem.
//
// Residual (PG3), in impulse units relative to the largest impulse: the natural map of the box LCP,
//   ρ(p) = maxᵢ |p_i − clamp(p_i − w_i/A_ii, 0, ρ)| / max(‖p‖∞, p_scale).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

struct PhaseOnePgsResult {
  int sweeps = 0;
  double residual = 0;    // (PG3)
  bool converged = false;
};

class PhaseOnePgs {
 public:
  /// Improves p (in: start, clamped into the box; out: result, nu = nc + nl) and returns v = v* + M⁻¹Gᵀp.
  /// `impulse_scale` (N·s) is the floor of the residual's denominator.
  PhaseOnePgsResult solve(const ContactProblem& problem, double rho, int max_sweeps, double tolerance,
                          double impulse_scale, Eigen::VectorXd& p, Eigen::VectorXd& v);

 private:
  void prepare(const ContactProblem& problem);

  // Row i of G restricted to the blocks it touches: entries [start_[i], start_[i+1]) of col_, g_, Wg_.
  std::vector<int> start_, col_;
  std::vector<double> g_, Wg_;          // G_i entries and (M⁻¹G_iᵀ) entries, same columns
  Eigen::VectorXd diag_, b_;            // A_ii; [φ; φ_L]/dt
};

}  // namespace impetus
