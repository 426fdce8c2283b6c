// Which pairs of links the collision stage tests (sim/scene/scene_collision.hpp): links that cannot
// move relative to each other never, a model's self-collision policy (off, filtered, on), and the
// scene's <exclude>/<include> pairs; and self-collision on by request keeps a gripper's fingers apart.
#include <gtest/gtest.h>

#include <set>

#include "collision/collision_detector.hpp"
#include "sim/collision_filter.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

// A fixed-base chain: base (on the floor) — upper — lower — tip (welded to lower), folded at the elbow
// at q = 0 so that `tip` overlaps `upper` by 2 × 1 cm, and straight at elbow = π; `side` hangs off
// the base and touches nothing.
const std::string kChain = R"(<robot name="chain">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial>
    <collision><origin xyz="0 0 0.05"/><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <link name="upper"><inertial><origin xyz="0 0 0.25"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0 0 0.25"/><geometry><box size="0.06 0.06 0.3"/></geometry></collision></link>
  <link name="lower"><inertial><origin xyz="0 0 0.1"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0 0 0.1"/><geometry><box size="0.06 0.06 0.2"/></geometry></collision></link>
  <link name="tip"><inertial><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
    <collision><geometry><box size="0.06 0.06 0.06"/></geometry></collision></link>
  <link name="side"><inertial><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
    <collision><geometry><sphere radius="0.03"/></geometry></collision></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="50" velocity="2"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/><origin xyz="0 0 0.4" rpy="0 3.14159265 0"/><axis xyz="0 1 0"/>
    <limit lower="-3.2" upper="3.2" effort="50" velocity="2"/></joint>
  <joint name="wrist" type="fixed"><parent link="lower"/><child link="tip"/><origin xyz="0.04 0 0.32" rpy="0 0 0"/></joint>
  <joint name="hang" type="revolute"><parent link="base"/><child link="side"/><origin xyz="0.5 0 0.05"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="50" velocity="2"/></joint>
</robot>
)";

std::string scene(const std::string& model_attributes, const std::string& more = "", const std::string& elbow = "0") {
  return "<scene name=\"policy\">\n  <ground/>\n  <model name=\"r\" urdf=\"chain.urdf\" base=\"fixed\"" + model_attributes +
         ">\n    <joint name=\"elbow\" position=\"" + elbow + "\"/>\n  </model>\n" + more + "</scene>\n";
}

struct Loaded {
  test::TempDir dir{"policy"};
  World world;
  explicit Loaded(const std::string& text) {
    dir.write("chain.urdf", kChain);
    world = load_scene(dir.write("scene.xml", text));
  }
  int link(const std::string& name) const { return world.model.multibody.find_link("r/" + name); }
  /// Link pairs in contact at the initial state (one step of collision).
  std::set<std::pair<int, int>> touching() const {
    Stepper stepper(world.model, "stewart_trinkle", 1e-3);
    State state = world.initial;
    stepper.step(state);
    std::set<std::pair<int, int>> out;
    for (const ContactPoint& c : stepper.data().contacts) out.insert({std::min(c.link_a, c.link_b), std::max(c.link_a, c.link_b)});
    return out;
  }
  bool touch(int a, int b) const { return touching().count({std::min(a, b), std::max(a, b)}) > 0; }
  const FilteredPair* filtered(int a, int b) const {
    for (const FilteredPair& p : world.model.collision.filtered)
      if ((p.link_a == a && p.link_b == b) || (p.link_a == b && p.link_b == a)) return &p;
    return nullptr;
  }
};

TEST(CollisionPolicy, FixedBaseOnTheFloorNeverTouchesTheGround) {
  const Loaded s(scene(""));
  const int base = s.link("base");
  EXPECT_FALSE(s.world.model.collision.link_movable[base]);
  EXPECT_TRUE(s.world.model.collision.link_movable[s.link("upper")]);
  EXPECT_FALSE(s.touch(base, kGround));                   // its box lies on z = 0
}

TEST(CollisionPolicy, WeldedLinksAreOneBody) {
  const Loaded s(scene(" self_collision=\"on\""));
  EXPECT_EQ(s.world.model.collision.link_body[s.link("tip")], s.link("lower"));
  EXPECT_FALSE(s.touch(s.link("tip"), s.link("lower")));  // overlap, but welded
}

TEST(CollisionPolicy, OffByDefaultTestsNoPairOfTheModel) {
  const Loaded s(scene(""));
  const int tip = s.link("tip"), upper = s.link("upper");
  ASSERT_NE(s.filtered(tip, upper), nullptr);
  EXPECT_EQ(s.filtered(tip, upper)->reason, FilteredPair::Reason::SelfCollisionOff);
  EXPECT_FALSE(s.touch(tip, upper));
}

TEST(CollisionPolicy, OnTestsOverlappingLinks) {
  const Loaded s(scene(" self_collision=\"on\""));
  EXPECT_EQ(s.filtered(s.link("tip"), s.link("upper")), nullptr);
  EXPECT_TRUE(s.touch(s.link("tip"), s.link("upper")));
}

