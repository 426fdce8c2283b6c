// M = L Lᵀ for a system block's small M (a free body's 6×6 M_eff, a short chain), the factor Eigen's
// LLT::compute writes, to the bit.
//
// Why: LLT<MatrixXd>::compute of a 6×6 matrix runs Eigen's unblocked Cholesky with runtime bounds, a gemv call
// per column and strided reductions: ~5 % of a step of 1000 resting spheres, once per free body per step
// (sim/free_velocity.cpp). For n < 32 Eigen factors column by column (llt_inplace::unblocked, Eigen/src/
// Cholesky/LLT.h); its arithmetic is written out below in the same order, with n a template argument:
//   x = M_kk − Σ_{j<k} L_kj²   a strided reduction (scalar): the sum from L_k0² (rounded), then sum steps
//                              in increasing j;
//   L_kk = √x, failing (info NumericalIssue) at the first x ≤ 0, with the columns before k done;
//   L_ik −= Σ_{j<k} L_ij L_kj  for i > k: Eigen's column-major gemv (general_matrix_vector_product) for two
//                              rows or more — the rows its packets take (all but the last of an odd count)
//                              as pmadd chains from +0 in increasing j, the last row as a scalar loop of sum
//                              steps from 0 — and its dot product (a scalar reduction from the first product,
//                              rounded) for the last row alone;
//   L_ik /= L_kk.
// Which of these products are fused into their sums is spelt out (small_llt_arithmetic.hpp): the packets'
// pmadd where the build has FMA; the three scalar loops (FactorLoop) as the variant says. The L1 norm LLT keeps for
// rcond() is Eigen's own expression. tests/contact/test_small_llt_compute.cpp checks the factor's bits against
// Eigen's on random matrices of every size this takes, dense and with exact zeros. The factor of an M equal to
// the last one is kept, not computed again: the resting spheres' M do not change from step to step.
#pragma once

#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "contact/small_llt_arithmetic.hpp"
#include "contact/small_llt_kernels.hpp"
#include "contact/small_llt_solve.hpp"

