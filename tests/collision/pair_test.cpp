// Pairs of geometries against closed forms: spheres, capsules, cylinders, boxes (collision/manifold.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// Gaps and points built from our own support functions and clipping: exact to a few ulps of 1 m.
constexpr double kExact = 1e-12;
/// Where the normal comes from FCL's GJK/EPA (curved contacts of cylinders) its direction and
/// so the gap carry FCL's tolerance, 1e-9 (fcl_adapter.cpp, kGjkTolerance), and EPA's polytope
/// approximation of a curved surface, which we allow up to 1e-7 m.
constexpr double kIterative = 1e-7;

const double kGaps[] = {-1e-3, -1e-9, 0.0, 1e-9, 1e-3};

void expect_point(const ContactPoint& c, const Eigen::Vector3d& p, const Eigen::Vector3d& n, double phi, double tol) {
  EXPECT_NEAR((c.p_W - p).norm(), 0.0, tol) << "p = " << c.p_W.transpose() << ", expected " << p.transpose();
  EXPECT_NEAR((c.n_W - n).norm(), 0.0, tol) << "n = " << c.n_W.transpose() << ", expected " << n.transpose();
  EXPECT_NEAR(c.phi, phi, tol);
}

// φ = |c_A − c_B| − r_A − r_B, n along the centres, p midway between the surfaces.
TEST(Pair, SphereSphereClosedForm) {
  const double ra = 0.3, rb = 0.5;
  const Eigen::Vector3d dir = Eigen::Vector3d(0.2, -0.4, 0.9).normalized();
  for (double gap : kGaps) {
    Scene scene;
    const Eigen::Vector3d cb(0.1, 0.2, 0.3);
    const Eigen::Vector3d ca = cb + (ra + rb + gap) * dir;
    scene.add(Sphere{ra}, pose(ca));
    scene.add(Sphere{rb}, pose(cb));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 1u);
    expect_point(c[0], cb + (rb + 0.5 * gap) * dir, dir, gap, kExact);
  }
}

// Sphere against a rotated box, in the face, edge and corner regions: with q the point of the box
// nearest the centre c, φ = |c − q| − r, n = (c − q)/|c − q|, p = q + n·φ/2. Both index orders.
TEST(Pair, SphereBoxClosedForm) {
  const Eigen::Vector3d h(0.5, 0.4, 0.3);
  const double r = 0.1;
  const Eigen::Isometry3d X_B = pose({0.2, -0.1, 0.4}, rot(0.6, Eigen::Vector3d(1, 2, 3)));
  // Directions from the nearest box point to the centre, in the box frame, per region.
  const Eigen::Vector3d regions[][2] = {
      {Eigen::Vector3d(0.1, -0.2, 0.3), Eigen::Vector3d(0, 0, 1)},                        // face
      {Eigen::Vector3d(0.5, 0.1, 0.3), Eigen::Vector3d(1, 0, 1).normalized()},            // edge
      {Eigen::Vector3d(0.5, 0.4, 0.3), Eigen::Vector3d(1, 1, 1).normalized()}};           // corner
  for (const auto& region : regions)
    for (double gap : {-1e-3, 1e-3})
      for (bool sphere_first : {true, false}) {
        const Eigen::Vector3d& q_B = region[0];
        const Eigen::Vector3d& dir_B = region[1];
        if (gap < 0 && dir_B.z() < 1) continue;   // penetrating an edge or corner: nearest point not unique
        const Eigen::Vector3d q = X_B * q_B, dir = X_B.linear() * dir_B;
        const Eigen::Vector3d c_sphere = q + (r + gap) * dir;
        Scene scene;
        if (sphere_first) {
          scene.add(Sphere{r}, pose(c_sphere));
          scene.add(box(2 * h.x(), 2 * h.y(), 2 * h.z()), X_B);
        } else {
          scene.add(box(2 * h.x(), 2 * h.y(), 2 * h.z()), X_B);
          scene.add(Sphere{r}, pose(c_sphere));
        }
        const ContactSet c = scene.detect();
        ASSERT_EQ(c.size(), 1u);
        const Eigen::Vector3d n = sphere_first ? dir : Eigen::Vector3d(-dir);   // from B towards A
        expect_point(c[0], q + 0.5 * gap * dir, n, gap, kExact);
      }
}

// A capsule lying on a box touches along its core's span over the face: two points, at the core's
// end (x = −0.1) and where the face ends (x = 0.5).
TEST(Pair, CapsuleLyingOnBoxGivesTwoPoints) {
  const double r = 0.1;
  for (double gap : kGaps) {
    Scene scene;
    const int cap = scene.add(Capsule{r, 0.8}, pose({0.3, 0.1, 0.5 + r + gap}, rot(M_PI / 2, Eigen::Vector3d::UnitY())));
    scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = pair_of(scene.detect(), cap, cap + 1);
    ASSERT_EQ(c.size(), 2u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
    }
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(-0.1, 0.1, 0.5 + 0.5 * gap), kExact));
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(0.5, 0.1, 0.5 + 0.5 * gap), kExact));
  }
}

