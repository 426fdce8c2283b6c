// Sparse LDLᵀ of a symmetric quasi-definite matrix, with dynamic regularization of the pivots.
//
// References
//   [VD]  Vanderbei, "Symmetric quasidefinite matrices", SIAM J. Optim. 5 (1995) 100–113: every
//         symmetric permutation of  K = [H Aᵀ; A −G]  with H, G positive definite has an LDLᵀ
//         factorization, with D > 0 on H's rows and D < 0 on G's rows.
//   [DA]  Davis, "Algorithm 849: a concise sparse Cholesky factorization package", ACM TOMS 31
//         (2005): the up-looking LDLᵀ with the elimination tree used here.
//   [GO]  Gill, Saunders & Shinnerl, "On the stability of Cholesky factorization for symmetric
//         quasidefinite systems", SIAM J. Matrix Anal. Appl. 17 (1996): why no pivoting is needed.
//
// Glossary
//   symbol  size   meaning                                                    code
//   ------  -----  ---------------------------------------------------------  ---------------
//   K       n×n    the matrix, given by its lower triangle (column-major)      factor(K)
//   P       n      fill-reducing permutation (approximate minimum degree)     perm_
//   L, D    n×n, n P K Pᵀ = L D Lᵀ, L unit lower triangular                   Lp_/Li_/Lx_, D_
//   σ_k     ±1     expected sign of pivot k: +1 primal rows, −1 dual rows       sign
//
// Dynamic regularization (QD1): a pivot whose sign is not σ_k, or whose size is below ε_d, is
// replaced by σ_k δ_d. In exact arithmetic a quasi-definite matrix never needs this; in floating
// point, with the 10²⁰ spread of interior-point scalings, a pivot can lose its sign to rounding.
// The factorization then belongs to a nearby matrix, and the caller removes the difference by
// iterative refinement on the unregularized system. The number of replaced pivots is reported.
//
// Structure (symbolic) and values (numeric) are separate: analyse() once per pattern, factor()
// for every new set of values on it, with no allocation.
#pragma once

#include <Eigen/Sparse>
#include <vector>

namespace impetus {

class QuasidefiniteLdlt {
 public:
  using Matrix = Eigen::SparseMatrix<double>;   // column-major; only the lower triangle is read

  /// Ordering and elimination tree of K's pattern (lower triangle, with every diagonal entry stored).
  /// Indices flagged in `last` (n or empty) are eliminated after all others, in their order: dense
  /// rows, which a minimum-degree ordering would otherwise turn into a dense clique.
  void analyse(const Matrix& K, const std::vector<char>& last = {});
  /// Numeric factorization with the pivot signs `sign` (n, ±1). ε_d and δ_d of (QD1) are absolute.
  /// Returns false when a pivot is not finite.
  bool factor(const Matrix& K, const std::vector<signed char>& sign, double epsilon, double delta);
  /// x ← K̃⁻¹ x for the factored K̃ (the regularized K).
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const;

  int size() const { return n_; }
  int regularized_pivots() const { return regularized_; }
  long factor_nonzeros() const { return static_cast<long>(Li_.size()); }
  /// Multiply–adds of one factor(): Σ_j Lnz_j (Lnz_j + 1) / 2.
  double flops() const {
    double f = 0;
    for (int c : Lnz_) f += 0.5 * c * (c + 1.0);
    return f;
  }

 private:
  int n_ = 0;
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm_;   // perm_.indices()[i]: new index of i
  std::vector<int> upper_p_, upper_i_, upper_src_;   // P K Pᵀ's upper triangle by columns; upper_src_: index into K's values
  std::vector<int> parent_, Lnz_, Lp_, Li_;
  std::vector<double> Lx_, D_;
  mutable std::vector<double> y_;
  std::vector<int> flag_, pattern_, fill_;
  std::vector<signed char> sign_;                    // permuted signs
  mutable Eigen::VectorXd work_;
  int regularized_ = 0;
};

}  // namespace impetus
