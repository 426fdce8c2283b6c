// Diagnostics of the interior-point method on stderr, switched on by the environment: IPM_DEBUG (one
// line per iteration) and IPM_DUMP (the KKT data). Read once per process, never in the loop.
#pragma once

#include <cstdlib>

namespace impetus {

inline bool ipm_debug_output() {
  static const bool on = std::getenv("IPM_DEBUG") != nullptr;
  return on;
}

inline bool ipm_dump_output() {
  static const bool on = std::getenv("IPM_DUMP") != nullptr;
  return on;
}

}  // namespace impetus
