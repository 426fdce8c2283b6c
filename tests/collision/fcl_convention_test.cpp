// FCL's normal and depth convention, checked rather than remembered (collision/fcl_adapter.hpp,
// (F1) and (F2)): for every pair of shape kinds in both orders, with A placed on the +axis side of
// B, our n must point along +axis (from B towards A) and φ must be the signed gap we built in.
#include <gtest/gtest.h>

#include <fcl/fcl.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "collision/collision_shape.hpp"
#include "collision/fcl_adapter.hpp"
#include "collision/manifold.hpp"
#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// FCL's iterative pairs (GJK/EPA on cylinders and convex meshes) converge to kGjkTolerance = 1e-9
/// (fcl_adapter.cpp); the curved supports of EPA's polytope add up to ~1e-7 m at 1 mm depth.
constexpr double kFclGap = 1e-6;
/// Direction error allowed: 1e-3 rad; the sign convention is what is at stake here.
constexpr double kFclDirection = 1e-3;

struct Kind {
  std::string name;
  Shape shape;
  double half_extent;   // along every axis used below (x and z)
};

std::vector<Kind> kinds() {
  // Every shape spans ±0.5 along x and z, so A at (1 + gap)·e is apart from B by exactly gap.
  // The capsule has zero length here (a sphere for FCL's capsule code); CapsuleAgainstBox below
  // covers long ones.
  return {{"sphere", Sphere{0.5}, 0.5},
          {"box", box(1, 1, 1), 0.5},
          {"capsule", Capsule{0.5, 0.0}, 0.5},
          {"cylinder", Cylinder{0.5, 1.0}, 0.5},
          {"convex", box_mesh(Eigen::Vector3d(1, 1, 1)), 0.5}};
}

std::unique_ptr<fcl::CollisionObjectd> object(const Shape& shape, const Eigen::Isometry3d& X) {
  Geometry g;
  g.shape = shape;
  const CollisionShape prepared = prepare_shape(g, 0);
  return std::make_unique<fcl::CollisionObjectd>(make_fcl_geometry(g, prepared), X);
}

TEST(FclConvention, NormalPointsFromBToAAndGapIsSigned) {
  FclNarrowPhase fcl;
  for (const Kind& a : kinds())
    for (const Kind& b : kinds())
      for (int axis : {0, 2})
        for (double gap : {-1e-3, 1e-3}) {
          const Eigen::Vector3d e = Eigen::Vector3d::Unit(axis);
          const auto oa = object(a.shape, pose((a.half_extent + b.half_extent + gap) * e));
          const auto ob = object(b.shape, pose(Eigen::Vector3d::Zero()));
          NormalHint hint;
          ASSERT_TRUE(fcl.query(*oa, *ob, kMargin, hint)) << a.name << "-" << b.name;
          const std::string what = a.name + " above " + b.name + " along axis " + std::to_string(axis) +
                                   " gap " + std::to_string(gap);
          ASSERT_TRUE(hint.valid) << what;
          EXPECT_GT(hint.n_W.dot(e), 1 - kFclDirection) << what;
          EXPECT_NEAR(hint.phi, gap, kFclGap) << what;
        }
}

