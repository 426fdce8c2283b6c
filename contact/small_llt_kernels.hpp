// Whether this build's hand-written small Cholesky kernels (small_llt_compute.hpp, small_llt_solve.hpp,
// small_llt_solve_vector.hpp) are Eigen's arithmetic to the bit on this machine: checked once, at first use,
// on random matrices of every size they take (dense, with exact zeros, and indefinite for the factor).
//
// Why: they stand in for Eigen's LLT on the promise of the same bits. Where Eigen's packets fuse (pmadd: vfmadd
// with FMA) the kernels fuse explicitly (small_llt_arithmetic.hpp). Eigen's scalar sum loops, though, are
// fused or not as the compiler decides, loop by loop: GCC's cooperlake tuning contracts them all into chains of
// fused multiply-adds, its znver tunings avoid such chains (--param avoid-fma-max-bits=256) in some of them and
// not in others (LLT::solve of a vector: the short dot products fused, the tail after a packet not), and
// without FMA nothing is fused. Each kernel is therefore instantiated for every combination of its scalar loops
// fused or not (FusedLoops) and the check keeps the first that is Eigen's on this build; where none is, Eigen's
// own routine runs instead, slower, and every scene steps as Eigen steps it.
#pragma once

namespace impetus {

/// Which of a kernel's sums that Eigen runs as scalar loops (s += a·b over a range known at run time only) the
/// compiler fused into a chain of FMAs: bit b for the kernel's loop b (each kernel lists its loops).
using FusedLoops = unsigned;

/// One kernel's verdict.
struct SmallLltKernel {
  bool accepted = false;   // a variant of the kernel is Eigen's to the bit
  FusedLoops fused = 0;    // the accepted variant
};

struct SmallLltKernels {
  SmallLltKernel compute;        // small_llt_detail::factor<n, fused> is LLT::compute's factor
  SmallLltKernel solve;          // small_llt_detail::solve<n, fused> is LLT::solveInPlace of a matrix
  SmallLltKernel solve_vector;   // small_llt_detail::solve_vector<n, fused> is LLT::solve of a vector
};

/// The check's verdicts (computed on the first call, thread-safe).
const SmallLltKernels& small_llt_kernels();

}  // namespace impetus
