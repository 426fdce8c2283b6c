// Which pairs of the scene's links the collision stage tests (WorldModel::collision), decided once
// when the scene is loaded:
//
//   rigid bodies   a link welded to its parent by a fixed joint moves with it (link_body); a link
//                  welded all the way to the world cannot move at all (link_movable false): static
//                  bodies, a fixed base and what is welded to it. Two links that cannot move relative
//                  to each other are never tested (collision/pair_filter.hpp), nor is the ground
//                  against a link welded to the world;
//   self-collision per <model self_collision="off|filtered|on">, default off:
//                  off       no pair of the model's links is tested;
//                  filtered  adjacent links (a link and the nearest link above it with geometry)
//                            and pairs in contact (φ ≤ 0) at the initial configuration or at the zero
//                            configuration (every 1-DoF joint at 0, or its nearest limit) are not
//                            tested, as MoveIt's and
//                            Drake's filters do; the rest are;
//                  on        every pair is tested, but a link and its parent link while
//                            <collision exclude_parent_child> (default true);
//   explicit       <exclude a="ID" b="ID"/> never tests a pair (either may be "ground"),
//                  <include a="ID" b="ID"/> always tests one (it must be able to move).
// Pairs of different models and scene bodies are always tested, but for the rules above.
#pragma once

#include "sim/scene/scene_parts.hpp"

namespace impetus::scene {

/// Refuses, at its file and line, a collision geometry the collision stage cannot prepare (what
/// `impetus run` would refuse), so that `impetus check` refuses it first. Keeps each mesh's hull
/// (Mesh::hull) for the collision stage.
void check_geometries(SceneBuild& build);

/// Fills build.model.collision from the models' policies and the <exclude>/<include> children of
/// `root`; `initial` is the scene's initial state.
void resolve_collision_pairs(const xml::Element& root, SceneBuild& build, const State& initial);

}  // namespace impetus::scene
