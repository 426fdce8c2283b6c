// Contacts with the ground plane z = 0, against closed forms (collision/ground_contacts.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// Ground contacts are closed-form products and sums of a few doubles of size ~1: exact to a few
/// ulps of 1 m.
constexpr double kExact = 1e-12;

ContactSet ground_of(const Scene& scene, int g) { return pair_of(scene.detect(), g, kGround); }

void expect_ground_convention(const ContactSet& contacts, int g) {
  for (const ContactPoint& c : contacts) {
    EXPECT_EQ(c.geom_a, g);
    EXPECT_EQ(c.geom_b, kGround);
    EXPECT_EQ(c.link_b, kGround);
    EXPECT_NEAR((c.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
    // Midway between the surface point at height φ and the plane: p_z = φ/2.
    EXPECT_NEAR(c.p_W.z(), 0.5 * c.phi, kExact);
  }
}

TEST(Ground, SphereHasOnePointAtItsLowestPoint) {
  for (double gap : {-1e-3, 0.0, 2e-3}) {
    Scene scene;
    scene.filter.has_ground = true;
    const double r = 0.3;
    const int s = scene.add(Sphere{r}, pose({0.4, -0.7, r + gap}, rot(0.7, {1, 2, 3})));
    const ContactSet c = ground_of(scene, s);
    ASSERT_EQ(c.size(), 1u) << "gap " << gap;
    EXPECT_NEAR(c[0].phi, gap, kExact);
    EXPECT_NEAR((c[0].p_W - Eigen::Vector3d(0.4, -0.7, 0.5 * gap)).norm(), 0.0, kExact);
    expect_ground_convention(c, s);
  }
}

TEST(Ground, NothingBeyondTheMargin) {
  Scene scene;
  scene.filter.has_ground = true;
  scene.add(Sphere{0.3}, pose({0, 0, 0.3 + 1.01 * kMargin}));
  scene.add(box(1, 1, 1), pose({3, 0, 0.5 + 1.01 * kMargin}));
  EXPECT_TRUE(scene.detect().empty());
}

// A box flat on the ground rests on its four bottom corners with φ = height of the bottom face:
// resting, penetrating 1 mm, hovering within the margin; nothing when hovering beyond it.
TEST(Ground, FlatBoxGivesItsFourBottomCorners) {
  const Eigen::Vector3d size(1.0, 0.6, 0.4);
  const Eigen::Matrix3d R = rot(0.3, Eigen::Vector3d::UnitZ());
  const Eigen::Vector3d centre(0.2, -0.1, 0);
  for (double gap : {0.0, -1e-3, 0.5 * kMargin, 1.5 * kMargin}) {
    Scene scene;
    scene.filter.has_ground = true;
    const int b = scene.add(box(size.x(), size.y(), size.z()), pose(centre + Eigen::Vector3d(0, 0, 0.2 + gap), R));
    const ContactSet c = ground_of(scene, b);
    if (gap > kMargin) {
      EXPECT_TRUE(c.empty());
      continue;
    }
    ASSERT_EQ(c.size(), 4u) << "gap " << gap;
    expect_ground_convention(c, b);
    std::set<int> features;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      features.insert(p.feature);
    }
    EXPECT_EQ(features.size(), 4u);
    for (double sx : {-1.0, 1.0})
      for (double sy : {-1.0, 1.0}) {
        const Eigen::Vector3d corner = centre + R * Eigen::Vector3d(sx * 0.5, sy * 0.3, 0);
        EXPECT_TRUE(has_point(c, Eigen::Vector3d(corner.x(), corner.y(), 0.5 * gap), kExact)) << sx << " " << sy;
      }
  }
}

// Tilted 10° about x onto a bottom edge: the two corners of that edge touch, the other two are
// 0.6·sin 10° ≈ 0.1 m up, far beyond the margin. Tilted about two axes onto a corner: one point.
TEST(Ground, TiltedBoxGivesFewerPoints) {
  const Eigen::Vector3d h(0.5, 0.3, 0.2);
  {
    Scene scene;
    scene.filter.has_ground = true;
    const Eigen::Matrix3d R = rot(10 * M_PI / 180, Eigen::Vector3d::UnitX());
    // Lowest corner height: centre_z − (|R|·h)_z.
    const double lowest = (R.cwiseAbs() * h).z();
    const int b = scene.add(box(1.0, 0.6, 0.4), pose({0, 0, lowest}, R));
    const ContactSet c = ground_of(scene, b);
    ASSERT_EQ(c.size(), 2u);
    for (const ContactPoint& p : c) EXPECT_NEAR(p.phi, 0.0, kExact);
    EXPECT_NEAR(std::abs(c[0].p_W.x() - c[1].p_W.x()), 1.0, kExact);   // the two ends of the 1 m edge
  }
  {
    Scene scene;
    scene.filter.has_ground = true;
    const Eigen::Matrix3d R = rot(0.4, Eigen::Vector3d::UnitX()) * rot(0.3, Eigen::Vector3d::UnitY());
    const double lowest = (R.cwiseAbs() * h).z();
    const int b = scene.add(box(1.0, 0.6, 0.4), pose({0, 0, lowest - 1e-4}, R));
    const ContactSet c = ground_of(scene, b);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].phi, -1e-4, kExact);
  }
}

