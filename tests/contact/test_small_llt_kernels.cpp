// small_llt_kernels(): a hand-written kernel runs only where it is Eigen's arithmetic to the bit. Where the
// check accepts a kernel, test_small_llt_compute.cpp, test_small_llt_solve.cpp and test_small_llt_solve_vector.cpp
// hold it to Eigen's bits on their own random matrices (through the same dispatch). This holds the other side:
// a kernel the check turns down does differ from Eigen's on matrices of the kind it is used on — the check's
// comparison is not what failed (e.g. GCC's znver tunings, which keep the scalar loops from fusing FMA chains).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "contact/small_llt_kernels.hpp"
#include "contact/small_llt_solve_vector.hpp"

namespace impetus {
namespace {

// S (A Aᵀ + 10⁻³ 1) S with S a diagonal spread over ten orders of magnitude, or its diagonal blocks only.
Eigen::MatrixXd spd(Eigen::Index n, bool block_diagonal, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  Eigen::MatrixXd A(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) A(i, j) = block_diagonal && (i < n / 2) != (j < n / 2) ? 0.0 : u(rng);
  Eigen::VectorXd scale(n);
  for (Eigen::Index i = 0; i < n; ++i) scale[i] = std::pow(10.0, exponent(rng));
  return scale.asDiagonal() * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n)) * scale.asDiagonal();
}

TEST(SmallLltKernels, AKernelTurnedDownDiffersFromEigen) {
  const SmallLltKernels& kernels = small_llt_kernels();
  RecordProperty("compute", kernels.compute);
  RecordProperty("solve", kernels.solve);
  RecordProperty("solve_vector", kernels.solve_vector);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  bool compute_differs = false, solve_differs = false, solve_vector_differs = false;
  for (int trial = 0; trial < 400; ++trial)
    for (Eigen::Index n = 1; n <= kSmallLltSize; ++n) {
      const Eigen::MatrixXd M = spd(n, trial % 2 == 1, rng);
      const Eigen::LLT<Eigen::MatrixXd> llt(M);
      Eigen::MatrixXd L = M;
      small_llt_detail::kFactorOfSize[n](L.data(), n);
      compute_differs |= std::memcmp(L.data(), llt.matrixLLT().data(), sizeof(double) * n * n) != 0;
      Eigen::MatrixXd X = Eigen::MatrixXd::NullaryExpr(n, 2, [&] { return u(rng); }), Y = X;
      llt.solveInPlace(X);
      small_llt_detail::kSolveOfSize[n](llt.matrixLLT().data(), n, Y.data(), n, 2);
      solve_differs |= std::memcmp(X.data(), Y.data(), sizeof(double) * X.size()) != 0;
      if (n > kSmallLltVectorSize) continue;
      Eigen::VectorXd x = X.col(1), y = x;
      llt.matrixL().solveInPlace(x);
      llt.matrixU().solveInPlace(x);
      small_llt_detail::kSolveVectorOfSize[n](llt.matrixLLT().data(), n, y.data());
      solve_vector_differs |= std::memcmp(x.data(), y.data(), sizeof(double) * n) != 0;
    }
  EXPECT_TRUE(kernels.compute || compute_differs) << "the factor kernel was turned down, yet is Eigen's here";
  EXPECT_TRUE(kernels.solve || solve_differs) << "the matrix solve kernel was turned down, yet is Eigen's here";
  EXPECT_TRUE(kernels.solve_vector || solve_vector_differs)
      << "the vector solve kernel was turned down, yet is Eigen's here";
}

}  // namespace
}  // namespace impetus
