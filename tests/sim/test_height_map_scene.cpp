// <ground><height_map>: seed 004's rough terrain as a scene's ground. Each contact's μ in the contact
// problem is its cell's; a <contact> naming the pair overrides it; a sphere dropped on it comes to rest on
// the sheet; bad attributes are refused with file and line.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

const std::string kSceneFile = std::string(IMPETUS_SOURCE_DIR) + "/scenes/height_map_test.xml";   // never written

std::string scene(const std::string& extra) {
  return R"(<scene name="hm"><physics dt="0.001" contact_model="stewart_trinkle" mu="0.5"/>
  <ground mu="0.5"><height_map hills="200" seed="7"/></ground>
  <body name="ball" mass="1"><origin xyz="0.123 -0.211 0.05"/><collision><geometry><sphere radius="0.02"/></geometry></collision></body>
  <body name="crate" mass="2"><origin xyz="-0.4 0.3 0.06"/><collision><geometry><box size="0.1 0.08 0.04"/></geometry></collision></body>
  )" + extra + "</scene>";
}

TEST(HeightMapScene, EveryGroundContactCarriesItsCellsMuIntoTheProblem) {
  const World world = load_scene_string(scene(""), kSceneFile);
  ASSERT_TRUE(world.model.terrain);
  Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  State state = world.initial;
  int checked = 0;
  for (int k = 0; k < 300; ++k) {
    stepper.step(state);
    const StepData& data = stepper.data();
    for (std::size_t i = 0; i < data.islands.size(); ++i)
      for (std::size_t r = 0; r < data.islands[i].contacts.size(); ++r) {
        const ContactPoint& c = data.contacts[data.islands[i].contacts[r]];
        ASSERT_EQ(c.link_b, kGround);
        EXPECT_EQ(data.problems[i].mu[r], c.mu);
        // The cell holding the contact's sheet point p − (φ/2)n; on a cell's edge (a ridge, a peak), either
        // cell there: the point computed back from p_W may fall on either side by rounding.
        const Eigen::Vector3d sheet = c.p_W - 0.5 * c.phi * c.n_W;
        constexpr double kEdge = 1e-12;   // m: far above the rounding of p_W, far below a cell
        bool one_of = false;
        for (double dx : {-kEdge, kEdge})
          for (double dy : {-kEdge, kEdge}) {
            const Eigen::Vector2i cell = world.model.terrain->cell_of(sheet.x() + dx, sheet.y() + dy);
            one_of |= c.mu == world.model.terrain->cell_mu(cell.x(), cell.y());
          }
        EXPECT_TRUE(one_of) << "μ " << c.mu << " at " << sheet.transpose();
        ++checked;
      }
  }
  EXPECT_GT(checked, 100) << "both bodies land";
}

TEST(HeightMapScene, APairsContactOverridesTheCells) {
  const World world = load_scene_string(scene(R"(<contact a="ball" b="ground" mu="0.7"/>)"), kSceneFile);
  Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  State state = world.initial;
  int ball = 0;
  const int ball_link = world.model.multibody.find_link("ball");
  for (int k = 0; k < 300; ++k) {
    stepper.step(state);
    const StepData& data = stepper.data();
    for (std::size_t i = 0; i < data.islands.size(); ++i)
      for (std::size_t r = 0; r < data.islands[i].contacts.size(); ++r)
        if (data.contacts[data.islands[i].contacts[r]].link_a == ball_link) {
          EXPECT_EQ(data.problems[i].mu[r], 0.7);
          ++ball;
        }
  }
  EXPECT_GT(ball, 50);
}

TEST(HeightMapScene, ADroppedBoxComesToRestOnTheSheetCarryingItsWeight) {
  // μ = 1.5 everywhere: more than the steepest slope of these hills (3 cm over a hill's ~7 cm width), so
  // the crate must stick where it lands. At rest, the sheet carries its weight: the contact impulses'
  // resultant Σ (p_N n + p_S t₁ + p_T t₂) is m g dt straight up. On a hill the normals tilt and friction
  // carries part of the weight (four corners on a curved sheet also squeeze the crate between them), so
  // Σ p_N alone is not m g dt.
  const World world = load_scene_string(R"(<scene name="hm"><physics dt="0.001" contact_model="stewart_trinkle"/>
  <ground><height_map hills="200" seed="7" mu_min="1.5" mu_max="1.5"/></ground>
  <body name="crate" mass="2"><origin xyz="-0.4 0.3 0.04" rpy="0.1 0 0.3"/><collision><geometry><box size="0.1 0.08 0.04"/></geometry></collision></body>
</scene>)", kSceneFile);
  Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  State state = world.initial;
  for (int k = 0; k < 1500; ++k) stepper.step(state);
  const MultibodyModel& mb = world.model.multibody;
  const Link& crate = mb.links[mb.find_link("crate")];
  constexpr double kRest = 1e-3;   // m/s: at rest
  EXPECT_LT(state.v.segment<3>(crate.joint.v_index).norm(), kRest);
  const StepData& data = stepper.data();
  ASSERT_EQ(data.impulse.size(), data.contacts.size());
  Eigen::Vector3d resultant = Eigen::Vector3d::Zero();
  double deepest = INFINITY;
  for (std::size_t i = 0; i < data.contacts.size(); ++i) {
    const ContactPoint& c = data.contacts[i];
    resultant += data.impulse[i][0] * c.n_W + data.impulse[i][1] * data.t1[i] + data.impulse[i][2] * data.t2[i];
    deepest = std::min(deepest, c.phi);
  }
  constexpr double kWeight = 0.01;   // the static-force bound of the issue
  const Eigen::Vector3d force = resultant / 0.001;
  EXPECT_NEAR(force.z(), 2 * 9.81, kWeight * 2 * 9.81);
  EXPECT_LT(force.head<2>().norm(), kWeight * 2 * 9.81);
  constexpr double kPenetration = 1e-3;   // m: what the −φ/Δt stabilisation leaves at rest is far less
  EXPECT_GT(deepest, -kPenetration);
  EXPECT_LT(deepest, kPenetration) << "touching";
}

TEST(HeightMapScene, BadAttributesAreRefusedWithFileAndLine) {
  for (const std::string bad : {R"(<height_map cell="0.07"/>)", R"(<height_map mu_min="2"/>)",
                                R"(<height_map seed="1.5"/>)", R"(<height_map colour="red"/>)"}) {
    const std::string text = R"(<scene name="hm"><physics dt="0.001"/>
<ground>)" + bad + "</ground></scene>";
    try {
      load_scene_string(text, kSceneFile);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const LoadError& e) {
      EXPECT_NE(std::string(e.what()).find("height_map_test.xml:2"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace impetus
