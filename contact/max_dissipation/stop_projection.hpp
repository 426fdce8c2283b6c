// (MD14) The stop of a resting island's warm guess when its loaded contacts do not hold every degree of
// freedom: the M-projection of the guess's velocity onto ker 𝐉_𝒜, by a regularized sparse factor.
//
// Glossary (max_dissipation.hpp and cone_program.hpp have the rest)
//   symbol  size        meaning                                                        code
//   ------  ----------  -------------------------------------------------------------  --------------
//   𝒜       r           the program's rows of the contacts that carry impulse          rows
//   𝐉_𝒜     r×nv        those rows of the program's 𝐉                                  J_
//   A       r×r         𝐉_𝒜 M⁻¹ 𝐉_𝒜ᵀ, the contact-space inverse inertia                —
//   δ       1           regularization of the dual block (1/kg)                        delta
//   K_δ     (nv+r)²     [M 𝐉_𝒜ᵀ; 𝐉_𝒜 −δI], quasi-definite                             K_
//
// Problem. Given impulses p (the previous step's, offered as phase II's candidate) and v = v* + M⁻¹𝐉ᵀp, the
// least kinetic energy reachable by moving the impulses of 𝒜,
//   minimise ½ v⁺ᵀMv⁺   s.t.  v⁺ = v + M⁻¹𝐉_𝒜ᵀΔp,  𝐉_𝒜 v⁺ = 0,                                       (MD14)
// is the M-orthogonal projection of v onto ker 𝐉_𝒜: Δp solves A Δp = −𝐉_𝒜 v. When 𝐉_𝒜 has full column
// rank, ker 𝐉_𝒜 = {0} and v⁺ = 0 (MD12's stop). A rattler — a sphere of a pile on one loaded contact,
// free to spin about its normal — leaves ker 𝐉_𝒜 ≠ {0}: v⁺ keeps that free motion, which no impulse of 𝒜
// can change, and the point is still phase II's optimum when its friction lies inside the cones. The
// system is consistent (𝐉_𝒜 v ∈ range 𝐉_𝒜 = range A) but singular when contacts are redundant (a sphere
// on four has more rows than degrees of freedom), so A is not inverted: the proximal-point iteration
//   Δp_k = −(A + δI)⁻¹ 𝐉_𝒜 v_k,   p_{k+1} = p_k + Δp_k,   v_{k+1} = v* + M⁻¹𝐉ᵀp_{k+1}                 (MD15)
// multiplies each component of 𝐉_𝒜 v in range A by δ/(σ + δ) (σ its eigenvalue of A) per round and keeps
// every Δp in range A (the least-norm move: the split of the impulses changes as little as it can).
// (A + δI)⁻¹ is applied through K_δ, whose LDLᵀ exists in any order ([VD], quasidefinite_ldlt.hpp):
//   K_δ [w; y] = [0; −𝐉_𝒜 v]  ⇔  y = (A + δI)⁻¹ 𝐉_𝒜 v,  w = −M⁻¹𝐉_𝒜ᵀ y,   Δp = −y.
// Each round recomputes v from p by M⁻¹ (exact to rounding), so the factor's own error (∼ ε‖K_δ‖/δ)
// slows the contraction but is not carried; the rounds stop when the residual no longer halves.
// Nothing here is trusted: the candidate goes to the interior point's stopping test (IP6), which certifies
// it or leaves the iteration as it was.
#pragma once

#include <Eigen/Sparse>
#include <vector>

#include "contact/problem.hpp"
#include "contact/solvers/quasidefinite_ldlt.hpp"

namespace impetus {

/// Buffers and factor of (MD14)–(MD15) for one island structure; allocation only when 𝒜's pattern grows.
class StopProjection {
 public:
  /// Moves p (np, the program's impulse coordinates) on the rows `rows` of J (np×nv, the program's 𝐉) by
  /// (MD15), towards 𝐉_𝒜 v + c_𝒜 = 0 with c (np, or empty for 0) the program's linear cost: zero reduced cost on
  /// the loaded coordinates; p stays as it was when no round reduces max|𝐉_𝒜 v + c_𝒜|. Returns whether p moved.
  bool project(const ContactProblem& problem, const SparseRows& J, const Eigen::VectorXd& c, const std::vector<int>& rows,
               Eigen::VectorXd& p);

  /// Rounds of (MD15) in the last call that moved p (for tests and benchmarks).
  int rounds() const { return rounds_; }
  /// max|𝐉_𝒜 v| before and after the last call (m/s).
  double residual_before() const { return residual_before_; }
  double residual_after() const { return residual_after_; }

 private:
  void velocity(const ContactProblem& problem, const SparseRows& J, const Eigen::VectorXd& p);   // v_ ← v* + M⁻¹𝐉ᵀp
  double row_residual(const Eigen::VectorXd& c, const std::vector<int>& rows);                    // r_ ← 𝐉_𝒜 v_ + c_𝒜; max|r_|
  void assemble(const ContactProblem& problem, double delta);                                    // K_'s lower triangle

  SparseRows J_;                                  // 𝐉_𝒜
  std::vector<int> column_start_, column_rows_;   // 𝐉_𝒜 by columns: its rows per velocity coordinate
  std::vector<double> column_values_;
  std::vector<int> fill_;
  QuasidefiniteLdlt::Matrix K_;
  QuasidefiniteLdlt ldlt_;
  std::vector<signed char> sign_;
  Eigen::VectorXd v_, r_, x_, impulse_, scratch_, trial_;
  int rounds_ = 0;
  double residual_before_ = 0, residual_after_ = 0;
};

}  // namespace impetus
