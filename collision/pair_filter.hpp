// Which geometry pairs are never tested (CollisionFilter), decided per pair of links.
//
// Two links are never tested when they cannot move relative to each other: the same link, links
// welded together by fixed joints (one rigid body, CollisionFilter::link_body), or two links that
// are both welded to the world (static bodies, fixed bases and what is welded to them, and the
// ground). Otherwise, in this order: an included pair is tested; an excluded pair is not; a link and
// its parent link are not when exclude_parent_child; every other pair is.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "collision/collision_detector.hpp"
#include "collision/contact_set.hpp"

namespace impetus {

/// An unordered pair of links (or kGround) as one sortable key.
inline std::uint64_t link_pair_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a + 1)) << 32) | static_cast<std::uint32_t>(b + 1);
}

class PairFilter {
 public:
  /// Links beyond the filter's vectors count as movable bodies of their own, with the world as parent.
  explicit PairFilter(const CollisionFilter& filter) : filter_(filter) {
    excluded_ = sorted_keys(filter.excluded);
    included_ = sorted_keys(filter.included);
  }

  /// The rigid body of `link`, named by a link (kGround for the ground).
  int body(int link) const {
    if (link < 0) return kGround;
    return link < static_cast<int>(filter_.link_body.size()) ? filter_.link_body[link] : link;
  }
  /// Not welded to the world.
  bool movable(int link) const {
    return link < 0 ? false : link >= static_cast<int>(filter_.link_movable.size()) || filter_.link_movable[link];
  }
  int parent(int link) const {
    return link >= 0 && link < static_cast<int>(filter_.link_parent.size()) ? filter_.link_parent[link] : -1;
  }
  /// Geometries on links la and lb (either may be kGround) may touch.
  bool allowed(int la, int lb) const {
    if (la == lb || (!movable(la) && !movable(lb))) return false;
    const int ba = body(la), bb = body(lb);
    if (ba == bb) return false;                      // welded together: one rigid body
    const std::uint64_t key = link_pair_key(la, lb);
    if (std::binary_search(included_.begin(), included_.end(), key)) return true;
    if (std::binary_search(excluded_.begin(), excluded_.end(), key)) return false;
    // (A root link's parent −1 is the world, not the ground, which is also −1.)
    if (filter_.exclude_parent_child && la >= 0 && lb >= 0 && (parent(la) == lb || parent(lb) == la)) return false;
    return true;
  }

 private:
  static std::vector<std::uint64_t> sorted_keys(const std::vector<LinkPair>& pairs) {
    std::vector<std::uint64_t> keys;
    for (const LinkPair& p : pairs) keys.push_back(link_pair_key(p.a, p.b));
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  CollisionFilter filter_;
  std::vector<std::uint64_t> excluded_, included_;
};

}  // namespace impetus
