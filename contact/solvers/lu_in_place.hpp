// LU with partial pivoting, P A = L U, in grow-only storage (contact/solvers/grow_only.hpp): Eigen's own kernel
// (internal::partial_lu_impl::blocked_lu, what PartialPivLU::compute runs) on a view, because a PartialPivLU object
// reallocates its permutation and transpositions on every change of size: a basis size first met once warm would
// allocate in the step loop (issue 16). The solve is PartialPivLU::_solve_impl's: c = P b, L c' = c, U x = c'.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

class LuInPlace {
 public:
  /// Factors the square A (n×n).
  void compute(const Eigen::Ref<const Eigen::MatrixXd>& A) {
    const Eigen::Index n = A.rows();
    grow(lu_, lu_storage_, n, n);
    lu_ = A;
    if (static_cast<Eigen::Index>(transpositions_.size()) < n) transpositions_.resize(n);
    int count = 0;
    if (n > 0)
      Eigen::internal::partial_lu_impl<double, Eigen::ColMajor, int>::blocked_lu(n, n, lu_.data(), n,
                                                                                 transpositions_.data(), count);
  }
  /// The factors L (unit lower) and U (upper) of the last compute(), in one n×n matrix.
  const MatrixView& matrixLU() const { return lu_; }
  /// x = A⁻¹ b of the last compute(), valid until the next call.
  const VectorView& solve(const Eigen::Ref<const Eigen::VectorXd>& b) {
    const Eigen::Index n = lu_.rows();
    grow(x_, x_storage_, n);
    x_ = b;
    for (Eigen::Index k = 0; k < n; ++k) std::swap(x_[k], x_[transpositions_[k]]);   // P b
    lu_.triangularView<Eigen::UnitLower>().solveInPlace(x_);
    lu_.triangularView<Eigen::Upper>().solveInPlace(x_);
    return x_;
  }

 private:
  MatrixView lu_{nullptr, 0, 0};
  VectorView x_{nullptr, 0};
  Eigen::VectorXd lu_storage_, x_storage_;
  std::vector<int> transpositions_;
};

}  // namespace impetus
