// small_llt_kernels(): a hand-written kernel runs only where it is Eigen's arithmetic to the bit. Where the
// check accepts a kernel, test_small_llt_compute.cpp, test_small_llt_solve.cpp and test_small_llt_solve_vector.cpp
// hold it to Eigen's bits on their own random matrices (through the same dispatch). This holds the two other
// sides: every kernel is accepted on the builds it is written for (x86-64 with SSE2 only, or with FMA under
// GCC's cooperlake, znver and generic tunings, which fuse different sets of Eigen's scalar loops), and a kernel
// the check turns down does differ from Eigen's, in every variant, on matrices of the kind it is used on — the
// check's comparison is not what failed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "contact/small_llt_compute.hpp"
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

// Eigen's packets fuse where the build has FMA, and which of its scalar loops are fused is the compiler's
// choice (AMD EPYC's -march=native, znver3: the factor's and the matrix solve's none, the vector solve's short
// sums only; cooperlake: all): the kernels spell both out, so the check accepts every one of them. Before they
// did (the products left to the compiler's contraction), all three were turned down on znver3.
TEST(SmallLltKernels, EveryKernelIsAccepted) {
  const SmallLltKernels& kernels = small_llt_kernels();
  RecordProperty("compute_fused", static_cast<int>(kernels.compute.fused));
  RecordProperty("solve_fused", static_cast<int>(kernels.solve.fused));
  RecordProperty("solve_vector_fused", static_cast<int>(kernels.solve_vector.fused));
  EXPECT_TRUE(kernels.compute.accepted) << "the factor kernel is not LLT::compute's in any variant";
  EXPECT_TRUE(kernels.solve.accepted) << "the matrix solve kernel is not LLT::solveInPlace's in any variant";
  EXPECT_TRUE(kernels.solve_vector.accepted) << "the vector solve kernel is not LLT::solve's in any variant";
}

TEST(SmallLltKernels, AKernelTurnedDownDiffersFromEigen) {
  const SmallLltKernels& kernels = small_llt_kernels();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Per variant: whether it differs from Eigen's on some matrix.
  std::array<bool, 1u << small_llt_detail::kFactorLoops> compute_differs{};
  std::array<bool, 1u << small_llt_detail::kSolveLoops> solve_differs{};
  std::array<bool, 1u << small_llt_detail::kSolveVectorLoops> solve_vector_differs{};
  for (int trial = 0; trial < 400; ++trial)
    for (Eigen::Index n = 1; n <= kSmallLltSize; ++n) {
      const Eigen::MatrixXd M = spd(n, trial % 2 == 1, rng);
      const Eigen::LLT<Eigen::MatrixXd> llt(M);
      for (FusedLoops fused = 0; fused < compute_differs.size(); ++fused) {
        Eigen::MatrixXd L = M;
        small_llt_detail::kFactorOfSize[fused][n](L.data(), n);
        compute_differs[fused] |= std::memcmp(L.data(), llt.matrixLLT().data(), sizeof(double) * n * n) != 0;
      }
      const Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, 2, [&] { return u(rng); });
      Eigen::MatrixXd X = B;
      llt.solveInPlace(X);
      for (FusedLoops fused = 0; fused < solve_differs.size(); ++fused) {
        Eigen::MatrixXd Y = B;
        small_llt_detail::kSolveOfSize[fused][n](llt.matrixLLT().data(), n, Y.data(), n, 2);
        solve_differs[fused] |= std::memcmp(X.data(), Y.data(), sizeof(double) * X.size()) != 0;
      }
      if (n > kSmallLltVectorSize) continue;
      Eigen::VectorXd x = B.col(1);
      llt.matrixL().solveInPlace(x);
      llt.matrixU().solveInPlace(x);
      for (FusedLoops fused = 0; fused < solve_vector_differs.size(); ++fused) {
        Eigen::VectorXd y = B.col(1);
        small_llt_detail::kSolveVectorOfSize[fused][n](llt.matrixLLT().data(), n, y.data());
        solve_vector_differs[fused] |= std::memcmp(x.data(), y.data(), sizeof(double) * n) != 0;
      }
    }
  const auto all = [](const auto& differs) {
    return std::all_of(differs.begin(), differs.end(), [](bool d) { return d; });
  };
  EXPECT_TRUE(kernels.compute.accepted || all(compute_differs))
      << "the factor kernel was turned down, yet a variant is Eigen's here";
  EXPECT_TRUE(kernels.solve.accepted || all(solve_differs))
      << "the matrix solve kernel was turned down, yet a variant is Eigen's here";
  EXPECT_TRUE(kernels.solve_vector.accepted || all(solve_vector_differs))
      << "the vector solve kernel was turned down, yet a variant is Eigen's here";
}

}  // namespace
}  // namespace impetus
