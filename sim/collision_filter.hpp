// The world's collision settings as the collision stage reads them (CollisionFilter), and as a
// person reads them (`impetus check`).
#pragma once

#include <string>

#include "collision/collision_detector.hpp"
#include "sim/world.hpp"

namespace impetus {

/// The filter of the collision stage for this world (collision/pair_filter.hpp).
CollisionFilter collision_filter(const WorldModel& model);

/// Which pairs are not tested and why, one line each, for `impetus check`: links welded to the world,
/// each model's self-collision policy with the pairs it filtered, <exclude> and <include> pairs.
std::string describe_collision_pairs(const WorldModel& model);

}  // namespace impetus
