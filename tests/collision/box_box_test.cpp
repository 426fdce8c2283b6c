// Box on box: face-to-face manifolds (collision/manifold.hpp, M1–M3).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// Manifold points are clipped corners: sums and products of a few doubles of size ~1, plus the
/// world poses' rounding. Exact to a few ulps of 1 m.
constexpr double kExact = 1e-12;

/// Gaps in the band where FCL switches between its contact and distance queries, and beyond.
const double kGaps[] = {-1e-3, -1e-9, 0.0, 1e-9, 1e-3, 0.9 * kMargin};

// The top box shifted by a quarter in x and y: the overlap of the two unit squares is the square
// [−0.25, 0.5]², whose four corners are the manifold, at height 0.5 + gap/2, with φ = gap — whether
// the boxes penetrate or are apart within the margin.
TEST(BoxBox, OffsetBoxGivesTheFourCornersOfTheOverlap) {
  for (double gap : kGaps)
    for (bool top_first : {true, false}) {
      Scene scene;
      const Eigen::Isometry3d top = pose({0.25, 0.25, 1.0 + gap}), bottom = pose(Eigen::Vector3d::Zero());
      int t, b;
      if (top_first) {
        t = scene.add(box(1, 1, 1), top);
        b = scene.add(box(1, 1, 1), bottom);
      } else {
        b = scene.add(box(1, 1, 1), bottom);
        t = scene.add(box(1, 1, 1), top);
      }
      const ContactSet all = scene.detect();
      const ContactSet c = pair_of(all, std::min(t, b), std::max(t, b));
      ASSERT_EQ(all.size(), c.size());
      ASSERT_EQ(c.size(), 4u) << "gap " << gap << " top first " << top_first;
      // n from B (the higher index) towards A: up when the top box is A.
      const Eigen::Vector3d n = top_first ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d(-Eigen::Vector3d::UnitZ());
      for (const ContactPoint& p : c) {
        EXPECT_NEAR((p.n_W - n).norm(), 0.0, kExact);
        EXPECT_NEAR(p.phi, gap, kExact);
        EXPECT_EQ(p.link_a, std::min(t, b));
        EXPECT_EQ(p.link_b, std::max(t, b));
      }
      for (double x : {-0.25, 0.5})
        for (double y : {-0.25, 0.5})
          EXPECT_TRUE(has_point(c, Eigen::Vector3d(x, y, 0.5 + 0.5 * gap), kExact)) << x << " " << y << " gap " << gap;
    }
}

TEST(BoxBox, NothingBeyondTheMargin) {
  Scene scene;
  scene.add(box(1, 1, 1), pose({0.25, 0.25, 1.0 + 1.1 * kMargin}));
  scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
  EXPECT_TRUE(scene.detect().empty());
}

// A resting stack must not flicker: the points and their feature ids are the same whether the boxes
// penetrate by 1e-9 m or are apart by 1e-9 m (FCL answers the first by its contact query and the
// second by its distance query).
TEST(BoxBox, SameFeaturesPenetratingOrApart) {
  for (const Eigen::Vector3d& offset : {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0.25, 0.1, 0)}) {
    std::vector<ContactSet> runs;
    const std::vector<double> gaps = {-1e-9, 0.0, 1e-9};
    for (double gap : gaps) {
      Scene scene;
      scene.add(box(1, 1, 1), pose(offset + Eigen::Vector3d(0, 0, 1.0 + gap), rot(0.2, Eigen::Vector3d::UnitZ())));
      scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero(), rot(0.2, Eigen::Vector3d::UnitZ())));
      runs.push_back(scene.detect());
    }
    for (size_t r = 0; r < runs.size(); ++r) {
      ASSERT_EQ(runs[r].size(), 4u);
      for (size_t k = 0; k < runs[r].size(); ++k) {
        EXPECT_EQ(runs[r][k].feature, runs[0][k].feature);
        // The same corner, raised by half the change of the gap.
        const Eigen::Vector3d shift(0, 0, 0.5 * (gaps[r] - gaps[0]));
        EXPECT_NEAR((runs[r][k].p_W - runs[0][k].p_W - shift).norm(), 0.0, kExact);
      }
    }
  }
}

