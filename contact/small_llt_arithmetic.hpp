// The two roundings of a product and a sum the small Cholesky kernels (small_llt_compute.hpp,
// small_llt_solve.hpp, small_llt_solve_vector.hpp) need to be Eigen's arithmetic to the bit, written out so
// that the compiler's contraction of a product into a sum (a tuning decision: GCC fuses everything on
// cooperlake, and on znver avoids some chains of fused multiply-adds, --param avoid-fma-max-bits=256) cannot
// change them:
//   multiply_add(a, b, c)   a·b + c as Eigen's packets compute it (pmadd: vfmadd where the build has FMA, a
//                           rounded product and a sum otherwise), and as every tuning contracts a lone product
//                           into the sum that uses it (x −= b·l, once per element);
//   sum_step<fused>(a, b, s)  s + a·b inside a sum Eigen runs as a scalar loop over a run-time range (a strided
//                           reduction, a gemv's last row, a back substitution's dot product): whether the
//                           compiler fused that loop is its own choice, so the kernels are instantiated both
//                           ways (FusedLoops, small_llt_kernels.hpp) and the check keeps the one that is Eigen's.
#pragma once

#include <cmath>

#include "contact/small_llt_kernels.hpp"

namespace impetus::small_llt_detail {

/// x, rounded to double and hidden from the compiler's contraction of a product into the sum that uses it.
inline double kept_rounded(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(x));
#endif
  return x;
}

/// a·b + c rounded once where the build has FMA (Eigen's pmadd), the product rounded first otherwise.
inline double multiply_add(double a, double b, double c) {
#ifdef __FMA__
  return std::fma(a, b, c);
#else
  return kept_rounded(a * b) + c;
#endif
}

/// s + a·b, one step of a sum Eigen runs as a scalar loop, as the compiler built that loop (`fused` or not).
template <bool fused>
inline double sum_step(double a, double b, double s) {
  if constexpr (fused) return multiply_add(a, b, s);
  return kept_rounded(a * b) + s;
}

}  // namespace impetus::small_llt_detail
