// The metric W of a velocity projection, applied as W⁻¹ to sparse constraint rows.
//
// Both seed-000 models reduce to the projection (unilateral_projection.hpp, P1)
//     v⁺ = argmin ½ (v − v_f)ᵀ W (v − v_f)   s.t.  G v = 0,  U v ≥ −b,
// with W = M for no-slip and W = M + dt·K (the implicit viscous friction, viscous_model.hpp) for the
// viscous model. The solvers only ever need y = W⁻¹ cᵀ for one sparse row c at a time (the columns
// of the Delassus operator C W⁻¹ Cᵀ, seed 000 Algorithm 1 line 10, Algorithm 2 lines 7/14/19), so
// W is hidden behind this operator and never inverted as a matrix.
//
// Glossary
//   symbol  size    meaning                                   code
//   ------  ------  ----------------------------------------  -----------------------------
//   W       nv×nv   SPD metric of the projection              InertiaOperator
//   c       1×nv    one sparse constraint row                 RowRef
//   y       nv      W⁻¹ cᵀ                                     solve_row(c, y)
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

/// One row of a row-major sparse matrix (a constraint row of N, S, T or L).
struct RowRef {
  const SparseRows* matrix = nullptr;
  int row = 0;
};

/// c·x for a sparse row c and a dense x.
inline double row_dot(RowRef c, const Eigen::Ref<const Eigen::VectorXd>& x) {
  double s = 0;
  for (SparseRows::InnerIterator it(*c.matrix, c.row); it; ++it) s += it.value() * x[it.col()];
  return s;
}

/// x ← (L Lᵀ)⁻¹ x with L the lower triangle of `L` (n×n) and `inv_diag` the reciprocals of its
/// diagonal, by plain substitution: for the 1–6 sized blocks of a contact problem this is several
/// times faster than Eigen's blocked triangular solver, and multiplying by 1/L_jj instead of dividing
/// halves it again (a division costs ~15 cycles of latency).
inline void cholesky_solve_in_place(const Eigen::MatrixXd& L, const double* inv_diag, double* x) {
  const int n = static_cast<int>(L.rows());
  const double* a = L.data();   // column-major: L(i, j) = a[i + j·n]
  for (int j = 0; j < n; ++j) {                // L y = x
    const double yj = x[j] * inv_diag[j];
    x[j] = yj;
    for (int i = j + 1; i < n; ++i) x[i] -= a[i + j * n] * yj;
  }
  for (int j = n - 1; j >= 0; --j) {           // Lᵀ x = y
    double s = x[j];
    for (int i = j + 1; i < n; ++i) s -= a[i + j * n] * x[i];
    x[j] = s * inv_diag[j];
  }
}

class InertiaOperator {
 public:
  virtual ~InertiaOperator() = default;
  virtual int size() const = 0;
  /// y = W⁻¹ cᵀ (y: nv, overwritten).
  virtual void solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const = 0;
  /// x ← W⁻¹ x (x: nv).
  virtual void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const = 0;
};

/// W = blkdiag(W_1, …, W_s), each block given by its Cholesky factor. A row touching blocks b₁, b₂
/// costs a triangular solve in those blocks only, so the cost of y = W⁻¹cᵀ does not grow with the
/// number of systems in the island.
class BlockInertia final : public InertiaOperator {
 public:
  /// The blocks of the island's M (problem.systems); factors a block itself when it comes without
  /// M_llt. Allocates only when the block layout grows.
  void reset(const ContactProblem& problem);
  /// Blocks (offset, size) with the caller's factors, which must outlive the next reset.
  void reset(int nv, const std::vector<SystemBlock>& layout,
             const std::vector<const Eigen::LLT<Eigen::MatrixXd>*>& factors);

  int size() const override { return nv_; }
  void solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const override;
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const override;

 private:
  void index_columns();

  int nv_ = 0;
  std::vector<int> offset_, size_;                          // per block
  std::vector<const Eigen::LLT<Eigen::MatrixXd>*> llt_;     // per block
  std::vector<Eigen::LLT<Eigen::MatrixXd>> own_llt_;        // blocks that came without a factor
  std::vector<int> block_of_column_;                        // (nv), −1: outside every block (immobile)
  std::vector<double> inv_diag_;                            // (nv) 1/L_jj of each block's factor
  mutable std::vector<char> touched_;                       // per block, scratch of solve_row
  mutable std::vector<int> touched_list_;
};

/// W given as one dense SPD matrix (the viscous metric when friction couples systems).
class DenseInertia final : public InertiaOperator {
 public:
  /// Factors W; false when W is not numerically SPD.
  bool factor(const Eigen::MatrixXd& W);
  int size() const override { return static_cast<int>(llt_.rows()); }
  void solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const override;
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const override;

 private:
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd inv_diag_;   // 1/L_jj
};

}  // namespace impetus
