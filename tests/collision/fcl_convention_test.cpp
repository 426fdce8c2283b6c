// FCL's normal and depth convention, checked rather than remembered (collision/fcl_adapter.hpp,
// (F1) and (F2)): for every pair of shape kinds in both orders, with A placed on the +axis side of
// B, our n must point along +axis (from B towards A) and φ must be the signed gap we built in.
#include <gtest/gtest.h>

#include <fcl/fcl.h>

#include <memory>
#include <string>

#include "collision/collision_shape.hpp"
#include "collision/fcl_adapter.hpp"
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

}  // namespace
}  // namespace impetus::test
