// The check of small_llt_kernels.hpp: each hand-written kernel against the Eigen routine it stands in for.
#include "contact/small_llt_kernels.hpp"

#include <cmath>
#include <cstring>
#include <random>

#include "contact/small_llt_compute.hpp"
#include "contact/small_llt_solve.hpp"
#include "contact/small_llt_solve_vector.hpp"

namespace impetus {
namespace {

constexpr int kTrials = 50;

bool same_bits(const double* a, const double* b, Eigen::Index size) {
  return std::memcmp(a, b, sizeof(double) * size) == 0;
}

class Matrices {
 public:
  /// S (A Aᵀ + 10⁻³ 1) S, S spread over ten orders of magnitude; with `blocks`, dense groups of coordinates
  /// with exact zeros between them (a free body's diag(m·1, I_C)); with `indefinite`, A + Aᵀ.
  Eigen::MatrixXd symmetric(Eigen::Index n, bool blocks, bool indefinite) {
    if (indefinite) {
      const Eigen::MatrixXd A = uniform(n, n);
      return A + A.transpose();
    }
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index first = 0; first < n;) {
      Eigen::Index size = blocks ? 1 : n - first;
      while (blocks && first + size < n && coin_(rng_) != 0) ++size;
      const Eigen::MatrixXd A = uniform(size, size);
      const Eigen::VectorXd s = spread(size);
      M.block(first, first, size, size) =
          s.asDiagonal() * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(size, size)) * s.asDiagonal();
      first += size;
    }
    return M;
  }

  /// Right-hand sides over ten orders of magnitude, a sixth of the entries ±0 (the sign of the entry kept).
  Eigen::MatrixXd right_hand_sides(Eigen::Index n, Eigen::Index k) {
    Eigen::MatrixXd B = uniform(n, k);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < k; ++j) B(i, j) = coin_(rng_) == 0 && u_(rng_) < 0 ? std::copysign(0.0, B(i, j))
                                                                                        : B(i, j) * spread(1)[0];
    return B;
  }

 private:
  Eigen::MatrixXd uniform(Eigen::Index rows, Eigen::Index cols) {
    Eigen::MatrixXd A(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j) A(i, j) = u_(rng_);
    return A;
  }
  Eigen::VectorXd spread(Eigen::Index n) {
    Eigen::VectorXd s(n);
    for (Eigen::Index i = 0; i < n; ++i) s[i] = std::pow(10.0, exponent_(rng_));
    return s;
  }

  std::mt19937 rng_{20261127};
  std::uniform_real_distribution<double> u_{-1.0, 1.0}, exponent_{-5.0, 5.0};
  std::uniform_int_distribution<int> coin_{0, 2};
};

bool compute_is_eigens(FusedLoops fused) {
  Matrices matrices;
  for (Eigen::Index n = 1; n <= kSmallLltSize; ++n)
    for (int trial = 0; trial < kTrials; ++trial)
      for (const bool blocks : {false, true})
        for (const bool indefinite : {false, true}) {
          const Eigen::MatrixXd M = matrices.symmetric(n, blocks, indefinite);
          const Eigen::LLT<Eigen::MatrixXd> expected(M);
          Eigen::MatrixXd L = M;
          const bool ok = small_llt_detail::kFactorOfSize[fused][n](L.data(), L.outerStride()) == -1;
          if (ok != (expected.info() == Eigen::Success) || !same_bits(L.data(), expected.matrixLLT().data(), n * n))
            return false;
        }
  return true;
}

bool solve_is_eigens(FusedLoops fused) {
  Matrices matrices;
  for (Eigen::Index n = 1; n <= kSmallLltSize; ++n)
    for (int trial = 0; trial < kTrials; ++trial) {
      const Eigen::LLT<Eigen::MatrixXd> llt(matrices.symmetric(n, trial % 2 == 1, false));
      const Eigen::MatrixXd B = matrices.right_hand_sides(n, 1 + trial % 4);
      Eigen::MatrixXd expected = B, actual = B;
      llt.solveInPlace(expected);
      small_llt_detail::kSolveOfSize[fused][n](llt.matrixLLT().data(), n, actual.data(), n, actual.cols());
      if (!same_bits(expected.data(), actual.data(), expected.size())) return false;
    }
  return true;
}

bool solve_vector_is_eigens(FusedLoops fused) {
  Matrices matrices;
  for (Eigen::Index n = 1; n <= kSmallLltVectorSize; ++n)
    for (int trial = 0; trial < kTrials; ++trial) {
      const Eigen::LLT<Eigen::MatrixXd> llt(matrices.symmetric(n, trial % 2 == 1, false));
      const Eigen::VectorXd b = matrices.right_hand_sides(n, 1);
      Eigen::VectorXd expected = b, actual = b;
      llt.matrixL().solveInPlace(expected);   // small_llt_solve_vector_in_place's path above its sizes
      llt.matrixU().solveInPlace(expected);
      small_llt_detail::kSolveVectorOfSize[fused][n](llt.matrixLLT().data(), n, actual.data());
      if (!same_bits(expected.data(), actual.data(), n)) return false;
    }
  return true;
}

/// The first variant of a kernel with `loops` scalar loops that is Eigen's on the check's matrices (each
/// variant on the same ones: every *_is_eigens draws them from the same seed).
SmallLltKernel first_variant_that_is_eigens(bool (*is_eigens)(FusedLoops), int loops) {
  for (FusedLoops fused = 0; fused < (1u << loops); ++fused)
    if (is_eigens(fused)) return {true, fused};
  return {};
}

SmallLltKernels check_kernels() {
  SmallLltKernels kernels;
  kernels.compute = first_variant_that_is_eigens(compute_is_eigens, small_llt_detail::kFactorLoops);
  kernels.solve = first_variant_that_is_eigens(solve_is_eigens, small_llt_detail::kSolveLoops);
  kernels.solve_vector = first_variant_that_is_eigens(solve_vector_is_eigens, small_llt_detail::kSolveVectorLoops);
  return kernels;
}

}  // namespace

const SmallLltKernels& small_llt_kernels() {
  static const SmallLltKernels kernels = check_kernels();
  return kernels;
}

}  // namespace impetus