// The same for a real capsule (length > 0) against a box, lying and standing.
TEST(FclConvention, CapsuleAgainstBox) {
  FclNarrowPhase fcl;
  for (double gap : {-1e-3, 1e-3}) {
    const auto standing = object(Capsule{0.1, 0.6}, pose({0.1, 0.1, 0.5 + 0.4 + gap}));
    const auto lying = object(Capsule{0.1, 0.6}, pose({0.1, 0.1, 0.5 + 0.1 + gap}, rot(M_PI / 2, {0, 1, 0})));
    const auto base = object(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    for (const auto* o : {standing.get(), lying.get()}) {
      NormalHint hint;
      ASSERT_TRUE(fcl.query(*o, *base, kMargin, hint));
      ASSERT_TRUE(hint.valid);
      EXPECT_GT(hint.n_W.z(), 1 - kFclDirection);
      EXPECT_NEAR(hint.phi, gap, kFclGap);
      NormalHint swapped;
      ASSERT_TRUE(fcl.query(*base, *o, kMargin, swapped));
      ASSERT_TRUE(swapped.valid);
      EXPECT_LT(swapped.n_W.z(), -(1 - kFclDirection));
      EXPECT_NEAR(swapped.phi, gap, kFclGap);
    }
  }
}

// Beyond the margin the pair is apart.
TEST(FclConvention, ApartBeyondTheMargin) {
  FclNarrowPhase fcl;
  const auto a = object(box(1, 1, 1), pose({0, 0, 1 + 2 * kMargin}));
  const auto b = object(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
  NormalHint hint;
  EXPECT_FALSE(fcl.query(*a, *b, kMargin, hint));
}

// (M1) Two swept shapes whose cores are apart take their normal from the cores whatever FCL answers, so the
// collision stage asks FCL nothing for them (collision_detector.cpp): the manifold built without FCL's hint must be,
// to the bit, the one built with it — spheres and capsules in random poses, penetrating and apart. Where the cores
// coincide the cores give no direction and FCL is asked.
TEST(FclConvention, SweptPairsWithCoresApartNeedNoFclQuery) {
  FclNarrowPhase fcl;
  ManifoldBuilder builder;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const std::vector<Shape> shapes = {Sphere{0.04}, Sphere{0.1}, Capsule{0.05, 0.3}};
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape& sa = shapes[trial % 3];
    const Shape& sb = shapes[(trial / 3) % 3];
    Geometry ga, gb;
    ga.shape = sa;
    gb.shape = sb;
    const CollisionShape ca = prepare_shape(ga, 0), cb = prepare_shape(gb, 1);
    const Eigen::Vector3d axis = Eigen::Vector3d(unit(random), unit(random), unit(random)).normalized();
    const Eigen::Isometry3d X_a = pose(0.25 * Eigen::Vector3d(unit(random), unit(random), unit(random)),
                                       rot(M_PI * unit(random), axis));
    const Eigen::Isometry3d X_b = pose(Eigen::Vector3d::Zero(), rot(M_PI * unit(random), axis.unitOrthogonal()));
    const PosedShape A{&ca.convex_shape, X_a}, B{&cb.convex_shape, X_b};
    NearestOfCores cores;
    if (!ManifoldBuilder::normal_from_cores(A, B, cores)) continue;
    const auto oa = object(sa, X_a);
    const auto ob = object(sb, X_b);
    const double margin = 0.5;   // every pose here within it: FCL's answer is never "apart"
    NormalHint hint;
    ASSERT_TRUE(fcl.query(*oa, *ob, margin, hint)) << "trial " << trial;
    FclSeparation oracle(fcl, *oa, *ob, nullptr, nullptr);
    std::vector<PairContact> with_fcl, without;
    builder.build(A, B, hint, margin, &oracle, with_fcl);
    builder.build(A, B, NormalHint{}, margin, &oracle, without);
    ASSERT_EQ(with_fcl.size(), without.size()) << "trial " << trial;
    for (std::size_t k = 0; k < with_fcl.size(); ++k) {
      EXPECT_TRUE(with_fcl[k].p_W == without[k].p_W && with_fcl[k].n_W == without[k].n_W &&
                  with_fcl[k].phi == without[k].phi && with_fcl[k].feature == without[k].feature)
          << "trial " << trial << " point " << k;
    }
    compared += with_fcl.empty() ? 0 : 1;
  }
  EXPECT_GT(compared, 200);
  // Concentric spheres, and a sphere on a capsule's axis: no direction from the cores.
  Geometry g1, g2;
  g1.shape = Sphere{0.04};
  g2.shape = Capsule{0.05, 0.3};
  const CollisionShape c1 = prepare_shape(g1, 0), c2 = prepare_shape(g2, 1);
  NearestOfCores cores;
  EXPECT_FALSE(ManifoldBuilder::normal_from_cores(PosedShape{&c1.convex_shape, pose(Eigen::Vector3d(0.1, 0, 0))},
                                                  PosedShape{&c1.convex_shape, pose(Eigen::Vector3d(0.1, 0, 0))}, cores));
  EXPECT_FALSE(ManifoldBuilder::normal_from_cores(PosedShape{&c1.convex_shape, pose(Eigen::Vector3d(0, 0, 0.1))},
                                                  PosedShape{&c2.convex_shape, pose(Eigen::Vector3d::Zero())}, cores));
  EXPECT_TRUE(ManifoldBuilder::normal_from_cores(PosedShape{&c1.convex_shape, pose(Eigen::Vector3d(0.1, 0, 0))},
                                                 PosedShape{&c2.convex_shape, pose(Eigen::Vector3d::Zero())}, cores));
  // A box is not swept: FCL is asked.
  Geometry g3;
  g3.shape = box(0.1, 0.1, 0.1);
  const CollisionShape c3 = prepare_shape(g3, 2);
  EXPECT_FALSE(ManifoldBuilder::normal_from_cores(PosedShape{&c1.convex_shape, pose(Eigen::Vector3d(0.2, 0, 0))},
                                                  PosedShape{&c3.convex_shape, pose(Eigen::Vector3d::Zero())}, cores));
}

bool same_bits(const std::vector<PairContact>& x, const std::vector<PairContact>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k)
    if (std::memcmp(x[k].p_W.data(), y[k].p_W.data(), 3 * sizeof(double)) != 0 ||
        std::memcmp(x[k].n_W.data(), y[k].n_W.data(), 3 * sizeof(double)) != 0 ||
        std::memcmp(&x[k].phi, &y[k].phi, sizeof(double)) != 0 || x[k].feature != y[k].feature ||
        std::memcmp(&x[k].mu, &y[k].mu, sizeof(double)) != 0)
      return false;
  return true;
}

