// Least-‖τ‖ choice among indeterminate contact impulses at a fixed v⁺ (the no-slip analogue of seed 004
// §6.2.4's Stage II), used by id_lcp_noslip.
//
// Once v⁺ is known, the impulse balance of the step (id_problem.hpp ID1) is
//   Pᵀτ + Jᵀp = r,   r = M(v⁺ − v*)                                                          (LT1)
// Its driven rows give τ = P(r − Jᵀp); the others (the floating base, free bodies, undriven joints;
// U selects them) are conditions on p alone: U Jᵀ p = U r. So every p′ = p + Z w with Z spanning
// ker(U Jᵀ) (over the impulse components allowed to change), τ′ = τ − P Jᵀ Z w, gives the same v⁺:
// M Δv = PᵀΔτ + JᵀZw = (I − PᵀP) JᵀZw = Uᵀ U JᵀZw = 0. Where that kernel is not trivial the impulses
// are indeterminate (four feet down; three feet with twelve driven joints) and principal pivoting
// returns a vertex of the polytope p_N ≥ 0: a foot carrying nothing while touching, whose next
// round-off lifts it, and a τ that jumps when the vertex changes. The choice here:
//   minimise  ½‖τ − P Jᵀ Z w‖² + ½ε‖w‖²   s.t.  p_N + (Z w)_N ≥ 0 on the binding normal rows     (LT2)
// strictly convex (ε > 0), so the choice is unique and continuous in the problem's data. Normal rows
// that are not binding (N v⁺ + φ/dt > 0) keep p_N = 0 and are not variables; tangent rows are free
// (no-slip: no friction bound). (LT2) is solved through its dual (dual_qp.hpp), the monotone LCP
//   λ ≥ 0 ⊥ C Q⁻¹Cᵀ λ + (d − C Q⁻¹ c) ≥ 0,   w = Q⁻¹(Cᵀλ − c)                                (LT3)
// with Q = AᵀA + εI, A = P Jᵀ Z, c = −Aᵀτ, C = Z_N, d = p_N.
//
// Right inverse: (τ′, p′) meets (LT1) with the same v⁺ and p′_N ≥ 0 only on binding rows, so it is a
// KKT point of the forward no-slip projection under τ′; that projection is strictly convex, so the
// forward step reproduces v⁺, and where the forward model's impulses are unique (J of full row rank)
// they are p′.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "control/inverse_dynamics/dual_qp.hpp"

namespace impetus {

struct LeastTorqueReport {
  int freedom = 0;        // dim Z: the dimension of the indeterminate impulses
  int pivots = 0;         // Lemke's pivots on (LT3)
  bool changed = false;   // τ moved (the input was not already the least-‖τ‖ choice)
};

/// Z: an orthonormal basis (m × dim) of ker(U Jᵀ) (LT1), U the rows of the coordinates no actuator
/// drives; Jt (nv×m) the columns Jᵀ of the impulse components that may change. From the pivoted QR of
/// (U Jᵀ)ᵀ: its trailing Householder columns.
void undriven_impulse_kernel(const Eigen::MatrixXd& Jt, const std::vector<int>& actuated, Eigen::MatrixXd& Z);

class LeastTorqueSelection {
 public:
  /// Jt (nv×m): the columns Jᵀ of the m impulse components that may change; nonnegative (m): 1 for a
  /// binding normal row (p ≥ 0), 0 for a free (tangent) row; actuated (na): the driven coordinates.
  /// x (m) and tau (na) hold a solution of (LT1) on input and the least-‖τ‖ one on output. False (x,
  /// tau untouched) when Lemke fails on (LT3).
  bool select(const Eigen::MatrixXd& Jt, const std::vector<char>& nonnegative, const std::vector<int>& actuated,
              Eigen::VectorXd& x, Eigen::VectorXd& tau, LeastTorqueReport& report);

 private:
  DualQp dual_;
  Eigen::MatrixXd Z_, A_, C_;
  Eigen::VectorXd w_;
};

}  // namespace impetus
