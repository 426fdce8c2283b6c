// Meshes: convex hulls (collision/convex_hull.hpp), convexity, and non-convex meshes through FCL's BVH.
#include <gtest/gtest.h>

#include <random>

#include "collision/collision_shape.hpp"
#include "collision/convex_hull.hpp"
#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// Hull planes and volumes from double-precision input: exact to rounding of unit-sized numbers.
constexpr double kExact = 1e-12;
/// Float noise put on vertices below, as in an STL file (single precision: 6e-8 relative).
constexpr double kFloatNoise = 6e-8;

// The 12 triangles of a mesh cube merge into 6 quadrilateral faces, outward and counter-clockwise.
TEST(Hull, CubeMeshGivesSixQuadrilaterals) {
  const Mesh m = box_mesh(Eigen::Vector3d(1, 2, 3));
  const HullResult r = convex_hull(m.vertices);
  ASSERT_TRUE(r.hull) << r.error;
  const Polytope& hull = *r.hull;
  EXPECT_EQ(hull.vertices.size(), 8u);
  ASSERT_EQ(hull.faces.size(), 6u);
  for (const Polytope::Face& f : hull.faces) {
    ASSERT_EQ(f.loop.size(), 4u);
    // Counter-clockwise seen from outside: the loop's right-hand normal (Newell) is the outward one.
    Eigen::Vector3d newell = Eigen::Vector3d::Zero();
    for (size_t k = 0; k < 4; ++k) newell += hull.vertices[f.loop[k]].cross(hull.vertices[f.loop[(k + 1) % 4]]);
    EXPECT_NEAR((newell.normalized() - f.normal).norm(), 0.0, kExact);
    for (int id : f.loop) EXPECT_NEAR(f.normal.dot(hull.vertices[id]), f.offset, kExact);
    for (const Eigen::Vector3d& v : hull.vertices) EXPECT_LE(f.normal.dot(v), f.offset + kExact);
  }
}

// With single-precision noise on the corners and extra points in the middle of faces and edges,
// the hull still has 6 faces and 8 corners.
TEST(Hull, MergesNearlyCoplanarFacetsAndDropsNonCorners) {
  Mesh m = box_mesh(Eigen::Vector3d(1, 1, 1));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(-kFloatNoise, kFloatNoise);
  for (Eigen::Vector3d& v : m.vertices) v += Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
  m.vertices.emplace_back(0.5, 0.1, 0.2);    // on the +x face
  m.vertices.emplace_back(0.5, 0.5, 0.0);    // on an edge
  const HullResult r = convex_hull(m.vertices);
  ASSERT_TRUE(r.hull) << r.error;
  EXPECT_EQ(r.hull->faces.size(), 6u);
  EXPECT_EQ(r.hull->vertices.size(), 8u);
}

TEST(Hull, DegenerateInputsFailWithAReason) {
  EXPECT_FALSE(convex_hull({}).hull);
  const std::vector<Eigen::Vector3d> flat = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}};
  const HullResult r = convex_hull(flat);
  EXPECT_FALSE(r.hull);
  EXPECT_FALSE(r.error.empty());
  EXPECT_FALSE(convex_hull({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}).hull);
}

