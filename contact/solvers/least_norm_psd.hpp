// x = A⁺ b for a symmetric positive semidefinite A: the least-norm least-squares solution, by Cholesky with
// diagonal pivoting stopped at the numerical rank (Higham, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., §10.3; LAPACK's dpstrf), in grow-only storage (contact/solvers/grow_only.hpp).
//
// A basis of a warm-started LCP (guessed_basis.hpp GB1) is a Delassus block A_BB = J_B W J_Bᵀ: PSD, and singular
// wherever contacts are redundant (four corners of a box hold three constraints; a resting stack's basis has more
// unknowns than the stack has velocities). A complete orthogonal decomposition answers it at ~(4/3)n³ flops and
// two sweeps of reflectors; Cholesky stops at the rank after ≤ n³/3:
//
//   Pᵀ A P = L Lᵀ + S,   L = [L₁; L₂] (n×r, L₁ r×r lower triangular),   ‖S‖ ≤ n·ε·a_max                (LN1)
//
// with the pivot the largest remaining diagonal, stopped when it is ≤ n·ε times the first (the threshold Eigen's
// COD puts on its |R_kk|, both on A's own scale). The null space of the truncated A is spanned by
//
//   Z = P [−L₁⁻ᵀ L₂ᵀ; I]   (n×k, k = n − r),   since Lᵀ Pᵀ Z = −L₁ᵀ L₁⁻ᵀ L₂ᵀ + L₂ᵀ = 0,                     (LN2)
//
// and range(A) = null(A)^⊥ (A symmetric), so with Π = I − Z (ZᵀZ)⁻¹ Zᵀ the projector onto range(A),
//
//   x = A⁺ b = Π x_b,   x_b = P [L₁⁻ᵀ L₁⁻¹ (Pᵀ Π b)₁; 0]                                                   (LN3)
//
// (x_b solves A x = Π b, consistent; Π removes the null-space part, which leaves the least norm). Full rank
// (k = 0): Π = I and (LN3) is the Cholesky solve. Cost n³/3 + r²k + nk² + k³/3.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

/// (LN1)–(LN3), its buffers kept between calls (no allocation once the largest n is met).
class LeastNormPsd {
 public:
  /// Factors the symmetric PSD A (n×n; its lower triangle is read) by (LN1). Returns the numerical rank r.
  int compute(const Eigen::Ref<const Eigen::MatrixXd>& A);
  /// x = A⁺ b of the A last computed (LN3); valid until the next call.
  const VectorView& solve(const Eigen::Ref<const Eigen::VectorXd>& b);

  int rank() const { return rank_; }
  /// Z of (LN2) of the A last computed, in the permuted order (rows: Pᵀ), n×(n − r).
  const MatrixView& null_space() const { return Z_; }
  /// The permutation of (LN1): row i of Pᵀ A P is row perm()[i] of A.
  const std::vector<int>& perm() const { return perm_; }

 private:
  void project_onto_range(VectorView& y);   // y ← Π y, y in the permuted order

  int n_ = 0, rank_ = 0;
  std::vector<int> perm_;
  MatrixView L_{nullptr, 0, 0}, Z_{nullptr, 0, 0}, ZtZ_{nullptr, 0, 0};
  VectorView x_{nullptr, 0}, y_{nullptr, 0}, c_{nullptr, 0};
  Eigen::VectorXd L_storage_, Z_storage_, ZtZ_storage_, x_storage_, y_storage_, c_storage_;
};

}  // namespace impetus
