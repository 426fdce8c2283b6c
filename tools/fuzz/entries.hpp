// What each fuzz target does with one input: the loader's public entry, with refusals (LoadError) as
// the expected outcome of bad input. Anything else — a crash, another exception, a hang, unbounded
// memory — is a failure. Shared by the libFuzzer targets (tools/fuzz/fuzz_*.cpp) and the regression
// test that replays every input a fuzzer once failed on (tests/sim/test_fuzz_regressions.cpp).
//
// Inputs name no real files: the scene and URDF "live" in a folder that does not exist, so relative
// mesh and URDF references are refused as missing rather than read from the disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collision/mesh_io.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"

namespace impetus::fuzz {

inline const std::string kNowhere = "/nonexistent/impetus-fuzz";

inline void scene(const std::uint8_t* data, std::size_t size) {
  try {
    load_scene_string(std::string(reinterpret_cast<const char*>(data), size), kNowhere + "/scene.xml");
  } catch (const LoadError&) {
  }
}

inline void urdf(const std::uint8_t* data, std::size_t size) {
  try {
    const UrdfModel model = read_urdf_string(std::string(reinterpret_cast<const char*>(data), size),
                                             kNowhere + "/robot.urdf", std::vector<std::string>{});
    UrdfPlacement placement;
    placement.floating_base = size % 2 == 1;  // both attachments, chosen by the input
    urdf_to_multibody(model, placement);
  } catch (const LoadError&) {
  }
}

/// A mesh reader by extension: ".stl", ".obj" (Impetus's own), ".dae", ".glb", ".gltf" (assimp).
inline void mesh(const char* extension, const std::uint8_t* data, std::size_t size) {
  try {
    parse_mesh(std::string(reinterpret_cast<const char*>(data), size), extension, kNowhere + "/mesh" + extension);
  } catch (const LoadError&) {
  }
}

}  // namespace impetus::fuzz