// An L-shaped prism: two boxes side by side with one on top of the first. Non-convex; `exact` asks
// for its triangles.
Mesh l_shape(bool exact = true) {
  // Cross-section in x-z: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), extruded along y ∈ [−0.5, 0.5].
  const double xz[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  Mesh m;
  m.filename = "l_shape";
  m.exact = exact;
  for (double y : {-0.5, 0.5})
    for (const auto& p : xz) m.vertices.emplace_back(p[0], y, p[1]);
  // Sides: quads between consecutive outline points, wound outward.
  for (int k = 0; k < 6; ++k) {
    const int a = k, b = (k + 1) % 6;
    m.triangles.emplace_back(a, b + 6, b);
    m.triangles.emplace_back(a, a + 6, b + 6);
  }
  // Caps (y = −0.5 and y = +0.5), the L split into two rectangles and triangulated.
  const int caps[4][4] = {{0, 1, 2, 3}, {0, 3, 4, 5}, {6, 9, 8, 7}, {6, 11, 10, 9}};
  for (const auto& q : caps) {
    m.triangles.emplace_back(q[0], q[1], q[2]);
    m.triangles.emplace_back(q[0], q[2], q[3]);
  }
  return m;
}

TEST(Mesh, ConvexityIsDetected) {
  Geometry cube;
  cube.shape = box_mesh(Eigen::Vector3d(1, 1, 1));
  EXPECT_TRUE(prepare_shape(cube, 0).convex);
  Geometry l;
  l.shape = l_shape();
  const CollisionShape s = prepare_shape(l, 0);
  EXPECT_FALSE(s.convex);
  EXPECT_EQ(s.ground_points.size(), 10u);   // the hull drops the inner corner (1, ·, 1)
}

TEST(Mesh, APreparedMeshKeepsItsHullForTheNextPreparation) {
  // The scene loader's check keeps the hull; every later preparation (collision detector, divergence
  // monitor) takes that polytope instead of running qhull again, and gets the same shape.
  Geometry cube;
  cube.shape = box_mesh(Eigen::Vector3d(1, 2, 3));
  const CollisionShape fresh = prepare_shape(cube, 0);
  EXPECT_FALSE(std::get<Mesh>(cube.shape).hull);
  const CollisionShape first = prepare_shape_keeping_hull(cube, 0);
  ASSERT_TRUE(std::get<Mesh>(cube.shape).hull);
  const CollisionShape again = prepare_shape(cube, 0);
  ASSERT_TRUE(again.convex);
  EXPECT_EQ(again.convex_shape.polytope.get(), std::get<Mesh>(cube.shape).hull.get());
  ASSERT_EQ(again.convex_shape.polytope->vertices.size(), fresh.convex_shape.polytope->vertices.size());
  for (std::size_t i = 0; i < fresh.convex_shape.polytope->vertices.size(); ++i)
    EXPECT_EQ(again.convex_shape.polytope->vertices[i], fresh.convex_shape.polytope->vertices[i]);
  EXPECT_EQ(again.convex_shape.polytope->faces.size(), fresh.convex_shape.polytope->faces.size());
  // A mesh that keeps its triangles keeps no hull: FCL's BVH collides with it.
  Geometry l;
  l.shape = l_shape();
  EXPECT_FALSE(prepare_shape_keeping_hull(l, 0).convex);
  EXPECT_FALSE(std::get<Mesh>(l.shape).hull);
  EXPECT_FALSE(prepare_shape(l, 0).convex);
}

// By default a mesh collides as its convex hull: the L's hull has the cut corner filled in, 10 vertices
// and 7 faces (two pentagons and five rectangles), and it rests on a box along the hull's bottom face.
TEST(Mesh, NonConvexMeshIsItsHullByDefault) {
  Geometry l;
  l.shape = l_shape(/*exact=*/false);
  const CollisionShape s = prepare_shape(l, 0);
  ASSERT_TRUE(s.convex);
  ASSERT_TRUE(s.convex_shape.polytope);
  EXPECT_EQ(s.convex_shape.polytope->vertices.size(), 10u);
  // A point of the hull that is not in the L: (1.5, 0, 1.5) is filled in; a box touching it there
  // from above reports a contact with the hull.
  Scene scene;
  const int hull = scene.add(l_shape(false), pose(Eigen::Vector3d::Zero()));
  const int lid = scene.add(box(0.2, 0.2, 0.2), pose({1.45, 0, 1.55 + 0.1 - 1e-3}));
  const ContactSet c = pair_of(scene.detect(), hull, lid);
  ASSERT_FALSE(c.empty());
  for (const ContactPoint& p : c) EXPECT_LT(p.phi, 0);
}

// A non-convex mesh goes through FCL's BVH: on the ground (its hull's vertices) and resting on a
// box, the normal points from B to A and the gaps are right.
TEST(Mesh, NonConvexMeshOnGroundAndOnBox) {
  {
    Scene scene;
    scene.filter.has_ground = true;
    const int l = scene.add(l_shape(), pose({0, 0, -1e-3}));
    const ContactSet c = pair_of(scene.detect(), l, kGround);
    ASSERT_EQ(c.size(), 4u);   // the four corners of the bottom face (x ∈ {0, 2}, y = ±0.5)
    for (const ContactPoint& p : c) EXPECT_NEAR(p.phi, -1e-3, kExact);
  }
  {
    Scene scene;
    const int l = scene.add(l_shape(), pose({-1, 0, 0.5 - 1e-3}));
    scene.add(box(4, 4, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = pair_of(scene.detect(), l, l + 1);
    ASSERT_FALSE(c.empty());
    ASSERT_LE(c.size(), 8u);
    for (const ContactPoint& p : c) {
      EXPECT_GT(p.n_W.z(), 0.99) << p.n_W.transpose();   // from the box (B) up to the mesh (A)
      // FCL's triangle contacts report the depth of each triangle pair; at most the 1 mm overlap.
      EXPECT_LE(p.phi, 1e-9);
      EXPECT_GE(p.phi, -1e-3 - 1e-9);
    }
  }
  {
    // Apart within the margin: one point from FCL's nearest points.
    Scene scene;
    const int l = scene.add(l_shape(), pose({-1, 0, 0.5 + 2e-3}));
    scene.add(box(4, 4, 1), pose(Eigen::Vector3d::Zero()));
    const ContactSet c = pair_of(scene.detect(), l, l + 1);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].phi, 2e-3, 1e-9);
    EXPECT_GT(c[0].n_W.z(), 1 - 1e-6);
  }
}

}  // namespace
}  // namespace impetus::test
