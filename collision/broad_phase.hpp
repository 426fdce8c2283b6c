// The collision stage's broad phase (collision_detector.cpp, step 2): every pair of geometries whose boxes overlap.
//
// Sort and sweep (Cohen, Lin, Manocha and Ponamgi, "I-COLLIDE", 1995; Baraff's thesis, 1992): the
// boxes sorted by their lower ends along one axis, a box overlaps along that axis exactly the boxes after it whose
// lower end is at most its upper end; each of those is then tested on the two other axes. The order is kept from
// call to call and restored by insertion sort, which costs little while the boxes move little (coherence).
//
// The answer is the set FCL's dynamic AABB tree manager gave (fcl::DynamicAABBTreeCollisionManager::collide, on a
// tree of the movable boxes and one of the immovable ones): the pairs whose closed boxes overlap on every axis
// (fcl::AABB::overlap: touching boxes overlap), a pair of two immovable geometries left out; here sorted by key, as
// the narrow phase consumes them. The tree's traversal and the sort of its answer were ~20 % of a step of the
// granular pile's free fall (issue 16); tests/collision/broad_phase_test.cpp compares both on random boxes.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <vector>

namespace impetus {

/// A pair a < b of geometry indices as one sortable key: a in the high half.
using PairKey = std::uint64_t;
inline PairKey pair_key(int a, int b) { return (static_cast<PairKey>(a) << 32) | static_cast<std::uint32_t>(b); }
inline int first_of(PairKey k) { return static_cast<int>(k >> 32); }
inline int second_of(PairKey k) { return static_cast<int>(k & 0xffffffffu); }

class SweepAndPrune {
 public:
  /// Replaces `pairs` with the key of every pair a < b of `geometries` (indices into `boxes` and `movable`, each at
  /// most once) whose boxes overlap, closed, on every axis and of which at least one is movable; ascending. The boxes
  /// must be finite. Allocates nothing once its storage has grown to the geometries and pairs met.
  void overlapping_pairs(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& geometries,
                         const std::vector<char>& movable, std::vector<PairKey>& pairs);

 private:
  struct Entry {
    double lo, hi;                 // the box along the sweep axis
    double lo1, hi1, lo2, hi2;     // along the two other axes
    int geometry;
    bool movable;
  };
  void load(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& geometries,
            const std::vector<char>& movable);
  void sort_entries();
  void sort_pairs(std::vector<PairKey>& pairs, int geometries);

  std::vector<Entry> entries_;     // sorted by lo: the last call's order, restored
  int axis_ = 0;                   // the last call's sweep axis
  std::vector<double> lo_;                   // per sorted entry: lo
  std::vector<Eigen::Vector4d> rest_;        // per sorted entry: lo1, −hi1, lo2, −hi2 (broad_phase.cpp)
  std::vector<PairKey> found_;     // pairs in sweep order
  std::vector<int> start_;         // per first geometry: where its pairs start in the sorted answer
  std::vector<char> member_;       // per geometry: listed in this call (load's test of the last call's entries)
};

}  // namespace impetus
