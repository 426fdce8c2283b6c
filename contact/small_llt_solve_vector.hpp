// x ← M⁻¹ x for one right-hand side x and a small factor M = L Lᵀ, the bits of Eigen's LLT::solve of a vector.
//
// Why: LLT<MatrixXd>::solve(vector) runs Eigen's triangular_solve_vector twice, with runtime bounds and a
// vectorised reduction per row: ~3 % of a step of 1000 resting spheres, once per free body per step (v*,
// sim/free_velocity.cpp). That is another path than small_llt_solve.hpp's (a matrix right-hand side): it
// divides by L_ii rather than multiplying by 1/L_ii, skips a zero x_i, and sums the back substitution's dot
// products with packets. For n ≤ Eigen's triangular panel width (8) one panel is all there is, and its
// arithmetic (triangular_solve_vector, Eigen/src/Core/products/TriangularSolverVector.h) is written out below
// in the same order, with n a template argument:
//   L y = x:   for i ↑, if x_i ≠ 0: x_i ← x_i / L_ii, then x_r −= x_i L_ri for r > i (a lone product the
//              compiler contracts where the build has FMA);
//   Lᵀ x = y:  for i ↓, x_i −= Σ_{c>i} L_ci x_c, then x_i ← x_i / L_ii if x_i ≠ 0; the sum of k terms as
//              Eigen's reduction with 4-wide packets (AVX) takes it: k < 4 from the first product (rounded)
//              then a scalar loop of sum steps in increasing c; k ≥ 4 the packet's (p_0 + p_2) + (p_1 + p_3) of
//              rounded products, then the rest as another scalar loop (each loop fused or not as the variant
//              says: small_llt_arithmetic.hpp; GCC's znver tunings fuse the first and not the second).
// With other packet widths (a portable build: SSE2's 2) the reduction's order differs and Eigen's solve is
// used. tests/contact/test_small_llt_solve_vector.cpp checks the bits against Eigen's own.
#pragma once

#include <algorithm>
#include <array>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "contact/small_llt_arithmetic.hpp"
#include "contact/small_llt_kernels.hpp"

namespace impetus {

/// The largest n for which small_llt_solve_vector_in_place reproduces Eigen's LLT::solve of a vector bit for
/// bit (0 where the reduction's packets are not 4 wide).
constexpr Eigen::Index kSmallLltVectorSize =
    Eigen::internal::packet_traits<double>::size == 4 ? std::min<Eigen::Index>(EIGEN_TUNE_TRIANGULAR_PANEL_WIDTH, 8) : 0;

namespace small_llt_detail {

/// The sums LLT::solve of a vector runs as scalar loops: bit b of solve_vector's FusedLoops for each.
enum SolveVectorLoop : FusedLoops {
  kShortSum = 1,        // a back substitution's Σ_{c>i} L_ci x_c shorter than a packet
  kSumAfterPacket = 2,  // its terms after the first packet's
};
constexpr int kSolveVectorLoops = 2;

template <Eigen::Index n, FusedLoops fused>
void solve_vector(const double* L, Eigen::Index ldl, double* x) {
  const auto l = [&](Eigen::Index i, Eigen::Index j) { return L[i + j * ldl]; };
  for (Eigen::Index i = 0; i < n; ++i) {   // L y = x
    if (x[i] == 0) continue;
    x[i] /= l(i, i);
    for (Eigen::Index r = i + 1; r < n; ++r) x[r] = multiply_add(-x[i], l(r, i), x[r]);
  }
  for (Eigen::Index i = n - 1; i >= 0; --i) {   // Lᵀ x = y
    const Eigen::Index k = n - 1 - i;
    const double* a = L + (i + 1) + i * ldl;   // L_ci for c > i
    const double* y = x + i + 1;
    if (k > 0) {
      double s;
      if (k >= 4) {
        s = (kept_rounded(a[0] * y[0]) + kept_rounded(a[2] * y[2])) +
            (kept_rounded(a[1] * y[1]) + kept_rounded(a[3] * y[3]));
        for (Eigen::Index c = 4; c < k; ++c) s = sum_step<(fused & kSumAfterPacket) != 0>(a[c], y[c], s);
      } else {
        s = kept_rounded(a[0] * y[0]);
        for (Eigen::Index c = 1; c < k; ++c) s = sum_step<(fused & kShortSum) != 0>(a[c], y[c], s);
      }
      x[i] -= s;
    }
    if (x[i] != 0) x[i] /= l(i, i);
  }
}

using SolveVector = void (*)(const double*, Eigen::Index, double*);

template <FusedLoops fused, Eigen::Index... n>
constexpr std::array<SolveVector, sizeof...(n)> solve_vector_row(std::integer_sequence<Eigen::Index, n...>) {
  return {&solve_vector<n, fused>...};
}

template <FusedLoops... fused>
constexpr std::array<std::array<SolveVector, kSmallLltVectorSize + 1>, sizeof...(fused)> solve_vector_table(
    std::integer_sequence<FusedLoops, fused...>) {
  return {solve_vector_row<fused>(std::make_integer_sequence<Eigen::Index, kSmallLltVectorSize + 1>{})...};
}

/// solve_vector<n, fused> at [fused][n] (index n = 0 solves nothing).
inline constexpr auto kSolveVectorOfSize =
    solve_vector_table(std::make_integer_sequence<FusedLoops, 1u << kSolveVectorLoops>{});

}  // namespace small_llt_detail

/// x ← (L Lᵀ)⁻¹ x with L the lower triangle of `llt`: Eigen's llt.solve(x) to the bit, without its generic
/// loops for n ≤ kSmallLltVectorSize.
inline void small_llt_solve_vector_in_place(const Eigen::LLT<Eigen::MatrixXd>& llt, Eigen::Ref<Eigen::VectorXd> x) {
  const Eigen::MatrixXd& L = llt.matrixLLT();
  const Eigen::Index n = L.rows();
  eigen_assert(x.size() == n);
  const SmallLltKernel& kernel = small_llt_kernels().solve_vector;   // (small_llt_kernels.hpp)
  if (n > kSmallLltVectorSize || !kernel.accepted) {
    llt.matrixL().solveInPlace(x);
    llt.matrixU().solveInPlace(x);
    return;
  }
  small_llt_detail::kSolveVectorOfSize[kernel.fused][n](L.data(), L.outerStride(), x.data());
}

}  // namespace impetus
