// least_norm_psd.hpp (LN1)–(LN3) and guessed_basis.hpp's choice of solve (GB2): x = A⁺ b, against what defines
// it (the pseudoinverse: A x the projection of b onto range(A), x orthogonal to null(A)) and against the COD.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>

#include "contact/solvers/guessed_basis.hpp"
#include "contact/solvers/least_norm_psd.hpp"

namespace impetus {
namespace {

Eigen::MatrixXd random_matrix(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return g(rng); });
}

/// A = G Gᵀ of rank r (n×n), scaled like a Delassus block (entries ~1e-2, 1/kg).
Eigen::MatrixXd psd_of_rank(int n, int r, std::mt19937& rng) {
  const Eigen::MatrixXd G = random_matrix(n, r, rng);
  return 1e-2 * G * G.transpose();
}

TEST(LeastNormPsd, FullRankIsTheCholeskySolve) {
  std::mt19937 rng(1);
  for (int n : {1, 2, 5, 17, 40}) {
    const Eigen::MatrixXd A = psd_of_rank(n, n + 3, rng);
    const Eigen::VectorXd b = random_matrix(n, 1, rng);
    LeastNormPsd psd;
    EXPECT_EQ(psd.compute(A), n);
    const Eigen::VectorXd x = psd.solve(b);
    const Eigen::VectorXd expected = A.llt().solve(b);
    EXPECT_LE((x - expected).norm(), 1e-10 * expected.norm()) << n;
  }
}

TEST(LeastNormPsd, RankDeficientGivesThePseudoinverseEvenForBOutsideTheRange) {
  // Redundant contacts: rank r < n. b has a part outside range(A) (no exact solution): A⁺ b is the
  // least-squares solution of least norm, which the COD also computes.
  std::mt19937 rng(2);
  for (const auto& [n, r] : {std::pair{2, 1}, {6, 3}, {20, 12}, {40, 38}, {64, 60}}) {
    const Eigen::MatrixXd A = psd_of_rank(n, r, rng);
    const Eigen::VectorXd b = random_matrix(n, 1, rng);
    LeastNormPsd psd;
    EXPECT_EQ(psd.compute(A), r) << n;
    const Eigen::VectorXd x = psd.solve(b);
    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
    const Eigen::VectorXd expected = cod.solve(b);
    EXPECT_LE((x - expected).norm(), 1e-8 * expected.norm()) << n << " " << r;
    // What defines A⁺ b: the residual is orthogonal to range(A), and x lies in it (x = A y for some y).
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullU);
    const Eigen::MatrixXd range = svd.matrixU().leftCols(r), null = svd.matrixU().rightCols(n - r);
    EXPECT_LE((range.transpose() * (A * x - b)).norm(), 1e-9 * b.norm()) << n;
    EXPECT_LE((null.transpose() * x).norm(), 1e-9 * x.norm()) << n;
  }
}

TEST(LeastNormPsd, ExactDuplicatesAreOneUnknownShared) {
  // Two copies of the same contact, A = [a a; a a]: the projection of b onto range(A) = span(1, 1) is
  // (b₁ + b₂)/2 in each row, so a (x₁ + x₂) = 2, and the least-norm split is equal shares.
  Eigen::MatrixXd A(2, 2);
  A << 0.25, 0.25, 0.25, 0.25;
  const Eigen::Vector2d b(1.0, 3.0);
  LeastNormPsd psd;
  EXPECT_EQ(psd.compute(A), 1);
  const Eigen::VectorXd x = psd.solve(b);
  EXPECT_NEAR(x[0], 4.0, 1e-13);
  EXPECT_NEAR(x[1], 4.0, 1e-13);
}

TEST(LeastNormPsd, ZeroMatrixAndNonFiniteEntries) {
  LeastNormPsd psd;
  EXPECT_EQ(psd.compute(Eigen::MatrixXd::Zero(3, 3)), 0);
  EXPECT_TRUE(psd.solve(Eigen::Vector3d(1, 2, 3)).isZero());
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 3);
  A(2, 1) = std::numeric_limits<double>::quiet_NaN();
  psd.compute(A);
  EXPECT_FALSE(psd.solve(Eigen::Vector3d(1, 2, 3)).allFinite());   // no certificate accepts it
}

TEST(GuessedBasisSolve, SquareIsLuWhenNonsingularAndTheCodWhereSingular) {
  // (GB2): a nonsingular square A_BB has one solution, which LU and the COD both give; a singular one (two
  // equal rows and columns) must take the COD's least-norm answer, bit for bit (LU's would be anything).
  std::mt19937 rng(4);
  const int n = 9;
  Eigen::MatrixXd A = random_matrix(n, n, rng);
  const Eigen::VectorXd q = random_matrix(n, 1, rng), guess = Eigen::VectorXd::Zero(n);
  const auto fill = [&](MatrixView& A_BB) { A_BB = A; };
  GuessedBasis basis;
  for (int i = 0; i < n; ++i) basis.basis.push_back(i);
  const Eigen::VectorXd general = basis.correction(fill, q, guess, GuessedBasis::Structure::General);
  const Eigen::VectorXd square = basis.correction(fill, q, guess, GuessedBasis::Structure::Square);
  EXPECT_LE((square - general).norm(), 1e-10 * general.norm());

  A.row(4) = A.row(2);
  A.col(4) = A.col(2);
  const Eigen::VectorXd general_singular = basis.correction(fill, q, guess, GuessedBasis::Structure::General);
  const Eigen::VectorXd square_singular = basis.correction(fill, q, guess, GuessedBasis::Structure::Square);
  EXPECT_TRUE(square_singular.cwiseEqual(general_singular).all());
  EXPECT_TRUE(square_singular.allFinite());
}

}  // namespace
}  // namespace impetus