namespace impetus {

namespace small_llt_detail {

/// The smallest packet of Eigen's column-major gemv (general_matrix_vector_product): its packets take all its
/// rows but rows % this, which a scalar loop takes.
constexpr Eigen::Index kGemvSmallestPacket =
    Eigen::internal::gemv_traits<double, double, Eigen::internal::GEMVPacketQuarter>::ResPacketSize;

/// The sums LLT::compute runs as scalar loops: bit b of factor's FusedLoops for each.
enum FactorLoop : FusedLoops {
  kSquaredNorm = 1,   // Σ_{j<k} L_kj² (a strided reduction)
  kGemvLastRow = 2,   // the gemv's row its packets leave over
  kDot = 4,           // the dot product for the last row alone
};
constexpr int kFactorLoops = 3;

/// L in the lower triangle of A (n×n, column-major, leading dimension lda); −1, or the column whose pivot
/// was not positive.
template <Eigen::Index n, FusedLoops fused>
Eigen::Index factor(double* A, Eigen::Index lda) {
  const auto a = [&](Eigen::Index i, Eigen::Index j) -> double& { return A[i + j * lda]; };
  constexpr bool fused_squared_norm = fused & kSquaredNorm, fused_gemv_row = fused & kGemvLastRow,
                 fused_dot = fused & kDot;
  for (Eigen::Index k = 0; k < n; ++k) {
    double x = a(k, k);
    if (k > 0) {   // A10.squaredNorm()
      double s = kept_rounded(a(k, 0) * a(k, 0));
      for (Eigen::Index j = 1; j < k; ++j) s = sum_step<fused_squared_norm>(a(k, j), a(k, j), s);
      x -= s;
    }
    if (x <= 0) return k;
    x = std::sqrt(x);
    a(k, k) = x;
    const Eigen::Index rs = n - k - 1;
    if (k > 0 && rs > 1) {   // A21 −= A20 A10ᵀ, Eigen's gemv
      const Eigen::Index packet_end = k + 1 + rs - rs % kGemvSmallestPacket;
      for (Eigen::Index i = k + 1; i < packet_end; ++i) {
        double c = 0;
        for (Eigen::Index j = 0; j < k; ++j) c = multiply_add(a(i, j), a(k, j), c);
        a(i, k) -= c;
      }
      for (Eigen::Index i = packet_end; i < n; ++i) {
        double c = 0;
        for (Eigen::Index j = 0; j < k; ++j) c = sum_step<fused_gemv_row>(a(i, j), a(k, j), c);
        a(i, k) -= c;
      }
    } else if (k > 0 && rs == 1) {   // the same, as Eigen's dot product of two strided vectors
      double c = kept_rounded(a(n - 1, 0) * a(k, 0));
      for (Eigen::Index j = 1; j < k; ++j) c = sum_step<fused_dot>(a(n - 1, j), a(k, j), c);
      a(n - 1, k) -= c;
    }
    for (Eigen::Index i = k + 1; i < n; ++i) a(i, k) /= x;
  }
  return -1;
}

using Factor = Eigen::Index (*)(double*, Eigen::Index);

template <FusedLoops fused, Eigen::Index... n>
constexpr std::array<Factor, sizeof...(n)> factor_row(std::integer_sequence<Eigen::Index, n...>) {
  return {&factor<n, fused>...};
}

template <FusedLoops... fused>
constexpr std::array<std::array<Factor, kSmallLltSize + 1>, sizeof...(fused)> factor_table(
    std::integer_sequence<FusedLoops, fused...>) {
  return {factor_row<fused>(std::make_integer_sequence<Eigen::Index, kSmallLltSize + 1>{})...};
}

/// factor<n, fused> at [fused][n] (index n = 0 factors nothing).
inline constexpr auto kFactorOfSize = factor_table(std::make_integer_sequence<FusedLoops, 1u << kFactorLoops>{});

}  // namespace small_llt_detail

/// Eigen's LLT of a MatrixXd whose compute() takes n ≤ kSmallLltSize without Eigen's generic loops: the
/// same factor, info and L1 norm to the bit (larger n, or a build where the kernel is not Eigen's to the bit:
/// Eigen's compute). compute() of the same M as the last
/// one, bit for bit, keeps the factor it has: a body at rest, or one whose M does not turn with it (a sphere),
/// has the same M step after step, and the factor is a function of M's bits. (The base's other mutator,
/// rankUpdate, must not be called on it: the factor would no longer be that of the M it keeps.)
class SmallLlt : public Eigen::LLT<Eigen::MatrixXd> {
 public:
  SmallLlt() = default;
  explicit SmallLlt(Eigen::Index n) : Eigen::LLT<Eigen::MatrixXd>(n) {}

  SmallLlt& compute(const Eigen::MatrixXd& M) {
    const Eigen::Index n = M.rows();
    eigen_assert(M.cols() == n);
    if (m_isInitialized && factored_.rows() == n && factored_.cols() == n &&
        std::memcmp(factored_.data(), M.data(), sizeof(double) * n * n) == 0)
      return *this;
    factored_ = M;
    const SmallLltKernel& kernel = small_llt_kernels().compute;   // (small_llt_kernels.hpp)
    if (n > kSmallLltSize || !kernel.accepted) {
      Eigen::LLT<Eigen::MatrixXd>::compute(M);
      return *this;
    }
    m_matrix = M;
    m_l1_norm = 0;   // max over columns of Σ|M_ij| of the symmetric M, from its lower triangle (LLT::rcond)
    for (Eigen::Index col = 0; col < n; ++col) {
      const double abs_col_sum =
          m_matrix.col(col).tail(n - col).template lpNorm<1>() + m_matrix.row(col).head(col).template lpNorm<1>();
      if (abs_col_sum > m_l1_norm) m_l1_norm = abs_col_sum;
    }
    m_isInitialized = true;
    const auto factor = small_llt_detail::kFactorOfSize[kernel.fused][n];
    const bool ok = factor(m_matrix.data(), m_matrix.outerStride()) == -1;
    m_info = ok ? Eigen::Success : Eigen::NumericalIssue;
    return *this;
  }

 private:
  Eigen::MatrixXd factored_;   // (n×n) the M whose factor this holds
};

}  // namespace impetus
