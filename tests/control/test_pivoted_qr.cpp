// The column-pivoted Householder QR on grow-only storage (control/inverse_dynamics/pivoted_qr.hpp): the bits of
// Eigen's ColPivHouseholderQR on every shape, in storage reused across shapes. Its allocations are counted in
// tests/sim/test_step_allocation.cpp (ContactSetAllocation.UndrivenImpulseKernel…: one binary per counter).
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <random>
#include <utility>
#include <vector>

#include "control/inverse_dynamics/pivoted_qr.hpp"

namespace impetus {
namespace {

// id_qp's rank threshold (least_torque.cpp kRankTolerance).
constexpr double kThreshold = 1e-9;

/// A rows×cols matrix with entries in [−1, 1] and, when `dependent`, its last columns copies or sums of the first
/// (a foot's tangent rows beside the base's: exact rank deficiency, round-off pivots).
Eigen::MatrixXd test_matrix(int rows, int cols, bool dependent, std::mt19937& random) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return uniform(random); });
  if (dependent && cols >= 3) {
    A.col(cols - 1) = A.col(0);
    A.col(cols - 2) = A.col(0) + A.col(1);
  }
  return A;
}

/// Every output of `qr` is the bit of Eigen's ColPivHouseholderQR of A: R and the reflectors, τ, the
/// permutation, the pivot counts and Q as householderQ() evaluates it.
void expect_eigens_bits(PivotedQr& qr, const Eigen::MatrixXd& A) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> eigen(A.rows(), A.cols());
  eigen.setThreshold(kThreshold);
  eigen.compute(A);
  const Eigen::MatrixXd Q_eigen = eigen.householderQ();
  MatrixView Q{nullptr, 0, 0};
  Eigen::VectorXd Q_storage;
  qr.q_into(Q, Q_storage);
  const std::string shape = std::to_string(A.rows()) + "×" + std::to_string(A.cols());
  EXPECT_EQ(Eigen::MatrixXd(qr.matrix_qr()), eigen.matrixQR()) << shape;
  EXPECT_EQ(Eigen::VectorXd(qr.h_coeffs()), eigen.hCoeffs()) << shape;
  EXPECT_EQ(Eigen::MatrixXd(Q), Q_eigen) << shape;
  EXPECT_EQ(qr.rank(), eigen.rank()) << shape;
  EXPECT_EQ(qr.nonzero_pivots(), eigen.nonzeroPivots()) << shape;
  ASSERT_EQ(static_cast<Eigen::Index>(qr.permutation().size()), A.cols()) << shape;
  for (Eigen::Index i = 0; i < A.cols(); ++i)
    EXPECT_EQ(qr.permutation()[i], eigen.colsPermutation().indices()[i]) << shape << " column " << i;
}

TEST(PivotedQr, GivesTheBitsOfEigensDecompositionOnEveryShape) {
  // Tall, wide and square, of full rank and rank-deficient, in one decomposition reused across the shapes.
  std::mt19937 random(16);
  PivotedQr qr;
  qr.set_threshold(kThreshold);
  int deficient = 0;
  for (int rows = 1; rows <= 30; rows += 3)
    for (int cols = 1; cols <= 19; cols += 2)
      for (bool dependent : {false, true}) {
        const Eigen::MatrixXd A = test_matrix(rows, cols, dependent, random);
        qr.compute(A);
        deficient += qr.rank() < std::min(rows, cols);
        expect_eigens_bits(qr, A);
      }
  EXPECT_GT(deficient, 20);   // the rank-deficient cases were met
}

TEST(PivotedQr, StorageOfTheLargestShapeCarriesNothingOverToSmallerOnes) {
  // Warmed once at the largest shape (120 × 18: LINKS' 40 contacts × 3 rows, every coordinate undriven), then
  // smaller shapes in an order no trot follows, rank-deficient or not: the storage holds the larger factor's
  // entries beyond each view, which no output may read.
  std::mt19937 random(7);
  PivotedQr qr;
  qr.set_threshold(kThreshold);
  qr.compute(test_matrix(120, 18, false, random));
  const std::pair<int, int> shapes[] = {{24, 6}, {3, 6}, {57, 13}, {9, 9}, {1, 18}, {120, 7}, {12, 6}, {45, 17}, {6, 12}};
  for (auto [rows, cols] : shapes) {
    const Eigen::MatrixXd A = test_matrix(rows, cols, rows % 2 == 0, random);
    qr.compute(A);
    expect_eigens_bits(qr, A);
  }
}

}  // namespace
}  // namespace impetus