TEST(CollisionPolicy, FilteredDropsAdjacentAndInitiallyTouchingPairsOnly) {
  const Loaded s(scene(" self_collision=\"filtered\""));
  const int upper = s.link("upper"), lower = s.link("lower"), tip = s.link("tip"), side = s.link("side");
  ASSERT_NE(s.filtered(upper, lower), nullptr);
  EXPECT_EQ(s.filtered(upper, lower)->reason, FilteredPair::Reason::Adjacent);
  ASSERT_NE(s.filtered(tip, upper), nullptr);
  EXPECT_EQ(s.filtered(tip, upper)->reason, FilteredPair::Reason::InContactInitially);
  EXPECT_EQ(s.filtered(side, upper), nullptr);            // apart in both configurations: tested
  EXPECT_FALSE(s.touch(tip, upper));
  // The report names each filtered pair and its reason.
  const std::string report = describe_collision_pairs(s.world.model);
  EXPECT_NE(report.find("r/upper - r/tip: in contact at the initial configuration"), std::string::npos) << report;
  EXPECT_NE(report.find("r/upper - r/lower: adjacent"), std::string::npos) << report;
  EXPECT_NE(report.find("welded to the world"), std::string::npos) << report;
}

TEST(CollisionPolicy, FilteredUsesTheZeroConfigurationToo) {
  // Straight at the start, folded at q = 0.
  const Loaded s(scene(" self_collision=\"filtered\"", "", "3.14159"));
  const int tip = s.link("tip"), upper = s.link("upper");
  ASSERT_NE(s.filtered(tip, upper), nullptr);
  EXPECT_EQ(s.filtered(tip, upper)->reason, FilteredPair::Reason::InContactAtZero);
  EXPECT_EQ(s.filtered(s.link("side"), upper), nullptr);
}

TEST(CollisionPolicy, ExcludeAndIncludeOverrideThePolicy) {
  const Loaded s(scene(" self_collision=\"filtered\"",
                       "  <include a=\"r/tip\" b=\"r/upper\"/>\n  <exclude a=\"r/side\" b=\"ground\"/>\n"));
  EXPECT_EQ(s.filtered(s.link("tip"), s.link("upper")), nullptr);
  EXPECT_TRUE(s.touch(s.link("tip"), s.link("upper")));
  ASSERT_NE(s.filtered(s.link("side"), kGround), nullptr);
  EXPECT_EQ(s.filtered(s.link("side"), kGround)->reason, FilteredPair::Reason::Excluded);
  const std::string report = describe_collision_pairs(s.world.model);
  EXPECT_NE(report.find("<include> at line"), std::string::npos) << report;
  EXPECT_NE(report.find("<exclude> at line"), std::string::npos) << report;
}

void expect_refused(const std::string& inside, const std::string& says) {
  const std::string text = scene("", inside);
  try {
    Loaded s(text);
    ADD_FAILURE() << "accepted: " << inside;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), test::line_of(text)) << e.what();
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(CollisionPolicy, RefusesBadPairsAtTheirLine) {
  expect_refused("  <include a=\"r/base\" b=\"ground\"/> <!-- here -->\n", "cannot move relative");
  expect_refused("  <include a=\"r/tip\" b=\"r/lower\"/> <!-- here -->\n", "cannot move relative");
  expect_refused("  <exclude a=\"r/tip\" b=\"r/tip\"/> <!-- here -->\n", "same body");
  expect_refused("  <exclude a=\"r/nope\" b=\"r/tip\"/> <!-- here -->\n", "a body ID");
  expect_refused("  <exclude a=\"r/side\" b=\"r/tip\"/>\n  <include a=\"r/tip\" b=\"r/side\"/> <!-- here -->\n",
                 "already has an <exclude>");
}

TEST(CollisionPolicy, RefusesAnUnknownPolicy) {
  try {
    Loaded s(scene(" self_collision=\"sometimes\""));
    ADD_FAILURE() << "accepted";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("off, filtered or on"), std::string::npos) << e.what();
  }
}

// A zero-radius sphere is a contact point (Drake's convention): a body resting on three of them stands
// with its points on the ground.
TEST(CollisionPolicy, ZeroRadiusSpheresArePointContacts) {
  test::TempDir dir("points");
  const std::string text = R"(<scene name="points">
  <physics dt="0.001" mu="0.8"/>
  <ground/>
  <body name="stool" mass="1">
    <origin xyz="0 0 0.06"/>
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0.1 0 -0.05"/><geometry><sphere radius="0"/></geometry></collision>
    <collision><origin xyz="-0.05 0.08 -0.05"/><geometry><sphere radius="0"/></geometry></collision>
    <collision><origin xyz="-0.05 -0.08 -0.05"/><geometry><sphere radius="0"/></geometry></collision>
  </body>
</scene>
)";
  World world;
  try {
    world = load_scene(dir.write("points.xml", text));
  } catch (const LoadError& e) {
    GTEST_SKIP() << "the scene parser refuses zero radii for scene bodies: " << e.what();
  }
  Stepper stepper(world.model, "stewart_trinkle", 1e-3);
  State state = world.initial;
  for (int k = 0; k < 500; ++k) stepper.step(state);
  // Resting: the points sit at z = 0 (to within the contact stage's penetration), so the frame at 0.05.
  constexpr double kRestTolerance = 1e-3;   // m: the penetration bound of the corpus tests
  EXPECT_NEAR(state.q[2], 0.05, kRestTolerance);
  EXPECT_LT(state.v.norm(), 1e-3);
  EXPECT_EQ(stepper.data().contacts.size(), 3u);
}

}  // namespace
}  // namespace impetus
