// X ← M⁻¹ X for a system block's Cholesky factor M = L Lᵀ and a few right-hand sides, for the blocks of at most
// one of Eigen's triangular panels (a free body's 6×6 M, a short chain).
//
// Why: LLT::solveInPlace goes through Eigen's blocked triangular solver (blocking set-up, packing of the rhs,
// an out-of-line kernel), which for a 6×k block costs several times the ~n²k flops it does: it was ~10 % of a
// step of 1000 resting spheres, once per contact row in the Delassus operator (contact/problem.cpp). For a
// triangle that fits one panel (n ≤ max(mr, nr) of Eigen's gebp traits: 6 with SSE2, 12 with AVX, 24 with
// AVX-512), that solver does only its scalar panel loop (triangular_solve_matrix, Eigen/src/Core/products/
// TriangularSolverMatrix.h), whose arithmetic is written out below in the same order — forward substitution by
// columns (x_i ← x_i·(1/L_ii), then x_r −= x_i L_ri, a lone product the compiler contracts where the build has
// FMA), back substitution by rows (x_i ← (x_i − Σ_{c>i} L_ci x_c)·(1/L_ii), the sum a scalar loop from 0 in
// increasing c, fused or not as the variant says: small_llt_arithmetic.hpp) — so every result is the
// same to the bit and every scene steps as before. tests/contact/test_small_llt_solve.cpp checks the bits
// against Eigen's own on random factors of every size it takes.
//
// The loops are written once with n a template argument and instantiated for every n ≤ kSmallLltSize: with
// runtime bounds the compiler could neither unroll nor keep L in registers, and the loop overhead of n = 6 was
// again ~10 % of the resting spheres' step (three solves of one column per contact, OneContactDelassus). A
// constant bound changes which instructions run, not which operations in which order: the bits are the same.
#pragma once

#include <array>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "contact/small_llt_arithmetic.hpp"
#include "contact/small_llt_kernels.hpp"

namespace impetus {

/// The largest n for which small_llt_solve_in_place reproduces Eigen's LLT::solveInPlace bit for bit.
constexpr Eigen::Index kSmallLltSize =
    Eigen::internal::gebp_traits<double, double>::mr > Eigen::internal::gebp_traits<double, double>::nr
        ? Eigen::internal::gebp_traits<double, double>::mr
        : Eigen::internal::gebp_traits<double, double>::nr;

namespace small_llt_detail {

/// The sum LLT::solveInPlace runs as a scalar loop: bit 0 of solve's FusedLoops.
enum SolveLoop : FusedLoops {
  kBackSubstitutionSum = 1,   // Σ_{c>i} L_ci x_c
};
constexpr int kSolveLoops = 1;

/// X ← (L Lᵀ)⁻¹ X for n×n L (column-major, leading dimension ldl) and n×k X (leading dimension ldx).
template <Eigen::Index n, FusedLoops fused>
void solve(const double* L, Eigen::Index ldl, double* X, Eigen::Index ldx, Eigen::Index k) {
  for (Eigen::Index i = 0; i < n; ++i) {   // L Y = X
    const double a = 1.0 / L[i + i * ldl];
    for (Eigen::Index j = 0; j < k; ++j) {
      double* x = X + j * ldx;
      x[i] *= a;
      const double b = x[i];
      for (Eigen::Index r = i + 1; r < n; ++r) x[r] = multiply_add(-b, L[r + i * ldl], x[r]);
    }
  }
  constexpr bool fused_sum = fused & kBackSubstitutionSum;
  for (Eigen::Index i = n - 1; i >= 0; --i) {   // Lᵀ X = Y
    const double a = 1.0 / L[i + i * ldl];
    for (Eigen::Index j = 0; j < k; ++j) {
      double* x = X + j * ldx;
      double b = 0;
      for (Eigen::Index c = i + 1; c < n; ++c) b = sum_step<fused_sum>(L[c + i * ldl], x[c], b);
      x[i] = (x[i] - b) * a;
    }
  }
}

using Solve = void (*)(const double*, Eigen::Index, double*, Eigen::Index, Eigen::Index);

template <FusedLoops fused, Eigen::Index... n>
constexpr std::array<Solve, sizeof...(n)> solve_row(std::integer_sequence<Eigen::Index, n...>) {
  return {&solve<n, fused>...};
}

template <FusedLoops... fused>
constexpr std::array<std::array<Solve, kSmallLltSize + 1>, sizeof...(fused)> solve_table(
    std::integer_sequence<FusedLoops, fused...>) {
  return {solve_row<fused>(std::make_integer_sequence<Eigen::Index, kSmallLltSize + 1>{})...};
}

/// solve<n, fused> at [fused][n] (index n = 0 solves nothing).
inline constexpr auto kSolveOfSize = solve_table(std::make_integer_sequence<FusedLoops, 1u << kSolveLoops>{});

}  // namespace small_llt_detail

/// X ← (L Lᵀ)⁻¹ X with L the lower triangle of `llt` (n ≤ kSmallLltSize); Eigen's solveInPlace where the
/// kernel is not Eigen's to the bit on this build.
inline void small_llt_solve_in_place(const Eigen::LLT<Eigen::MatrixXd>& llt, Eigen::Ref<Eigen::MatrixXd> X) {
  const Eigen::MatrixXd& L = llt.matrixLLT();
  const Eigen::Index n = L.rows();
  eigen_assert(n <= kSmallLltSize && X.rows() == n);
  const SmallLltKernel& kernel = small_llt_kernels().solve;   // (small_llt_kernels.hpp)
  if (!kernel.accepted) {
    llt.solveInPlace(X);
    return;
  }
  const auto solve = small_llt_detail::kSolveOfSize[kernel.fused][n];
  solve(L.data(), L.outerStride(), X.data(), X.outerStride(), X.cols());
}

}  // namespace impetus
