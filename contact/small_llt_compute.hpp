// M = L Lᵀ for a system block's small M (a free body's 6×6 M_eff, a short chain), the factor Eigen's
// LLT::compute writes, to the bit.
//
// Why: LLT<MatrixXd>::compute of a 6×6 matrix runs Eigen's unblocked Cholesky with runtime bounds, a gemv call
// per column and strided reductions: ~5 % of a step of 1000 resting spheres, once per free body per step
// (sim/free_velocity.cpp). For n < 32 Eigen factors column by column (llt_inplace::unblocked); its arithmetic
// is written out below in the same order, with n a template argument:
//   x = M_kk − Σ_{j<k} L_kj²   the sum from L_k0² (rounded), then fused multiply-adds in increasing j;
//   L_kk = √x, failing (info NumericalIssue) at the first x ≤ 0, with the columns before k done;
//   L_ik −= Σ_{j<k} L_ij L_kj  for i > k: Eigen's gemv (a sum from +0, fused multiply-adds in increasing j,
//                              then subtracted) for two rows or more, its dot product (a sum from the first
//                              product, rounded) for the last row;
//   L_ik /= L_kk.
// Where Eigen's sum starts from a product rounded in a loop, the compiler must not fuse that product into the
// next addition or subtraction: kept_rounded stops it. The L1 norm LLT keeps for rcond() is Eigen's own
// expression. tests/contact/test_small_llt_compute.cpp checks the factor's bits against Eigen's on random
// matrices of every size this takes, dense and with exact zeros. The factor of an M equal to the last one is
// kept, not computed again: the resting spheres' M do not change from step to step.
#pragma once

#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "contact/small_llt_kernels.hpp"
#include "contact/small_llt_solve.hpp"

namespace impetus {

namespace small_llt_detail {

/// x, rounded to double and hidden from the compiler's contraction of a product into the sum that uses it.
inline double kept_rounded(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(x));
#endif
  return x;
}

/// L in the lower triangle of A (n×n, column-major, leading dimension lda); −1, or the column whose pivot
/// was not positive.
template <Eigen::Index n>
Eigen::Index factor(double* A, Eigen::Index lda) {
  const auto a = [&](Eigen::Index i, Eigen::Index j) -> double& { return A[i + j * lda]; };
  for (Eigen::Index k = 0; k < n; ++k) {
    double x = a(k, k);
    if (k > 0) {
      double s = kept_rounded(a(k, 0) * a(k, 0));
      for (Eigen::Index j = 1; j < k; ++j) s += a(k, j) * a(k, j);
      x -= s;
    }
    if (x <= 0) return k;
    x = std::sqrt(x);
    a(k, k) = x;
    const Eigen::Index rs = n - k - 1;
    if (k > 0 && rs > 1) {
      for (Eigen::Index i = k + 1; i < n; ++i) {
        double c = 0;
        for (Eigen::Index j = 0; j < k; ++j) c += a(i, j) * a(k, j);
        a(i, k) -= c;
      }
    } else if (k > 0 && rs == 1) {
      double c = kept_rounded(a(n - 1, 0) * a(k, 0));
      for (Eigen::Index j = 1; j < k; ++j) c += a(n - 1, j) * a(k, j);
      a(n - 1, k) -= c;
    }
    for (Eigen::Index i = k + 1; i < n; ++i) a(i, k) /= x;
  }
  return -1;
}

using Factor = Eigen::Index (*)(double*, Eigen::Index);

template <Eigen::Index... n>
constexpr std::array<Factor, sizeof...(n)> factor_table(std::integer_sequence<Eigen::Index, n...>) {
  return {&factor<n>...};
}

/// factor<n> at index n (index 0 factors nothing).
inline constexpr auto kFactorOfSize = factor_table(std::make_integer_sequence<Eigen::Index, kSmallLltSize + 1>{});

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
    if (n > kSmallLltSize || !small_llt_kernels().compute) {   // (small_llt_kernels.hpp)
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
    const bool ok = small_llt_detail::kFactorOfSize[n](m_matrix.data(), m_matrix.outerStride()) == -1;
    m_info = ok ? Eigen::Success : Eigen::NumericalIssue;
    return *this;
  }

 private:
  Eigen::MatrixXd factored_;   // (n×n) the M whose factor this holds
};

}  // namespace impetus
