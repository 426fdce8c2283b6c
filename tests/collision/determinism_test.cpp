// Determinism: the same poses give the same contacts, bit for bit, from one detector called twice
// and from two detectors; and the output is ordered by pair, then feature.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

// A heap of every kind of shape, overlapping and near each other, on the ground.
Scene heap() {
  Scene scene;
  scene.filter.has_ground = true;
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 60; ++i) {
    const Eigen::Vector3d p(0.8 * u(rng), 0.8 * u(rng), 0.15 + 0.6 * (u(rng) + 1));
    const Eigen::Matrix3d R = rot(M_PI * u(rng), Eigen::Vector3d(u(rng), u(rng), u(rng)));
    switch (i % 5) {
      case 0: scene.add(Sphere{0.1 + 0.05 * u(rng)}, pose(p, R)); break;
      case 1: scene.add(box(0.3, 0.2, 0.15), pose(p, R)); break;
      case 2: scene.add(Capsule{0.07, 0.3}, pose(p, R)); break;
      case 3: scene.add(Cylinder{0.1, 0.25}, pose(p, R)); break;
      case 4: scene.add(box_mesh(Eigen::Vector3d(0.25, 0.25, 0.1)), pose(p, R)); break;
    }
  }
  scene.add(box(2, 2, 0.1), pose({0, 0, 0.05}), /*movable=*/false);
  return scene;
}

bool identical(const ContactPoint& a, const ContactPoint& b) {
  return a.geom_a == b.geom_a && a.geom_b == b.geom_b && a.link_a == b.link_a && a.link_b == b.link_b &&
         a.feature == b.feature && std::memcmp(a.p_W.data(), b.p_W.data(), sizeof(double) * 3) == 0 &&
         std::memcmp(a.n_W.data(), b.n_W.data(), sizeof(double) * 3) == 0 &&
         std::memcmp(&a.phi, &b.phi, sizeof(double)) == 0;
}

TEST(Determinism, TwoRunsAndTwoDetectorsAgreeBitForBit) {
  const Scene scene = heap();
  CollisionDetector first(scene.geometries, scene.filter), second(scene.geometries, scene.filter);
  ContactSet a, b, c;
  first.detect(scene.X_WL, a);
  first.detect(scene.X_WL, b);
  second.detect(scene.X_WL, c);
  ASSERT_GT(a.size(), 30u);   // the heap has many contacts
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(a.size(), c.size());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_TRUE(identical(a[k], b[k])) << k;
    EXPECT_TRUE(identical(a[k], c[k])) << k;
  }
}

// The broad phase is skipped while every box is bitwise the last step's (collision_detector.cpp, step 2).
// One detector kept over a walk in which most steps repeat the last poses or speeds, or move one
// geometry, must answer every step as a fresh detector does; the walk makes and breaks pairs, so a
// detector that kept stale candidates (or skipped after a speed alone grew a box) would miss some.
TEST(Determinism, KeptDetectorAnswersAWalkAsAFreshOne) {
  Scene scene = heap();
  const int links = static_cast<int>(scene.X_WL.size());
  std::vector<Eigen::Matrix<double, 6, 1>> V(links, Eigen::Matrix<double, 6, 1>::Zero());
  const LinkMotion motion{&V, 0.01, 0.0};
  CollisionDetector kept(scene.geometries, scene.filter);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> pick(0, links - 2);   // a movable link (the last is the floor)
  int pairs_changed = 0;
  std::vector<std::pair<int, int>> last_pairs;
  for (int step = 0; step < 120; ++step) {
    const int what = step % 4;   // 0, 1: the same poses and speeds; 2: one link moves; 3: one link's speed
    if (what == 2) scene.X_WL[pick(rng)].translation() += 0.15 * Eigen::Vector3d(u(rng), u(rng), u(rng));
    if (what == 3) V[pick(rng)].tail<3>() = 20 * Eigen::Vector3d(u(rng), u(rng), u(rng));
    ContactSet a, b;
    kept.detect(scene.X_WL, a, motion);
    CollisionDetector fresh(scene.geometries, scene.filter);
    fresh.detect(scene.X_WL, b, motion);
    ASSERT_EQ(a.size(), b.size()) << "step " << step;
    for (size_t k = 0; k < a.size(); ++k) ASSERT_TRUE(identical(a[k], b[k])) << "step " << step << ", contact " << k;
    std::vector<std::pair<int, int>> pairs;
    for (const ContactPoint& c : a)
      if (c.geom_b != kGround && (pairs.empty() || pairs.back() != std::make_pair(c.geom_a, c.geom_b)))
        pairs.emplace_back(c.geom_a, c.geom_b);
    pairs_changed += step > 0 && pairs != last_pairs;
    last_pairs = pairs;
  }
  EXPECT_GE(pairs_changed, 10);   // the walk did make and break pairs between geometries
}