// Parallel capsules touch along the overlap of their cores: two points, exact gaps. Crossed, one.
TEST(Pair, CapsuleCapsuleParallelAndCrossed) {
  const double r = 0.1;
  const Eigen::Matrix3d along_x = rot(M_PI / 2, Eigen::Vector3d::UnitY());
  for (double gap : kGaps) {
    Scene scene;
    scene.add(Capsule{r, 1.0}, pose({0.2, 0, 2 * r + gap}, along_x));
    scene.add(Capsule{r, 1.0}, pose(Eigen::Vector3d::Zero(), along_x));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 2u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
    }
    // Cores overlap on x ∈ [−0.3, 0.5].
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(-0.3, 0, r + 0.5 * gap), kExact));
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(0.5, 0, r + 0.5 * gap), kExact));
  }
  for (double gap : kGaps) {
    Scene scene;
    scene.add(Capsule{r, 1.0}, pose({0.1, 0.2, 2 * r + gap}, rot(M_PI / 2, Eigen::Vector3d::UnitX())));
    scene.add(Capsule{r, 1.0}, pose(Eigen::Vector3d::Zero(), along_x));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 1u) << gap;
    expect_point(c[0], Eigen::Vector3d(0.1, 0, r + 0.5 * gap), Eigen::Vector3d::UnitZ(), gap, kExact);
  }
}

// A cylinder standing on a box rests on its octagon of rim samples; lying, on the two ends of its
// bottom line.
TEST(Pair, CylinderStandingAndLyingOnBox) {
  const double r = 0.2, length = 0.4;
  for (double gap : kGaps) {
    Scene scene;
    const Eigen::Vector3d centre(0.1, -0.1, 0.5 + 0.2 + gap);
    scene.add(Cylinder{r, length}, pose(centre, rot(0.3, Eigen::Vector3d::UnitZ())));
    scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 8u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR((p.p_W.head<2>() - centre.head<2>()).norm(), r, kExact);
      EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
    }
  }
  for (double gap : kGaps) {
    Scene scene;
    scene.add(Cylinder{r, length}, pose({0.1, 0.0, 0.5 + r + gap}, rot(M_PI / 2, Eigen::Vector3d::UnitY())));
    scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 2u) << gap;
    for (const ContactPoint& p : c) EXPECT_NEAR(p.phi, gap, kExact);
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(0.1 - 0.2, 0, 0.5 + 0.5 * gap), kExact));
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(0.1 + 0.2, 0, 0.5 + 0.5 * gap), kExact));
  }
}

// Cylinders stacked on their caps: the two octagons, turned by π/8, overlap in a 16-gon, reduced to
// 8 points; lying side by side and parallel: a line contact, two points.
TEST(Pair, CylinderOnCylinder) {
  const double r = 0.2, length = 0.4;
  for (double gap : kGaps) {
    Scene scene;
    scene.add(Cylinder{r, length}, pose({0, 0, length + gap}, rot(M_PI / 8, Eigen::Vector3d::UnitZ())));
    scene.add(Cylinder{r, length}, pose(Eigen::Vector3d::Zero()));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 8u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kExact);
    }
  }
  for (double gap : kGaps) {
    Scene scene;
    const Eigen::Matrix3d along_x = rot(M_PI / 2, Eigen::Vector3d::UnitY());
    scene.add(Cylinder{r, length}, pose({0.1, 0, 2 * r + gap}, along_x));
    scene.add(Cylinder{r, length}, pose(Eigen::Vector3d::Zero(), along_x));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 2u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kIterative);
      EXPECT_NEAR((p.n_W - Eigen::Vector3d::UnitZ()).norm(), 0.0, kIterative);
    }
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(-0.1, 0, r + 0.5 * gap), kIterative));
    EXPECT_TRUE(has_point(c, Eigen::Vector3d(0.2, 0, r + 0.5 * gap), kIterative));
  }
}

// A sphere on a cylinder's side: closed form from the axis, n ⟂ axis.
TEST(Pair, SphereOnCylinderSide) {
  const double r = 0.1, R = 0.2;
  for (double gap : kGaps) {
    Scene scene;
    const Eigen::Vector3d dir = Eigen::Vector3d(0, 1, 1).normalized();
    // Cylinder along x; the nearest axis point to the sphere is (0.05, 0, 0).
    scene.add(Sphere{r}, pose(Eigen::Vector3d(0.05, 0, 0) + (R + r + gap) * dir));
    scene.add(Cylinder{R, 0.6}, pose(Eigen::Vector3d::Zero(), rot(M_PI / 2, Eigen::Vector3d::UnitY())));
    const ContactSet c = scene.detect();
    ASSERT_EQ(c.size(), 1u);
    expect_point(c[0], Eigen::Vector3d(0.05, 0, 0) + (R + 0.5 * gap) * dir, dir, gap, kExact);
  }
}

}  // namespace
}  // namespace impetus::test
