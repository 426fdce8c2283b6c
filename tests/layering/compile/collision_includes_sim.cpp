// Fixture of the test layering_an_upward_include_does_not_compile (tests/CMakeLists.txt): compiled with
// impetus_collision's include root alone (build/layers/collision), which holds base/ and collision/ but
// not sim/. The first include must be found, the second not.
#include "base/load_error.hpp"
#include "sim/world.hpp"
