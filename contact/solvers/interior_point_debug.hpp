// Diagnostics of the interior-point method on stderr, switched on by the environment variable
// IPM_DEBUG: residuals, steps and factorization sizes per iteration. Read once per process.
#pragma once

#include <cstdlib>

namespace impetus {

inline bool ipm_debug_output() {
  static const bool on = std::getenv("IPM_DEBUG") != nullptr;
  return on;
}

}  // namespace impetus
