// The fifteen axes of two boxes (collision/box_axes.hpp, BA1) and what manifold.hpp's (M1′) skips on them:
// the refinement's distance queries and FCL's query, which for two boxes that overlap at a face could change
// nothing of the manifold.
#include <gtest/gtest.h>

#include <fcl/fcl.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "collision/box_axes.hpp"
#include "collision/collision_shape.hpp"
#include "collision/fcl_adapter.hpp"
#include "collision/manifold.hpp"
#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

struct PreparedBox {
  CollisionShape shape;
  Eigen::Isometry3d X;
  std::unique_ptr<fcl::CollisionObjectd> object;
  PosedShape posed() const { return {&shape.convex_shape, X}; }
};

PreparedBox prepared(const Eigen::Vector3d& size, const Eigen::Isometry3d& X) {
  Geometry g;
  g.shape = Box{size};
  PreparedBox b{prepare_shape(g, 0), X, nullptr};
  b.object = std::make_unique<fcl::CollisionObjectd>(make_fcl_geometry(g, b.shape), X);
  return b;
}

Eigen::Matrix3d random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  return Eigen::Quaterniond(normal(rng), normal(rng), normal(rng), normal(rng)).normalized().toRotationMatrix();
}

/// g± of (BA1) by the support functions every candidate of (M1) uses.
double both_signs(const PosedShape& A, const PosedShape& B, const Eigen::Vector3d& n) {
  return std::max(gap_along(*A.shape, A.X_WG, *B.shape, B.X_WG, n), gap_along(*A.shape, A.X_WG, *B.shape, B.X_WG, -n));
}

bool same_bits(const std::vector<PairContact>& x, const std::vector<PairContact>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::memcmp(x[i].p_W.data(), y[i].p_W.data(), sizeof(double) * 3) != 0 ||
        std::memcmp(x[i].n_W.data(), y[i].n_W.data(), sizeof(double) * 3) != 0 ||
        std::memcmp(&x[i].phi, &y[i].phi, sizeof(double)) != 0 || x[i].feature != y[i].feature)
      return false;
  return true;
}

// (BA1) in closed form is the gap along each of the fifteen axes that the support functions give.
TEST(BoxAxes, ClosedFormEqualsTheSupportFunctionsOnEveryAxis) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> size(0.05, 2.0), offset(-1.5, 1.5);
  for (int trial = 0; trial < 500; ++trial) {
    const PreparedBox a = prepared({size(rng), size(rng), size(rng)},
                                   pose({offset(rng), offset(rng), offset(rng)}, random_rotation(rng)));
    const PreparedBox b = prepared({size(rng), size(rng), size(rng)},
                                   pose({offset(rng), offset(rng), offset(rng)}, random_rotation(rng)));
    const PosedShape A = a.posed(), B = b.posed();
    BoxAxes axes;
    ASSERT_TRUE(box_axes(A, B, axes));
    double face = -1e300, edge = -1e300;
    for (int k = 0; k < 3; ++k) {
      face = std::max({face, both_signs(A, B, A.X_WG.linear().col(k)), both_signs(A, B, B.X_WG.linear().col(k))});
      for (int j = 0; j < 3; ++j)
        edge = std::max(edge, both_signs(A, B, A.X_WG.linear().col(k).cross(B.X_WG.linear().col(j)).normalized()));
    }
    EXPECT_NEAR(axes.face, face, 1e-12) << trial;
    EXPECT_NEAR(axes.edge, edge, 1e-12) << trial;
  }
}

TEST(BoxAxes, OnlyForTwoFinitelyPosedBoxes) {
  Geometry g;
  g.shape = Sphere{0.5};
  const CollisionShape sphere = prepare_shape(g, 0);
  const PreparedBox box_a = prepared({1, 1, 1}, pose(Eigen::Vector3d::Zero()));
  BoxAxes axes;
  EXPECT_FALSE(box_axes({&sphere.convex_shape, pose({0, 0, 0.9})}, box_a.posed(), axes));
  EXPECT_FALSE(box_axes(box_a.posed(), {&sphere.convex_shape, pose({0, 0, 0.9})}, axes));
  Eigen::Isometry3d nan_pose = pose({0, 0, 0.9});
  nan_pose.translation().x() = std::nan("");
  EXPECT_FALSE(box_axes({&box_a.shape.convex_shape, nan_pose}, box_a.posed(), axes));   // no gap from a NaN pose
  g.shape = box_mesh(Eigen::Vector3d(1, 1, 1));   // a convex mesh shaped as a box is no box here
  const CollisionShape mesh = prepare_shape(g, 0);
  EXPECT_FALSE(box_axes({&mesh.convex_shape, pose({0, 0, 0.9})}, box_a.posed(), axes));
  EXPECT_FALSE(axes.found);   // build() must then not take the gaps for a pair of boxes'
}

