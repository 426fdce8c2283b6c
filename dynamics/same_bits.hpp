// Bitwise equality of two runs of doubles, for the kept results of the step (a tree's kinematics, its bias h).
#pragma once

#include <cstdint>
#include <cstring>

namespace impetus {

/// The n doubles at a and b bitwise equal (−0 ≠ +0, a NaN equal to its own bits). Inline: a libc memcmp call per
/// tree's few dozen bytes cost more than the compare (keep3's perf of dynamics/rnea.cpp).
inline bool same_bits(const double* a, const double* b, std::size_t n) {
  std::uint64_t differ = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t x, y;
    std::memcpy(&x, a + k, sizeof x);
    std::memcpy(&y, b + k, sizeof y);
    differ |= x ^ y;
  }
  return differ == 0;
}

}  // namespace impetus
