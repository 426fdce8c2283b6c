// Fixture of the test layering_catches_an_upward_include (tests/CMakeLists.txt): a collision/ header
// that names a sim/ header, which cmake/check_layering.cmake must refuse. Never compiled.
#pragma once

#include "collision/geometry.hpp"
#include "sim/world.hpp"