// Boxes resting on boxes (the stack's pairs: 1e-9 … 1e-4 m deep at the centre, turned and shifted a little, tilted
// by up to 1e-3 rad, which sinks an edge by up to ~1e-3 m) and
// boxes overlapping anyhow: wherever (M1′) lets a pair go without FCL, the manifold is, to the bit, the one built
// with FCL's hint and its distance queries; FCL reports every such pair; and an edge crossing an edge is never
// let go.
TEST(BoxAxes, APairLetGoWithoutFclGetsTheManifoldFclGives) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), size(0.2, 1.5);
  std::uniform_real_distribution<double> log_depth(-9.0, -4.0);
  FclNarrowPhase fcl;
  ManifoldBuilder with_fcl, without_fcl;
  int let_go = 0, kept = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const bool resting = trial % 2 == 0;
    const Eigen::Vector3d size_a(size(rng), size(rng), size(rng)), size_b(size(rng), size(rng), size(rng));
    Eigen::Isometry3d X_a, X_b = pose(Eigen::Vector3d::Zero(), resting ? rot(0.2 * unit(rng), {0, 0, 1}) : random_rotation(rng));
    if (resting) {
      const double depth = std::pow(10.0, log_depth(rng));
      X_a = pose({0.2 * unit(rng), 0.2 * unit(rng), 0.5 * (size_a.z() + size_b.z()) - depth},
                 rot(0.5 * unit(rng), {0, 0, 1}) * rot(1e-3 * unit(rng), {1, 0, 0}));
    } else {
      X_a = pose({0.8 * unit(rng), 0.8 * unit(rng), 0.8 * unit(rng)}, random_rotation(rng));
    }
    const PreparedBox a = prepared(size_a, X_a), b = prepared(size_b, X_b);
    const PosedShape A = a.posed(), B = b.posed();
    BoxAxes axes;
    const bool overlap_at_a_face = ManifoldBuilder::boxes_overlap_at_a_face(A, B, kMargin, axes);
    ASSERT_TRUE(axes.found) << trial;
    NormalHint hint;
    const bool reported = fcl.query(*a.object, *b.object, kMargin, hint);
    FclSeparation oracle(fcl, *a.object, *b.object, nullptr, nullptr);
    std::vector<PairContact> expected, got;
    with_fcl.build(A, B, hint, kMargin, &oracle, expected);
    if (!overlap_at_a_face) {   // the detector asks FCL, and hands build() the axes it found: the same bits
      ++kept;
      if (reported) without_fcl.build(A, B, hint, kMargin, &oracle, got, nullptr, &axes);
      EXPECT_TRUE(!reported || same_bits(expected, got)) << trial << (resting ? " resting" : " overlapping");
      continue;
    }
    ++let_go;
    ASSERT_TRUE(reported) << trial;
    without_fcl.build(A, B, NormalHint{}, kMargin, &oracle, got, nullptr, &axes);   // as the detector builds it
    EXPECT_TRUE(same_bits(expected, got)) << trial << (resting ? " resting" : " overlapping");
    EXPECT_FALSE(got.empty()) << trial;
  }
  EXPECT_GT(let_go, 250);   // every resting pair, and overlapping pairs of other kinds
  EXPECT_GT(kept, 50);      // deep overlaps whose best axis crosses two edges

  // Two long bars crossing at right angles, each turned 45° about its length: they overlap edge on edge by 1 mm,
  // the best axis is the product of their lengths' directions (z), and FCL is asked.
  const PreparedBox bar = prepared({2, 0.2, 0.2}, pose(Eigen::Vector3d::Zero(), rot(M_PI / 4, {1, 0, 0})));
  const PreparedBox crossing = prepared({0.2, 2, 0.2}, pose({0, 0, 0.2 * std::sqrt(2.0) - 1e-3}, rot(M_PI / 4, {0, 1, 0})));
  BoxAxes axes;
  ASSERT_TRUE(box_axes(crossing.posed(), bar.posed(), axes));
  EXPECT_NEAR(axes.edge, -1e-3, 1e-12);
  EXPECT_LT(axes.face, -0.1);
  EXPECT_FALSE(ManifoldBuilder::boxes_overlap_at_a_face(crossing.posed(), bar.posed(), kMargin, axes));
}

// Apart, touching or within the tie of touching, a pair is always FCL's.
TEST(BoxAxes, APairNotOverlappingIsAlwaysAskedOfFcl) {
  for (double gap : {-1e-13, 0.0, 1e-9, 1e-3}) {
    const PreparedBox a = prepared({1, 1, 1}, pose({0.25, 0.25, 1.0 + gap}));
    const PreparedBox b = prepared({1, 1, 1}, pose(Eigen::Vector3d::Zero()));
    BoxAxes axes;
    EXPECT_FALSE(ManifoldBuilder::boxes_overlap_at_a_face(a.posed(), b.posed(), kMargin, axes)) << gap;
  }
  const PreparedBox a = prepared({1, 1, 1}, pose({0.25, 0.25, 1.0 - 1e-6}));
  const PreparedBox b = prepared({1, 1, 1}, pose(Eigen::Vector3d::Zero()));
  BoxAxes axes;
  EXPECT_TRUE(ManifoldBuilder::boxes_overlap_at_a_face(a.posed(), b.posed(), kMargin, axes));
  EXPECT_FALSE(ManifoldBuilder::boxes_overlap_at_a_face(a.posed(), b.posed(), 1e-10, axes));   // FCL's, at a margin that small
  EXPECT_TRUE(axes.found);   // found for build() whatever the answer
}

}  // namespace
}  // namespace impetus::test
