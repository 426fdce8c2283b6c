// Which geometry pairs are never tested, from the model's topology (CollisionFilter).
#pragma once

#include "collision/collision_detector.hpp"

namespace impetus {

class PairFilter {
 public:
  /// Links beyond the filter's vectors count as movable, with the world as parent.
  explicit PairFilter(const CollisionFilter& filter) : filter_(filter) {}

  bool movable(int link) const {
    return link < 0 ? false : link >= static_cast<int>(filter_.link_movable.size()) || filter_.link_movable[link];
  }
  int parent(int link) const {
    return link >= 0 && link < static_cast<int>(filter_.link_parent.size()) ? filter_.link_parent[link] : -1;
  }
  /// Geometries on links la and lb may touch: not one link (one rigid body), not both immovable,
  /// and, when exclude_parent_child, not a link and its parent (their joint keeps them apart).
  bool allowed(int la, int lb) const {
    if (la == lb) return false;
    if (!movable(la) && !movable(lb)) return false;
    if (filter_.exclude_parent_child && (parent(la) == lb || parent(lb) == la)) return false;
    return true;
  }

 private:
  CollisionFilter filter_;
};

}  // namespace impetus
