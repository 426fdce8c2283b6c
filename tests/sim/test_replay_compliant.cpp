// Seed 004's compliant plane in the replays (sim/replay/replay_registry.hpp): a spring–damper ground
// (contact/compliance.hpp) on which LINKS at rest sinks 1 mm, under μ = 0.1 (stewart_trinkle) and μ = ∞
// (no_slip), held by the joint PD so that no controller's model of contact is in the question; then the
// predictive inverse-dynamics controllers, which keep their rigid model of contact on it.
#include <gtest/gtest.h>

#include <cmath>
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

// The predictive ID controllers predict rigid contact (sim/control_stage.cpp, Compliance::Rigid) on a
// ground that gives. One call's τ meets its target only with the predicted impulses p̂: with the ground's
// p, the step ends at q̇⁺ = q̇_des + P M⁻¹ Jᵀ (p − p̂) ((ID1)–(ID3) of control/inverse_dynamics/id_problem.hpp).
// The next target q̇ + dt q̈_des = (1 − kd dt) q̇⁺ + dt (kd q̇_ref + kp e) (seed 004 Eqs. 38–39) keeps that
// misprediction with weight 1 − kd dt, and the rigid prediction of the next call answers the joints' motion
// with the impulse that stops the feet within a step: at the replays' kd = 20 1/s LINKS is thrown up and
// falls within 0.1 s under id_lcp_coulomb and id_qp_coulomb. With kd = 1/dt the
// target keeps none of it, and both stand on the rigid prediction.
TEST(ReplayCompliant, PredictiveIdStandsWhenItsTargetKeepsNoMeasuredVelocity) {
  for (const char* controller : {"id_lcp_coulomb", "id_qp_coulomb"}) {
    SCOPED_TRACE(controller);
    const test::TempDir dir("replay_compliant_id");
    ReplayRequest request;
    request.name = "links_stance";
    request.controller = controller;
    request.terrain = "compliant";
    World world = load_scene(write_replay_scene(request, kModels, dir.path()));
    const double dt = world.model.physics.dt;
    world.model.controllers.at(0).settings.kd = 1 / dt;
    Stepper stepper(world.model, world.model.physics.contact_model, dt);
    State state = world.initial;
    const double height = state.q[2];
    /// Standing: the body goes down with the feet by their 1 mm sink (and the legs' sag under the
    /// controller's kp); a fold moves it by centimetres (at kd = 20: thrown 1.2 cm up, then 5 cm below
    /// its start and tilted past 45° at 0.08 s).
    constexpr double kStandHeightTol = 0.002;
    const int settle = 1000, window = 1000;
    double impulse = 0;
    int failures = 0;
    for (int k = 0; k < settle + window; ++k) {
      stepper.step(state);
      if (stepper.data().control.at(0).status == "failed") ++failures;
      ASSERT_NEAR(state.q[2], height, kStandHeightTol) << "step " << k;
      if (k < settle) continue;
      for (const auto& p : stepper.data().impulse) impulse += p[0];
    }
    EXPECT_EQ(failures, 0);
    EXPECT_NEAR(impulse / (window * dt), kWeight, kStandRel * kWeight);
  }
}

}  // namespace
}  // namespace impetus
