// Sparse LDLᵀ of a symmetric quasi-definite matrix — supernodal, multifrontal — with dynamic
// regularization of the pivots.
//
// References
//   [VD]  Vanderbei, "Symmetric quasidefinite matrices", SIAM J. Optim. 5 (1995) 100–113: every
//         symmetric permutation of  K = [H Aᵀ; A −G]  with H, G positive definite has an LDLᵀ
//         factorization, with D > 0 on H's rows and D < 0 on G's rows — so no pivoting is needed
//         and a fill-reducing order can be chosen from the pattern alone.
//   [GO]  Gill, Saunders & Shinnerl, SIAM J. Matrix Anal. Appl. 17 (1996): its stability.
//   [LI]  Liu, "The multifrontal method for sparse matrix solution: theory and practice", SIAM Review
//         34 (1992) 82–109: elimination tree, postorder, supernodes, frontal and update matrices.
//
// Glossary
//   symbol  size   meaning                                                    code
//   ------  -----  ---------------------------------------------------------  ---------------
//   K       n×n    the matrix, given by its lower triangle (column-major)      factor(K)
//   P       n      fill-reducing permutation: approximate minimum degree or    perm_
//                  nested dissection, then a postorder of the elimination tree
//   L, D    n×n, n P K Pᵀ = L D Lᵀ, L unit lower triangular                   Lx_, D_
//   σ_k     ±1     expected sign of pivot k: +1 primal rows, −1 dual rows       sign
//   s       —      a supernode: consecutive columns [f, f + w) of L sharing      sn_first_
//                  one row structure R_s (|R_s| = m, its own columns first)    sn_rows_
//   F_s     m×m    its frontal matrix: K's entries in its columns, plus the     front_
//                  children's update matrices (extend-add)
//   U_s     (m−w)² its update matrix F₂₂ − L₂₁ D₁ L₂₁ᵀ, passed to its parent      stack_
//
// Method ([LI]). analyse(): AMD order (Eigen), or METIS's nested dissection where AMD's factor is
// large and nested dissection's costs less (nested_dissection.hpp), the elimination tree and its postorder, column counts,
// fundamental supernodes (a column joins the next when it is its only child and their structures
// nest), merged further while small (relaxed amalgamation: at most a few explicit zeros), and the
// supernodes' row structures and extend-add maps. factor(): supernodes in postorder; each front is
// assembled, its w pivots eliminated densely (blocked right-looking LDLᵀ: panels factored column by
// column, the trailing matrix updated by one triangular matrix product per panel), its L columns
// kept and its update matrix pushed on a stack for the parent. The work is in dense kernels, so large
// separators run at the speed of dense matrix products.
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

  /// Ordering, elimination tree and supernodes of K's pattern (lower triangle, every diagonal entry
  /// stored). Indices flagged in `last` (n or empty) are eliminated after all others: dense rows,
  /// which a minimum-degree ordering would otherwise turn into a dense clique.
  void analyse(const Matrix& K, const std::vector<char>& last = {});
  /// analyse(K, last) unless K's pattern and `last` are those of the last analysis (a resting island's
  /// program, step after step, keeps them): the analysis reads nothing else.
  void analyse_if_changed(const Matrix& K, const std::vector<char>& last = {});
  /// Numeric factorization with the pivot signs `sign` (n, ±1). ε_d and δ_d of (QD1) are absolute.
  /// Returns false when a pivot is not finite.
  bool factor(const Matrix& K, const std::vector<signed char>& sign, double epsilon, double delta);
  /// x ← K̃⁻¹ x for the factored K̃ (the regularized K).
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const;

  /// The fill-reducing order analyse() took: minimum degree, or nested dissection where minimum degree's
  /// factor would be large and nested dissection's costs fewer multiply–adds (nested_dissection.hpp).
  enum class Order { minimum_degree, nested_dissection };
  Order order() const { return order_; }

  int size() const { return n_; }
  /// P of the last analyse(): the new index of each old index (n).
  const std::vector<int>& permutation() const { return perm_; }
  int regularized_pivots() const { return regularized_; }
  long factor_nonzeros() const { return static_cast<long>(Lx_.size()); }
  /// Multiply–adds of one factor().
  double flops() const { return flops_; }

 private:
  void dense_partial_ldlt(double* F, int m, int w, int first_column, double epsilon, double delta);

  int n_ = 0;
  Order order_ = Order::minimum_degree;
  std::vector<int> perm_;                  // (n) new index of each old index
  std::vector<int> low_p_, low_i_, low_src_;   // P K Pᵀ's lower triangle by columns; low_src_: index into K's values
  int ns_ = 0;                             // supernodes
  std::vector<int> sn_first_;              // (ns + 1) first column of each; the last entry is n
  std::vector<int> sn_rows_p_, sn_rows_;   // row structure R_s of each, sorted, its own columns first
  std::vector<int> sn_children_;           // (ns) number of child supernodes
  std::vector<long> sn_L_p_;               // (ns + 1) offsets of each supernode's m×w block in Lx_
  std::vector<int> rel_p_, rel_;           // extend-add: positions in the parent's R of each update row
  std::vector<int> asm_p_, asm_pos_, asm_src_;   // assembly: front position (col·m + row) of each K entry
  std::vector<double> Lx_, D_;
  std::vector<signed char> sign_;          // permuted signs
  std::vector<double> front_, stack_;      // dense workspace; sized in analyse()
  std::vector<long> pending_;              // stack offsets of the update matrices waiting for their parent
  std::vector<int> pending_node_;          // their supernodes
  std::vector<double> panel_;              // L₂₁ D of one panel (kPanel × largest front)
  mutable Eigen::VectorXd work_, gather_;
  int regularized_ = 0;
  double flops_ = 0;
  // The pattern of the last analysis (K's column starts and row indices, and `last`).
  std::vector<int> analysed_outer_, analysed_inner_;
  std::vector<char> analysed_last_;
  bool analysed_ = false;
};

}  // namespace impetus
