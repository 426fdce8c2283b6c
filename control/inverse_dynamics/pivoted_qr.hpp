// The column-pivoted Householder QR of any shape without allocation once warm (issue 16).
//
// Eigen::ColPivHouseholderQR<MatrixXd> reallocates its factor at every change of rows·cols, and its
// coefficients, norms and transpositions at every change of cols or min(rows, cols); id_qp's Stage II factors
// matrices whose shape follows the contacts and the driven joints (undriven_impulse_kernel's (U Jᵀ)ᵀ, the
// working rows of inequality_least_squares.hpp), so a decomposition kept per shape met allocated for each shape
// first met once warm. PivotedQr keeps its factor and vectors as views of grow-only storage
// (contact/solvers/grow_only.hpp) and performs Eigen 3.4's steps (QR/ColPivHouseholderQR.h, computeInPlace:
// the column norms, the pivot of the largest updated norm, makeHouseholderInPlace, applyHouseholderOnTheLeft on
// the trailing block, LAPACK's norm downdate of LAWN 176 with its recomputation threshold √ε) statement for
// statement on the same block types of a view with a MatrixXd's layout and alignment: the same kernels, so the
// bits of Eigen's own decomposition (tests/control/test_pivoted_qr.cpp compares every output over shapes).
#pragma once

#include <Eigen/Dense>
#include <Eigen/Householder>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

class PivotedQr {
 public:
  /// Factors A P = Q R (A: rows×cols, any expression; copied into the kept storage).
  template <class Derived>
  void compute(const Eigen::MatrixBase<Derived>& A) {
    grow(qr_, qr_storage_, A.rows(), A.cols());
    qr_ = A;
    compute_in_place();
  }

  /// Grows the storage for every shape of at most rows × cols (and Q of rows × rows): compute() and q_into()
  /// then allocate nothing for any of them, whichever comes first.
  void reserve(Eigen::Index rows, Eigen::Index cols) {
    const auto at_least = [](Eigen::VectorXd& storage, Eigen::Index n) {
      if (storage.size() < n) storage.resize(n);
    };
    at_least(qr_storage_, rows * cols);
    at_least(h_coeffs_storage_, std::min(rows, cols));
    at_least(workspace_storage_, rows);
    for (Eigen::VectorXd* row : {&temp_storage_, &norms_updated_storage_, &norms_direct_storage_}) at_least(*row, cols);
    transpositions_.reserve(cols);
    permutation_.reserve(cols);
  }

  /// The threshold of rank(): |R_ii| above threshold·max|R_ii| (ColPivHouseholderQR::setThreshold).
  void set_threshold(double threshold) { threshold_ = threshold; }
  /// ColPivHouseholderQR::rank(): the pivots of the first nonzero_pivots() above the threshold.
  Eigen::Index rank() const {
    const double premultiplied = std::abs(max_pivot_) * threshold_;
    Eigen::Index result = 0;
    for (Eigen::Index i = 0; i < nonzero_pivots_; ++i) result += std::abs(qr_.coeff(i, i)) > premultiplied;
    return result;
  }
  Eigen::Index nonzero_pivots() const { return nonzero_pivots_; }
  /// R above the diagonal, the Householder vectors below (ColPivHouseholderQR::matrixQR()).
  const MatrixView& matrix_qr() const { return qr_; }
  const VectorView& h_coeffs() const { return h_coeffs_; }
  /// The column permutation's indices: column i of A P is column permutation()[i] of A.
  const std::vector<int>& permutation() const { return permutation_; }

  /// Q (rows×rows) into Q, as householderQ().evalTo(Q, workspace) does, its workspace kept here.
  void q_into(MatrixView& Q, Eigen::VectorXd& Q_storage) {
    const Eigen::Index rows = qr_.rows();
    grow(Q, Q_storage, rows, rows);
    grow(workspace_, workspace_storage_, rows);
    householder_q().evalTo(Q, workspace_);
  }

 private:
  Eigen::HouseholderSequence<MatrixView, VectorView> householder_q() const {
    return Eigen::HouseholderSequence<MatrixView, VectorView>(qr_, h_coeffs_);   // of length min(rows, cols)
  }