// Rotated by 45° about z, the overlap of the two unit squares is the octagon of area
// 1 − 4·(1 − 1/√2)²/2 ≈ 0.8284; its 8 corners are the manifold.
TEST(BoxBox, RotatedBoxGivesTheOctagonOfTheOverlap) {
  Scene scene;
  scene.add(box(1, 1, 1), pose({0, 0, 1.0 - 1e-4}, rot(M_PI / 4, Eigen::Vector3d::UnitZ())));
  scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
  const ContactSet c = scene.detect();
  ASSERT_EQ(c.size(), 8u);
  // Area of the points' polygon, sorted by angle about the centre.
  std::vector<std::pair<double, Eigen::Vector2d>> ring;
  for (const ContactPoint& p : c) {
    EXPECT_NEAR(p.phi, -1e-4, kExact);
    ring.emplace_back(std::atan2(p.p_W.y(), p.p_W.x()), p.p_W.head<2>());
  }
  std::sort(ring.begin(), ring.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double area = 0;
  for (size_t k = 0; k < ring.size(); ++k) {
    const Eigen::Vector2d& p = ring[k].second;
    const Eigen::Vector2d& q = ring[(k + 1) % ring.size()].second;
    area += 0.5 * (p.x() * q.y() - p.y() * q.x());
  }
  const double leg = 1 - 1 / std::sqrt(2.0);
  EXPECT_NEAR(area, 1 - 2 * leg * leg, kExact);
}

// Turned by 1 mrad, the overlap of two equal squares is an octagon whose extra corners are 0.5 mm
// from the squares' corners and at the middles of the edges: redundant for a flat contact
// (contact_reduction.hpp), so four points remain, each within 1 mm of a corner, with exact gaps.
TEST(BoxBox, SlightlyTurnedBoxGivesFourCorners) {
  for (double gap : kGaps) {
    Scene scene;
    scene.add(box(1, 1, 1), pose({0, 0, 1.0 + gap}, rot(1e-3, Eigen::Vector3d::UnitZ())));
    scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 4u) << gap;
    for (const ContactPoint& p : c) EXPECT_NEAR(p.phi, gap, kExact);
    constexpr double kNearCorner = 1e-3;   // the octagon's corners are 0.5·√2·1e-3 m from the square's
    for (double x : {-0.5, 0.5})
      for (double y : {-0.5, 0.5}) EXPECT_TRUE(has_point(c, Eigen::Vector3d(x, y, 0.5 + 0.5 * gap), kNearCorner));
  }
}

// A box tilted about x onto an edge of its bottom face touches along that edge: two points, exact
// gaps, normal of the lower box's face.
TEST(BoxBox, TiltedBoxTouchesAlongAnEdge) {
  Scene scene;
  const Eigen::Matrix3d R = rot(0.2, Eigen::Vector3d::UnitX());
  const double lowest = (R.cwiseAbs() * Eigen::Vector3d(0.25, 0.25, 0.25)).z();   // a 0.5 m box
  const int top = scene.add(box(0.5, 0.5, 0.5), pose({0.1, 0.1, 0.5 + lowest - 2e-4}, R));
  scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
  const ContactSet c = pair_of(scene.detect(), top, top + 1);
  ASSERT_EQ(c.size(), 2u);
  for (const ContactPoint& p : c) {
    EXPECT_NEAR(p.phi, -2e-4, kExact);
    EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
  }
  EXPECT_NEAR(std::abs(c[0].p_W.x() - c[1].p_W.x()), 0.5, kExact);
}

// A box resting on a larger one is reported by the larger one's face, and vice versa: the smaller
// one's whole face is the overlap.
TEST(BoxBox, SmallBoxOnLargeBoxGivesItsFourCorners) {
  for (double gap : kGaps) {
    Scene scene;
    scene.add(box(2, 2, 1), pose(Eigen::Vector3d::Zero()));
    scene.add(box(0.4, 0.3, 0.2), pose({0.5, -0.3, 0.5 + 0.1 + gap}, rot(0.7, Eigen::Vector3d::UnitZ())));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 4u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR((p.n_W + Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);   // from the small (B) to the large (A)
    }
  }
}

// A convex mesh cube is its hull: against a box it gives the same points and gaps as a box.
TEST(BoxBox, ConvexMeshCubeBehavesLikeTheBox) {
  for (double gap : kGaps) {
    const Eigen::Isometry3d top = pose({0.25, -0.2, 1.0 + gap}, rot(0.3, Eigen::Vector3d::UnitZ()));
    Scene boxes, mixed, meshes;
    boxes.add(box(1, 1, 1), top);
    boxes.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    mixed.add(box_mesh(Eigen::Vector3d(1, 1, 1)), top);
    mixed.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    meshes.add(box_mesh(Eigen::Vector3d(1, 1, 1)), top);
    meshes.add(box_mesh(Eigen::Vector3d(1, 1, 1)), pose(Eigen::Vector3d::Zero()));
    const ContactSet cb = boxes.detect();
    ASSERT_FALSE(cb.empty());
    for (const ContactSet& c : {mixed.detect(), meshes.detect()}) {
      ASSERT_EQ(c.size(), cb.size()) << gap;
      for (const ContactPoint& p : c) {
        EXPECT_TRUE(has_point(cb, p.p_W, kExact)) << gap;
        EXPECT_NEAR(p.phi, gap, kExact);
        EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
      }
    }
  }
}

// Features are unique within a pair and the output is sorted by pair, then feature.
TEST(BoxBox, FeaturesAreUniqueAndSorted) {
  Scene scene;
  scene.filter.has_ground = true;
  scene.add(box(1, 1, 1), pose({0.0, 0.0, 0.5}));
  scene.add(box(1, 1, 1), pose({0.25, 0.25, 1.5}, rot(0.1, Eigen::Vector3d::UnitZ())));
  scene.add(box(1, 1, 1), pose({0.3, 0.2, 2.5 - 1e-4}, rot(0.5, Eigen::Vector3d::UnitZ())));
  const ContactSet c = scene.detect();
  ASSERT_GE(c.size(), 12u);
  for (size_t k = 1; k < c.size(); ++k) {
    const auto key = [](const ContactPoint& p) { return std::make_tuple(p.geom_a, p.geom_b, p.feature); };
    EXPECT_LT(key(c[k - 1]), key(c[k]));
  }
}

}  // namespace
}  // namespace impetus::test
