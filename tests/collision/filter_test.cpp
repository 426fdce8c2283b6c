// Pair filtering (collision/pair_filter.hpp) and input errors of the detector.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

bool touches(const ContactSet& contacts, int a, int b) { return !pair_of(contacts, a, b).empty(); }

TEST(Filter, SameLinkNever) {
  Scene scene;
  const int g0 = scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
  const int g1 = scene.add_to_link(0, box(1, 1, 1), pose({0.5, 0, 0}));   // overlapping, same body
  EXPECT_FALSE(touches(scene.detect(), g0, g1));
}

TEST(Filter, ParentChildExcludedByDefaultAndOnRequest) {
  for (bool exclude : {true, false}) {
    Scene scene;
    scene.filter.exclude_parent_child = exclude;
    const int parent = scene.add(box(1, 1, 1), pose(Eigen::Vector3d::Zero()));
    const int child = scene.add(box(1, 1, 1), pose({0, 0, 0.9}), true, /*parent=*/0);
    const int grandchild = scene.add(box(1, 1, 1), pose({0, 0, 0.5}), true, /*parent=*/1);
    const ContactSet c = scene.detect();
    EXPECT_EQ(touches(c, parent, child), !exclude);
    EXPECT_EQ(touches(c, child, grandchild), !exclude);
    EXPECT_TRUE(touches(c, parent, grandchild));   // not parent and child: always tested
  }
}

TEST(Filter, TwoImmovableLinksNever) {
  Scene scene;
  scene.filter.has_ground = true;
  const int wall = scene.add(box(1, 1, 1), pose({0, 0, 0.5}), /*movable=*/false);
  const int floor = scene.add(box(3, 3, 0.2), pose({0, 0, 0}), /*movable=*/false);
  const int body = scene.add(box(0.5, 0.5, 0.5), pose({0, 0, 1.2}));
  const ContactSet c = scene.detect();
  EXPECT_FALSE(touches(c, wall, floor));
  EXPECT_FALSE(touches(c, wall, kGround));
  EXPECT_FALSE(touches(c, floor, kGround));
  EXPECT_TRUE(touches(c, wall, body));
}

TEST(Filter, ImmovableGeometryFollowsItsLinkWhenMoved) {
  Scene scene;
  scene.add(box(1, 1, 1), pose({0, 0, 0}), /*movable=*/false);
  scene.add(Sphere{0.2}, pose({0, 0, 0.7}));
  CollisionDetector detector(scene.geometries, scene.filter);
  ContactSet c;
  detector.detect(scene.X_WL, c);
  EXPECT_EQ(c.size(), 1u);
  std::vector<Eigen::Isometry3d> moved = scene.X_WL;
  moved[0] = pose({5, 0, 0});
  detector.detect(moved, c);
  EXPECT_TRUE(c.empty());
}

// A diverged state (a pose that is not finite) gives no contacts for that geometry and leaves the
// others untouched.
TEST(Filter, NonFinitePoseGivesNoContacts) {
  Scene scene;
  scene.filter.has_ground = true;
  const int lost = scene.add(box(1, 1, 1), pose({0, 0, 0.5}));
  const int kept = scene.add(Sphere{0.5}, pose({3, 0, 0.5}));
  scene.X_WL[0].translation().x() = std::numeric_limits<double>::quiet_NaN();
  const ContactSet c = scene.detect();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].geom_a, kept);
  EXPECT_NE(c[0].geom_a, lost);
}

TEST(Filter, RefusesInvalidInput) {
  {
    Scene scene;
    scene.add(Sphere{-1}, pose(Eigen::Vector3d::Zero()));
    try {
      scene.detect();
      ADD_FAILURE() << "a negative radius was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("g0"), std::string::npos) << e.what();   // names the geometry
    }
  }
  {
    Scene scene;
    Mesh empty;
    empty.filename = "empty.stl";
    scene.add(empty, pose(Eigen::Vector3d::Zero()));
    EXPECT_THROW(scene.detect(), std::invalid_argument);
  }
  {
    Scene scene;
    Mesh bad = box_mesh(Eigen::Vector3d(1, 1, 1));
    bad.triangles.emplace_back(0, 1, 99);
    scene.add(bad, pose(Eigen::Vector3d::Zero()));
    EXPECT_THROW(scene.detect(), std::invalid_argument);
  }
  {
    Scene scene;
    scene.filter.margin = -1;
    scene.add(Sphere{1}, pose(Eigen::Vector3d::Zero()));
    EXPECT_THROW(scene.detect(), std::invalid_argument);
  }
  {
    Scene scene;
    scene.add(Sphere{1}, pose(Eigen::Vector3d::Zero()));
    CollisionDetector detector(scene.geometries, scene.filter);
    ContactSet c;
    EXPECT_THROW(detector.detect({}, c), std::invalid_argument);   // no pose for link 0
  }
}

}  // namespace
}  // namespace impetus::test