  void compute_in_place() {
    const Eigen::Index rows = qr_.rows(), cols = qr_.cols(), size = qr_.diagonalSize();
    grow(h_coeffs_, h_coeffs_storage_, size);
    grow(temp_, temp_storage_, cols);
    transpositions_.resize(cols);   // std::vector: no allocation below its capacity
    grow(norms_updated_, norms_updated_storage_, cols);
    grow(norms_direct_, norms_direct_storage_, cols);
    for (Eigen::Index k = 0; k < cols; ++k) {
      norms_direct_.coeffRef(k) = qr_.col(k).norm();
      norms_updated_.coeffRef(k) = norms_direct_.coeffRef(k);
    }
    const double epsilon = std::numeric_limits<double>::epsilon();
    const double threshold_helper =
        Eigen::numext::abs2(norms_updated_.maxCoeff() * epsilon) / static_cast<double>(rows);
    const double norm_downdate_threshold = std::sqrt(epsilon);
    nonzero_pivots_ = size;
    max_pivot_ = 0;
    for (Eigen::Index k = 0; k < size; ++k) {
      // The column of largest updated norm is the pivot.
      Eigen::Index biggest = 0;
      const double biggest_sq_norm = Eigen::numext::abs2(norms_updated_.tail(cols - k).maxCoeff(&biggest));
      biggest += k;
      if (nonzero_pivots_ == size && biggest_sq_norm < threshold_helper * static_cast<double>(rows - k))
        nonzero_pivots_ = k;
      transpositions_[k] = static_cast<int>(biggest);
      if (k != biggest) {
        qr_.col(k).swap(qr_.col(biggest));
        std::swap(norms_updated_.coeffRef(k), norms_updated_.coeffRef(biggest));
        std::swap(norms_direct_.coeffRef(k), norms_direct_.coeffRef(biggest));
      }
      // The reflector below the diagonal, β on it, applied to the trailing columns.
      double beta = 0;
      qr_.col(k).tail(rows - k).makeHouseholderInPlace(h_coeffs_.coeffRef(k), beta);
      qr_.coeffRef(k, k) = beta;
      if (std::abs(beta) > max_pivot_) max_pivot_ = std::abs(beta);
      qr_.bottomRightCorner(rows - k, cols - k - 1)
          .applyHouseholderOnTheLeft(qr_.col(k).tail(rows - k - 1), h_coeffs_.coeffRef(k), &temp_.coeffRef(k + 1));
      // The trailing columns' norms downdated (LAWN 176), recomputed where the downdate lost its accuracy.
      for (Eigen::Index j = k + 1; j < cols; ++j) {
        if (norms_updated_.coeffRef(j) == 0) continue;
        double temp = std::abs(qr_.coeffRef(k, j)) / norms_updated_.coeffRef(j);
        temp = (1 + temp) * (1 - temp);
        temp = temp < 0 ? 0 : temp;
        const double temp2 = temp * Eigen::numext::abs2(norms_updated_.coeffRef(j) / norms_direct_.coeffRef(j));
        if (temp2 <= norm_downdate_threshold) {
          norms_direct_.coeffRef(j) = qr_.col(j).tail(rows - k - 1).norm();
          norms_updated_.coeffRef(j) = norms_direct_.coeffRef(j);
        } else {
          norms_updated_.coeffRef(j) *= std::sqrt(temp);
        }
      }
    }
    // The permutation from the transpositions, as PermutationMatrix::applyTranspositionOnTheRight composes it.
    permutation_.resize(cols);
    for (Eigen::Index i = 0; i < cols; ++i) permutation_[i] = static_cast<int>(i);
    for (Eigen::Index k = 0; k < size; ++k) std::swap(permutation_[k], permutation_[transpositions_[k]]);
  }

  MatrixView qr_{nullptr, 0, 0};
  VectorView h_coeffs_{nullptr, 0}, workspace_{nullptr, 0};
  VectorView temp_{nullptr, 0}, norms_updated_{nullptr, 0}, norms_direct_{nullptr, 0};   // Eigen's row vectors: read entrywise
  Eigen::VectorXd qr_storage_, h_coeffs_storage_, workspace_storage_, temp_storage_, norms_updated_storage_,
      norms_direct_storage_;
  std::vector<int> transpositions_, permutation_;
  double threshold_ = 0, max_pivot_ = 0;
  Eigen::Index nonzero_pivots_ = 0;
};

}  // namespace impetus