// Given LinkWrites, a geometry whose link is unwritten since the last detect() keeps its pose, box and sweep
// (collision_detector.cpp, step 1). Over a walk that moves links, changes speeds (each a write of the link),
// detects with other speeds (another V_WL, every speed doubled), and detects once without motion in between (the recovery's pass at q⁺), the
// kept detector must answer every step as a fresh one does, and place again exactly the geometries of written
// links, or all of them after a step with other motion: one that kept a written link's pose, or a pose placed
// with other motion, answers stale contacts; one that placed everything keeps nothing.
TEST(Determinism, DetectorGivenLinkWritesPlacesOnlyWrittenLinksAndAnswersAsAFreshOne) {
  Scene scene = heap();
  const int links = static_cast<int>(scene.X_WL.size());
  const int geometries = static_cast<int>(scene.geometries.size());
  std::vector<Eigen::Matrix<double, 6, 1>> V(links, Eigen::Matrix<double, 6, 1>::Zero()), doubled = V;
  std::vector<std::uint64_t> count(links, 0);
  // Each link's group read in place from a record of its own, as the stepper reads Link::tree.
  struct LinkRecord {
    double before = -1;
    int group = -1;
    int after = -1;
  };
  std::vector<LinkRecord> records(links);
  for (int l = 0; l < links; ++l) records[l].group = l;
  const LinkWrites writes{&count, &records[0].group, sizeof(LinkRecord)};
  CollisionDetector kept(scene.geometries, scene.filter);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> pick(0, links - 2);   // a movable link (the last is the floor)
  auto placements = [&] {
    std::vector<std::uint64_t> p;
    for (int g = 0; g < geometries; ++g) p.push_back(kept.reach(g).placement);
    return p;
  };
  int kept_placements = 0;
  const std::vector<Eigen::Matrix<double, 6, 1>>* last_V = nullptr;   // the speeds of the last detect(), if any
  for (int step = 0; step < 120; ++step) {
    const int what = step % 6;   // 0, 1: unwritten; 2: a link moves; 3: a link's speed; 4: other speeds; 5: recovery
    int written = -1;
    if (what == 2) scene.X_WL[written = pick(rng)].translation() += 0.15 * Eigen::Vector3d(u(rng), u(rng), u(rng));
    if (what == 3) V[written = pick(rng)].tail<3>() = 20 * Eigen::Vector3d(u(rng), u(rng), u(rng));
    if (written >= 0) ++count[written];
    for (int l = 0; l < links; ++l) doubled[l] = 2 * V[l];
    const LinkMotion motion{what == 4 ? &doubled : &V, 0.01, 0.1};
    const bool other_motion = motion.V_WL != last_V;
    const std::vector<std::uint64_t> before = placements();
    ContactSet a, b;
    kept.detect(scene.X_WL, a, motion, writes);
    const std::vector<std::uint64_t> after = placements();
    for (int g = 0; g < geometries; ++g) {
      if (!scene.filter.link_movable[scene.geometries[g].link]) continue;   // placed when moved, writes or not
      const bool placed = other_motion || scene.geometries[g].link == written;
      ASSERT_EQ(after[g], before[g] + (placed ? 1 : 0)) << "step " << step << ", geometry " << g;
      kept_placements += placed ? 0 : 1;
    }
    CollisionDetector fresh(scene.geometries, scene.filter);
    fresh.detect(scene.X_WL, b, motion);
    ASSERT_EQ(a.size(), b.size()) << "step " << step;
    for (size_t k = 0; k < a.size(); ++k) ASSERT_TRUE(identical(a[k], b[k])) << "step " << step << ", contact " << k;
    for (int g = 0; g < geometries; ++g) {
      const GeometryReach &r = kept.reach(g), &s = fresh.reach(g);
      ASSERT_EQ(std::memcmp(r.X_WG.data(), s.X_WG.data(), sizeof(double) * 16), 0) << "step " << step;
      ASSERT_EQ(std::memcmp(&r.sweep, &s.sweep, sizeof(double)), 0) << "step " << step << ", geometry " << g;
    }
    last_V = motion.V_WL;
    if (what == 5) {   // a pass without motion or writes between two steps
      ContactSet c;
      kept.detect(scene.X_WL, c);
      last_V = nullptr;
    }
  }
  EXPECT_GT(kept_placements, 50 * geometries);   // most geometries kept their placement in most steps
}

TEST(Determinism, OrderedByPairThenFeatureWithValidRecords) {
  const Scene scene = heap();
  const ContactSet c = scene.detect();
  // Ground (b = −1) sorts before every geometry index b > a.
  for (size_t k = 1; k < c.size(); ++k)
    EXPECT_LT(std::make_tuple(c[k - 1].geom_a, c[k - 1].geom_b, c[k - 1].feature),
              std::make_tuple(c[k].geom_a, c[k].geom_b, c[k].feature));
  for (const ContactPoint& p : c) {
    EXPECT_TRUE(p.geom_b == kGround || p.geom_a < p.geom_b);
    EXPECT_NEAR(p.n_W.norm(), 1.0, 1e-12);
    EXPECT_LE(p.phi, kMargin);
    EXPECT_TRUE(p.p_W.allFinite());
    EXPECT_GE(p.feature, 0);
  }
  // At most kMaxContactsPerPair (8) per pair.
  for (size_t k = 0; k < c.size();) {
    size_t end = k;
    while (end < c.size() && c[end].geom_a == c[k].geom_a && c[end].geom_b == c[k].geom_b) ++end;
    EXPECT_LE(end - k, 8u);
    k = end;
  }
}

}  // namespace
}  // namespace impetus::test
