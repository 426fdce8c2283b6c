// small_llt_solve_in_place stands in for Eigen's LLT::solveInPlace on the small system blocks of every
// contact problem (contact/problem.cpp), on the promise that it is the same arithmetic in the same order:
// if it is not, every scene's bits move. This holds it to that promise, bit for bit, on random factors of
// every size it takes, right-hand sides of 1–13 columns, and inertias spread over ten orders of magnitude; and on
// factors with exact zeros (a free body's M = diag(m·1, I_C), uncoupled chains) against right-hand sides with
// ±0 entries, where only the same operations in the same order give the same signs of zero.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/small_llt_solve.hpp"

namespace impetus {
namespace {

TEST(SmallLltSolve, IsEigensSolveInPlaceToTheBit) {
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  int compared = 0;
  for (Eigen::Index n = 1; n <= kSmallLltSize; ++n)
    for (Eigen::Index k = 1; k <= 13; ++k)
      for (int trial = 0; trial < 20; ++trial) {
        Eigen::MatrixXd A(n, n);
        for (Eigen::Index i = 0; i < n; ++i)
          for (Eigen::Index j = 0; j < n; ++j) A(i, j) = u(rng);
        Eigen::VectorXd scale(n);   // a body's mass against its small inertias, or a light link far out
        for (Eigen::Index i = 0; i < n; ++i) scale[i] = std::pow(10.0, exponent(rng));
        const Eigen::MatrixXd M = scale.asDiagonal() * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n)) *
                                  scale.asDiagonal();
        const Eigen::LLT<Eigen::MatrixXd> llt(M);
        ASSERT_EQ(llt.info(), Eigen::Success);
        Eigen::MatrixXd B(n + 3, k);   // solved in a block of a larger matrix, as the Delassus operator does
        for (Eigen::Index i = 0; i < B.rows(); ++i)
          for (Eigen::Index j = 0; j < k; ++j) B(i, j) = u(rng) * std::pow(10.0, exponent(rng));
        Eigen::MatrixXd expected = B, actual = B;
        Eigen::Ref<Eigen::MatrixXd> expected_block = expected.middleRows(1, n);
        llt.solveInPlace(expected_block);
        small_llt_solve_in_place(llt, actual.middleRows(1, n));
        ASSERT_EQ(std::memcmp(expected.data(), actual.data(), sizeof(double) * expected.size()), 0)
            << "n = " << n << ", k = " << k << ", trial " << trial << ": max difference "
            << (expected - actual).cwiseAbs().maxCoeff();
        ++compared;
      }
  EXPECT_GT(compared, 0);
}

// M with the zero pattern of uncoupled groups of coordinates (each group dense, nothing between groups: a
// free body is the groups {0, 1, 2} and {3, 4, 5} when I_C is not diagonal, six singletons when it is).
Eigen::MatrixXd block_diagonal_spd(Eigen::Index n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  std::uniform_int_distribution<int> coin(0, 2);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index first = 0; first < n;) {
    Eigen::Index size = 1;
    while (first + size < n && coin(rng) != 0) ++size;
    Eigen::MatrixXd A(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j) A(i, j) = u(rng);
    M.block(first, first, size, size) =
        std::pow(10.0, exponent(rng)) * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(size, size));
    first += size;
  }
  return M;
}

TEST(SmallLltSolve, IsEigensSolveInPlaceToTheBitWithExactZeros) {
  std::mt19937 rng(20261128);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> entry(0, 3);
  int compared = 0;
  for (Eigen::Index n = 1; n <= kSmallLltSize; ++n)
    for (Eigen::Index k = 1; k <= 4; ++k)
      for (int trial = 0; trial < 50; ++trial) {
        const Eigen::LLT<Eigen::MatrixXd> llt(block_diagonal_spd(n, rng));
        ASSERT_EQ(llt.info(), Eigen::Success);
        Eigen::MatrixXd B(n, k);   // a contact row: ±0 where the row does not reach
        for (Eigen::Index i = 0; i < n; ++i)
          for (Eigen::Index j = 0; j < k; ++j) {
            const int e = entry(rng);
            B(i, j) = e == 0 ? 0.0 : e == 1 ? -0.0 : u(rng);
          }
        Eigen::MatrixXd expected = B, actual = B;
        llt.solveInPlace(expected);
        small_llt_solve_in_place(llt, actual);
        ASSERT_EQ(std::memcmp(expected.data(), actual.data(), sizeof(double) * expected.size()), 0)
            << "n = " << n << ", k = " << k << ", trial " << trial;
        ++compared;
      }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace impetus
