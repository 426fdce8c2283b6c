// Whether this build's hand-written small Cholesky kernels (small_llt_compute.hpp, small_llt_solve.hpp,
// small_llt_solve_vector.hpp) are Eigen's arithmetic to the bit on this machine: checked once, at first use,
// on random matrices of every size they take (dense, with exact zeros, and indefinite for the factor).
//
// Why: they stand in for Eigen's LLT on the promise of the same bits, and that promise rests on which products
// the compiler fuses into the sums that use them — a tuning decision, not the instruction set's. GCC's znver
// tunings avoid chains of fused multiply-adds (--param avoid-fma-max-bits=256) in the scalar loops written
// here, while Eigen's packet kernels issue FMA instructions themselves; on such a build (AMD EPYC, -march=native)
// the factor differs in its last bits. A kernel that differs from Eigen's on the check's matrices is not used:
// Eigen's own routine runs instead, slower, and every scene steps as Eigen steps it.
#pragma once

namespace impetus {

struct SmallLltKernels {
  bool compute = false;        // small_llt_detail::factor<n> is LLT::compute's factor
  bool solve = false;          // small_llt_detail::solve<n> is LLT::solveInPlace of a matrix
  bool solve_vector = false;   // small_llt_detail::solve_vector<n> is LLT::solve of a vector
};

/// The check's verdicts (computed on the first call, thread-safe).
const SmallLltKernels& small_llt_kernels();

}  // namespace impetus
