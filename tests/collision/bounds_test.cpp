// world_bounds of a posed polytope is h(±e_k) per world axis (collision/convex_shape.hpp): the
// broad phase's boxes, computed every collision pass for every geometry, must be the support
// function's own numbers, which the narrow phase and the recovery's certificate also use.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "collision/convex_shape.hpp"

namespace impetus::test {
namespace {

// A hull-like cloud: n points on a squashed sphere about an offset centre, with exact copies and
// points mirrored through the centre (ties of the maximum and of the minimum along every direction).
std::shared_ptr<Polytope> cloud(std::mt19937& rng, int n) {
  std::normal_distribution<double> gauss;
  std::uniform_real_distribution<double> uniform(-0.1, 0.1);
  auto p = std::make_shared<Polytope>();
  const Eigen::Vector3d centre(uniform(rng), uniform(rng), uniform(rng));
  const Eigen::Vector3d axes(0.02 + std::abs(uniform(rng)), 0.02 + std::abs(uniform(rng)), 0.01);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d u = Eigen::Vector3d(gauss(rng), gauss(rng), gauss(rng)).normalized();
    p->vertices.push_back(centre + axes.cwiseProduct(u));
    if (i % 7 == 0) p->vertices.push_back(p->vertices.back());
    if (i % 5 == 0) p->vertices.push_back(centre - axes.cwiseProduct(u));
  }
  return p;
}

TEST(WorldBounds, PolytopeBoundsAreTheSupportOfTheSixAxisDirectionsToTheBit) {
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss;
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  for (int trial = 0; trial < 400; ++trial) {
    ConvexShape shape;
    shape.kind = ConvexShape::Kind::kPolytope;
    shape.polytope = cloud(rng, 1 + trial % 150);
    Eigen::Isometry3d X_WG = Eigen::Isometry3d::Identity();
    // Every fourth pose is axis-aligned (entries of R exactly 0 and ±1), the rest random.
    if (trial % 4 != 0)
      X_WG.linear() = Eigen::Quaterniond(gauss(rng), gauss(rng), gauss(rng), gauss(rng)).normalized().toRotationMatrix();
    else if (trial % 8 == 0)
      X_WG.linear() = Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()).toRotationMatrix().array().round().matrix();
    X_WG.translation() = Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng));
    const Eigen::AlignedBox3d box = world_bounds(shape, X_WG);
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
      EXPECT_EQ(box.max()[k], support(shape, X_WG, e)) << "trial " << trial << ", axis " << k;
      EXPECT_EQ(box.min()[k], -support(shape, X_WG, -e)) << "trial " << trial << ", axis " << k;
    }
  }
}

}  // namespace
}  // namespace impetus::test
