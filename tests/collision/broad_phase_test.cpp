// The collision stage's broad phase (collision/broad_phase.hpp) must answer exactly the pairs FCL's dynamic AABB
// tree manager answered before it: on two trees, one of the movable boxes and one of the immovable ones, the
// movable tree's own overlapping pairs and those across the trees (the collision stage up to 9d90893), with
// fcl::AABB::overlap's closed test: touching boxes overlap.
#include <gtest/gtest.h>

#include <fcl/fcl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "collision/broad_phase.hpp"

namespace impetus::test {
namespace {

// An FCL object with the box we give it.
class BoxObject : public fcl::CollisionObjectd {
 public:
  BoxObject(const Eigen::AlignedBox3d& box, int g)
      : fcl::CollisionObjectd(std::make_shared<fcl::Sphered>(1.0), fcl::Transform3d::Identity()) {
    aabb.min_ = box.min();
    aabb.max_ = box.max();
    setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(g)));
  }
};

bool collect(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  int a = static_cast<int>(reinterpret_cast<std::intptr_t>(o1->getUserData()));
  int b = static_cast<int>(reinterpret_cast<std::intptr_t>(o2->getUserData()));
  if (a > b) std::swap(a, b);
  static_cast<std::vector<PairKey>*>(data)->push_back(pair_key(a, b));
  return false;
}

/// FCL's answer, sorted: the movable tree against itself and against the immovable tree.
std::vector<PairKey> fcl_pairs(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& listed,
                               const std::vector<char>& movable) {
  std::vector<std::unique_ptr<BoxObject>> objects;
  fcl::DynamicAABBTreeCollisionManagerd movable_tree, fixed_tree;
  for (int g : listed) {
    objects.push_back(std::make_unique<BoxObject>(boxes[g], g));
    (movable[g] ? movable_tree : fixed_tree).registerObject(objects.back().get());
  }
  movable_tree.setup();
  fixed_tree.setup();
  std::vector<PairKey> pairs;
  movable_tree.collide(&pairs, collect);
  movable_tree.collide(&fixed_tree, &pairs, collect);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Boxes on a coarse grid (ends equal to others' often: touching boxes, and points), some immovable, some not
// listed (a pose not finite); moved a little from call to call (the order kept), then thrown about (a new order,
// a new sweep axis), with the listed set changing now and then.
TEST(BroadPhase, SortAndSweepAnswersFclsPairs) {
  std::mt19937 random(5);
  std::uniform_int_distribution<int> cell(0, 12), extent(0, 3), coin(0, 9), nudge(-1, 1);
  constexpr double kCell = 0.05;
  SweepAndPrune sweep;
  std::vector<PairKey> pairs;
  long compared = 0, touching = 0;
  for (int scene = 0; scene < 40; ++scene) {
    const int n = 1 + scene * 7 % 180;
    std::vector<Eigen::AlignedBox3d> boxes(n);
    std::vector<char> movable(n);
    std::vector<int> lower(3 * n);
    std::vector<int> size(3 * n);
    for (int g = 0; g < n; ++g) {
      movable[g] = coin(random) < 7;
      for (int k = 0; k < 3; ++k) {
        lower[3 * g + k] = cell(random);
        size[3 * g + k] = extent(random);
      }
    }
    std::vector<int> listed;
    for (int call = 0; call < 12; ++call) {
      if (call == 0 || coin(random) == 0) {   // the listed set changes
        listed.clear();
        for (int g = 0; g < n; ++g)
          if (coin(random) != 0) listed.push_back(g);
      }
      for (int g = 0; g < n; ++g)
        for (int k = 0; k < 3; ++k) {
          int& x = lower[3 * g + k];
          x = call % 4 == 3 ? cell(random) : x + nudge(random);   // thrown about, or nudged
          boxes[g].min()[k] = kCell * x;
          boxes[g].max()[k] = kCell * (x + size[3 * g + k]);
        }
      sweep.overlapping_pairs(boxes, listed, movable, pairs);
      const std::vector<PairKey> expected = fcl_pairs(boxes, listed, movable);
      ASSERT_EQ(pairs, expected) << "scene " << scene << ", call " << call << ", " << listed.size() << " boxes";
      compared += static_cast<long>(expected.size());
      for (PairKey key : expected) {
        const Eigen::AlignedBox3d &a = boxes[first_of(key)], &b = boxes[second_of(key)];
        touching += ((a.max().array() == b.min().array()) || (b.max().array() == a.min().array())).any() ? 1 : 0;
      }
    }
  }
  EXPECT_GT(compared, 10000);   // the comparison saw many pairs...
  EXPECT_GT(touching, 1000);    // ...and many that only touch on some axis
}

// Every box overlaps every other: the pairs of two immovable boxes (0 and 2) are not reported.
TEST(BroadPhase, LeavesOutPairsOfTwoImmovableBoxes) {
  std::vector<Eigen::AlignedBox3d> boxes(4, Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()));
  const std::vector<char> movable = {0, 1, 0, 1};
  const std::vector<int> listed = {3, 2, 1, 0};
  SweepAndPrune sweep;
  std::vector<PairKey> pairs;
  sweep.overlapping_pairs(boxes, listed, movable, pairs);
  const std::vector<PairKey> expected = {pair_key(0, 1), pair_key(0, 3), pair_key(1, 2), pair_key(1, 3), pair_key(2, 3)};
  EXPECT_EQ(pairs, expected);
}

}  // namespace
}  // namespace impetus::test
