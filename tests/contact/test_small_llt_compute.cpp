// SmallLlt::compute stands in for Eigen's LLT::compute on the trees' small M_eff (sim/free_velocity.cpp), on the
// promise that it is the same arithmetic in the same order: if it is not, every scene's bits move. This holds
// it to that promise, bit for bit (the whole stored matrix, the info and rcond()), on random SPD matrices of
// every size it takes with entries spread over ten orders of magnitude, on matrices with exact zeros (a free
// body's diag(m·1, I_C), uncoupled chains: the signs of zero), and on matrices that are not positive definite
// (where it must fail at the same column, leaving the same partial factor).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/small_llt_compute.hpp"

namespace impetus {
namespace {

Eigen::MatrixXd random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) A(i, j) = u(rng);
  return A;
}

// S (A Aᵀ + 10⁻³ 1) S with S a diagonal spread over ten orders of magnitude.
Eigen::MatrixXd dense_spd(Eigen::Index n, std::mt19937& rng) {
  std::uniform_real_distribution<double> exponent(-5.0, 5.0);
  const Eigen::MatrixXd A = random_matrix(n, n, rng);
  Eigen::VectorXd scale(n);
  for (Eigen::Index i = 0; i < n; ++i) scale[i] = std::pow(10.0, exponent(rng));
  return scale.asDiagonal() * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n)) * scale.asDiagonal();
}

// Dense groups of coordinates with nothing between them (a free body: {0, 1, 2}, {3, 4, 5} or six singletons).
Eigen::MatrixXd block_diagonal_spd(Eigen::Index n, std::mt19937& rng) {
  std::uniform_int_distribution<int> coin(0, 2);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index first = 0; first < n;) {
    Eigen::Index size = 1;
    while (first + size < n && coin(rng) != 0) ++size;
    M.block(first, first, size, size) = dense_spd(size, rng);
    first += size;
  }
  return M;
}

// Symmetric, with a random spectrum of either sign: the factorization fails at some column, or at none.
Eigen::MatrixXd symmetric_indefinite(Eigen::Index n, std::mt19937& rng) {
  const Eigen::MatrixXd A = random_matrix(n, n, rng);
  return A + A.transpose();
}

// `reused`: a SmallLlt that has computed other factors before (none: a new one).
void expect_same_factor(const Eigen::MatrixXd& M, const char* kind, Eigen::Index n, int trial,
                        SmallLlt* reused = nullptr) {
  const Eigen::LLT<Eigen::MatrixXd> expected(M);
  SmallLlt fresh;
  SmallLlt& actual = reused != nullptr ? *reused : fresh;
  actual.compute(M);
  ASSERT_EQ(expected.info(), actual.info()) << kind << " n = " << n << ", trial " << trial;
  ASSERT_EQ(std::memcmp(expected.matrixLLT().data(), actual.matrixLLT().data(), sizeof(double) * n * n), 0)
      << kind << " n = " << n << ", trial " << trial << ": max difference "
      << (expected.matrixLLT() - actual.matrixLLT()).cwiseAbs().maxCoeff();
  if (expected.info() == Eigen::Success) {
    const double rcond_expected = expected.rcond(), rcond_actual = actual.rcond();
    ASSERT_EQ(std::memcmp(&rcond_expected, &rcond_actual, sizeof(double)), 0) << kind << " n = " << n;
  }
}

TEST(SmallLltCompute, IsEigensComputeToTheBit) {
  std::mt19937 rng(20261127);
  int successes = 0, failures = 0;
  for (Eigen::Index n = 1; n <= kSmallLltSize; ++n)
    for (int trial = 0; trial < 200; ++trial) {
      expect_same_factor(dense_spd(n, rng), "dense", n, trial);
      expect_same_factor(block_diagonal_spd(n, rng), "block-diagonal", n, trial);
      const Eigen::MatrixXd indefinite = symmetric_indefinite(n, rng);
      expect_same_factor(indefinite, "indefinite", n, trial);
      if (HasFatalFailure()) return;
      (Eigen::LLT<Eigen::MatrixXd>(indefinite).info() == Eigen::Success ? successes : failures) += 1;
    }
  EXPECT_GT(failures, 0);   // the failing path was taken
  EXPECT_GT(successes, 0);
}

TEST(SmallLltCompute, LargerMatricesAreEigensCompute) {
  std::mt19937 rng(7);
  const Eigen::Index n = kSmallLltSize + 5;
  expect_same_factor(dense_spd(n, rng), "dense", n, 0);
}

// The factor of the M computed last is kept; any other M, be it one bit away, is factored: each compute of a
// sequence gives Eigen's factor of its own M.
TEST(SmallLltCompute, KeepsTheFactorOfTheSameMatrixOnly) {
  std::mt19937 rng(11);
  for (Eigen::Index n : {Eigen::Index(6), kSmallLltSize + 2}) {
    const Eigen::MatrixXd M = block_diagonal_spd(n, rng), other = dense_spd(n, rng);
    Eigen::MatrixXd nudged = M;   // one ulp up in one diagonal entry
    nudged(n - 1, n - 1) = std::nextafter(nudged(n - 1, n - 1), 2 * nudged(n - 1, n - 1));
    SmallLlt llt;
    const Eigen::MatrixXd* const sequence[] = {&M, &M, &nudged, &M, &other, &other, &M};
    for (const Eigen::MatrixXd* each : sequence) {
      expect_same_factor(*each, "sequence", n, 0, &llt);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace impetus