// The collision stage builds two spheres whose centres are apart by ManifoldBuilder::sphere_pair and hands
// build() the nearest points of the cores that normal_from_cores found (collision_detector.cpp): both must give,
// to the bit (signed zeros included), what build() gives on its own. Random poses, penetrating and apart, with
// coordinates and rotations drawn from a coarse set so that equal coordinates, zeros of either sign and exactly
// touching spheres occur; spheres and capsules for the cores handed over.
TEST(FclConvention, SpherePairAndHandedCoresGiveBuildsBits) {
  ManifoldBuilder builder;
  std::mt19937 random(17);
  std::uniform_int_distribution<int> tick(-4, 4), pick(0, 3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const std::vector<Shape> shapes = {Sphere{0.04}, Sphere{0.1}, Sphere{0.05}, Capsule{0.05, 0.3}};
  auto coordinate = [&] {
    const int k = tick(random);
    if (k == 0) return pick(random) % 2 == 0 ? 0.0 : -0.0;
    return pick(random) == 0 ? 0.05 * k : 0.3 * unit(random);
  };
  auto rotation = [&] {
    if (pick(random) == 0) return Eigen::Matrix3d(Eigen::Matrix3d::Identity());
    const Eigen::Vector3d axis = Eigen::Vector3d(unit(random), unit(random), unit(random)).normalized();
    return rot(M_PI * unit(random), axis);
  };
  int spheres = 0, emitted = 0, handed = 0, coincident = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Shape& sa = shapes[trial % 4];
    const Shape& sb = shapes[(trial / 4) % 4];
    Geometry ga, gb;
    ga.shape = sa;
    gb.shape = sb;
    const CollisionShape ca = prepare_shape(ga, 0), cb = prepare_shape(gb, 1);
    const Eigen::Vector3d p_a(coordinate(), coordinate(), coordinate());
    const Eigen::Vector3d p_b = pick(random) == 0 ? p_a : Eigen::Vector3d(coordinate(), coordinate(), coordinate());
    const PosedShape A{&ca.convex_shape, pose(p_a, rotation())}, B{&cb.convex_shape, pose(p_b, rotation())};
    const double margin = pick(random) == 0 ? 0.0 : 0.2;
    NearestOfCores cores;
    const bool apart = ManifoldBuilder::normal_from_cores(A, B, cores);
    coincident += apart ? 0 : 1;
    std::vector<PairContact> built, fast;
    builder.build(A, B, NormalHint{}, margin, nullptr, built);
    if (apart && ca.convex_shape.kind == ConvexShape::Kind::kSphere && cb.convex_shape.kind == ConvexShape::Kind::kSphere) {
      ManifoldBuilder::sphere_pair(A, B, cores, margin, fast);
      ASSERT_TRUE(same_bits(built, fast)) << "trial " << trial << ": sphere_pair";
      ++spheres;
      emitted += fast.empty() ? 0 : 1;
    }
    std::vector<PairContact> with_cores;
    builder.build(A, B, NormalHint{}, margin, nullptr, with_cores, &cores);
    ASSERT_TRUE(same_bits(built, with_cores)) << "trial " << trial << ": cores handed over";
    handed += with_cores.empty() ? 0 : 1;
  }
  EXPECT_GT(spheres, 5000);
  EXPECT_GT(emitted, 1000);
  EXPECT_GT(spheres - emitted, 1000);
  EXPECT_GT(handed, 5000);
  EXPECT_GT(coincident, 100);
}

}  // namespace
}  // namespace impetus::test