// A capsule rests on its two end spheres: lying, both touch; standing, the lower one.
TEST(Ground, CapsuleUsesItsEndSpheres) {
  const double r = 0.1, length = 0.8;
  {
    Scene scene;
    scene.filter.has_ground = true;
    const int c = scene.add(Capsule{r, length}, pose({0, 0, r - 2e-4}, rot(M_PI / 2, Eigen::Vector3d::UnitY())));
    const ContactSet g = ground_of(scene, c);
    ASSERT_EQ(g.size(), 2u);
    expect_ground_convention(g, c);
    for (const ContactPoint& p : g) EXPECT_NEAR(p.phi, -2e-4, kExact);
    EXPECT_TRUE(has_point(g, Eigen::Vector3d(0.4, 0, -1e-4), kExact));
    EXPECT_TRUE(has_point(g, Eigen::Vector3d(-0.4, 0, -1e-4), kExact));
  }
  {
    Scene scene;
    scene.filter.has_ground = true;
    const int c = scene.add(Capsule{r, length}, pose({0, 0, 0.4 + r + 1e-3}));
    const ContactSet g = ground_of(scene, c);
    ASSERT_EQ(g.size(), 1u);
    EXPECT_NEAR(g[0].phi, 1e-3, kExact);
  }
}

// A cylinder lying on its side rests on the two ends of its bottom line; standing on a cap, on the
// octagon of rim samples; tilted, its exact lowest rim point is among its points.
TEST(Ground, CylinderLyingStandingAndTilted) {
  const double r = 0.2, length = 0.6;
  {
    Scene scene;
    scene.filter.has_ground = true;
    // Rolled about its axis by an angle between samples, so that no rim sample is the lowest point.
    const Eigen::Matrix3d R = rot(M_PI / 2, Eigen::Vector3d::UnitX()) * rot(0.1, Eigen::Vector3d::UnitZ());
    const int c = scene.add(Cylinder{r, length}, pose({0, 0, r}, R));
    const ContactSet g = ground_of(scene, c);
    expect_ground_convention(g, c);
    int touching = 0;
    for (const ContactPoint& p : g)
      if (std::abs(p.phi) <= kExact) {
        ++touching;
        EXPECT_NEAR(std::abs(p.p_W.y()), 0.3, kExact);   // the ends of the bottom line, y = ±length/2
        EXPECT_NEAR(p.p_W.x(), 0.0, kExact);
      }
    EXPECT_EQ(touching, 2);
  }
  {
    Scene scene;
    scene.filter.has_ground = true;
    const int c = scene.add(Cylinder{r, length}, pose({0.1, 0.2, 0.3 - 5e-4}));
    const ContactSet g = ground_of(scene, c);
    ASSERT_EQ(g.size(), static_cast<size_t>(8));
    for (const ContactPoint& p : g) {
      EXPECT_NEAR(p.phi, -5e-4, kExact);
      EXPECT_NEAR((p.p_W.head<2>() - Eigen::Vector2d(0.1, 0.2)).norm(), r, kExact);   // on the rim
    }
  }
  {
    Scene scene;
    scene.filter.has_ground = true;
    const double tilt = 1e-3;
    const Eigen::Matrix3d R = rot(tilt, Eigen::Vector3d(1, 1, 0));
    const double z = 0.3;
    const int c = scene.add(Cylinder{r, length}, pose({0, 0, z}, R));
    const ContactSet g = ground_of(scene, c);
    ASSERT_LE(g.size(), 8u);
    // Lowest rim point: z − l·cos(tilt) − r·sin(tilt).
    const double lowest = z - 0.3 * std::cos(tilt) - r * std::sin(tilt);
    double min_phi = 1;
    for (const ContactPoint& p : g) min_phi = std::min(min_phi, p.phi);
    EXPECT_NEAR(min_phi, lowest, kExact);
  }
}

// A mesh cube is its hull: on the ground it behaves exactly like the box.
TEST(Ground, ConvexMeshCubeBehavesLikeTheBox) {
  const Eigen::Vector3d size(1.0, 0.6, 0.4);
  const Eigen::Isometry3d X = pose({0.3, 0.1, 0.2 - 1e-3}, rot(0.25, Eigen::Vector3d::UnitZ()));
  Scene boxes, meshes;
  boxes.filter.has_ground = meshes.filter.has_ground = true;
  boxes.add(box(size.x(), size.y(), size.z()), X);
  meshes.add(box_mesh(size), X);
  const ContactSet cb = boxes.detect(), cm = meshes.detect();
  ASSERT_EQ(cb.size(), 4u);
  ASSERT_EQ(cm.size(), 4u);
  for (const ContactPoint& p : cm) {
    EXPECT_NEAR(p.phi, -1e-3, kExact);
    EXPECT_TRUE(has_point(cb, p.p_W, kExact));
  }
}

TEST(Ground, ImmovableGeometriesNeverTouchTheGround) {
  Scene scene;
  scene.filter.has_ground = true;
  scene.add(box(1, 1, 1), pose({0, 0, 0.4}), /*movable=*/false);
  EXPECT_TRUE(scene.detect().empty());
}

}  // namespace
}  // namespace impetus::test
