// Seed 004's compliant plane in the replays (sim/replay/replay_registry.hpp): a spring–damper ground
// (contact/compliance.hpp) on which LINKS at rest sinks 1 mm, under μ = 0.1 (stewart_trinkle) and μ = ∞
// (no_slip), held by the joint PD so that no controller's model of contact is in the question.
#include <gtest/gtest.h>

#include <string>

#include "sim/replay/replay_registry.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

const std::string kModels = std::string(IMPETUS_SOURCE_DIR) + "/models";
constexpr double kWeight = 4.8 * 9.81;   // N: LINKS's 47.088 N
constexpr double kSink = 0.001;          // m: the paper's sink at rest
/// Standing, the ground carries the weight on average over the window less the momentum the settling
/// leaves (the 1 % for Σ f_N); the mean sink is Σ f_N / (4K), so it has the same bound.
constexpr double kStandRel = 0.01;

TEST(ReplayCompliant, LinksSinksOneMillimetreAtRest) {
  for (const char* terrain : {"compliant", "compliant_noslip"}) {
    SCOPED_TRACE(terrain);
    const test::TempDir dir("replay_compliant");
    ReplayRequest request;
    request.name = "links_stance";
    request.controller = "pid";
    request.terrain = terrain;
    const World world = load_scene(write_replay_scene(request, kModels, dir.path()));
    EXPECT_FALSE(world.model.ground_compliance.rigid());
    EXPECT_EQ(world.model.physics.contact_model, std::string(terrain) == "compliant" ? "stewart_trinkle" : "no_slip");
    Stepper stepper(world.model, world.model.physics.contact_model, 0.001);
    State state = world.initial;
    const int settle = 500, window = 500;
    double impulse = 0, sink = 0;
    for (int k = 0; k < settle + window; ++k) {
      stepper.step(state);
      if (k < settle) continue;
      const StepData& data = stepper.data();
      ASSERT_EQ(data.contacts.size(), 4u) << "step " << k << ": every foot on the ground";
      for (std::size_t i = 0; i < data.contacts.size(); ++i) {
        impulse += data.impulse[i][0];
        sink += -data.contacts[i].phi / 4;
      }
      EXPECT_EQ(data.stats.solver_failures, 0) << "step " << k;
    }
    EXPECT_NEAR(impulse / (window * 0.001), kWeight, kStandRel * kWeight);
    EXPECT_NEAR(sink / window, kSink, kStandRel * kSink);
  }
}

}  // namespace
}  // namespace impetus
