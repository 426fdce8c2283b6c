#include "dynamics/subspace6_times.hpp"

#include <cmath>

namespace impetus {

Vec6 subspace6_times(const double* S, const double* x) {
  // Unrolled, the six rows' chains side by side in registers: one row's after another's, or through memory,
  // would wait on each fma.
  double r[6] = {0, 0, 0, 0, 0, 0};
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j)
#pragma GCC unroll 6
    for (int i = 0; i < 6; ++i) r[i] = std::fma(S[i + 6 * j], x[j], r[i]);
  return Vec6(r);
}

}  // namespace impetus
