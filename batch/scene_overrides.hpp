// Scene parameter overrides: attributes of a scene file set before it is loaded, so a manifest can
// vary μ, a model option or an initial velocity without a copy of the scene per value.
//
// A path is element steps from <scene> down, then @attribute:  "physics/@mu",
// "physics/stewart_trinkle/@friction_edges", "body[box]/velocity/@linear", "ground/@mu".
// A step "ELEMENT[NAME]" picks the child whose name attribute is NAME; a step without [NAME] picks
// the first such child, and is created when missing (so a model's options element or a body's
// <velocity> need not be in the file). The loaded scene is checked exactly as `impetus run` checks
// it.
#pragma once

#include <string>
#include <vector>

#include "batch/expand.hpp"
#include "sim/world.hpp"

namespace impetus::batch {

/// The scene text with `overrides` applied; throws LoadError naming the scene and the override.
std::string apply_overrides(const std::string& scene_path, const std::vector<Override>& overrides);

/// Loads the scene with its overrides (load_scene when there are none).
World load_scene_with(const std::string& scene_path, const std::vector<Override>& overrides);

}  // namespace impetus::batch
