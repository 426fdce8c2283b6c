// Seed 004's table metrics over a run (sim/replay/replay_metrics.hpp), on a short LINKS stance under the
// LCP inverse-dynamics controller and its twin model: what the metrics must be follows from the physics
// of standing still.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/replay/replay_registry.hpp"
#include "sim/replay/replay_metrics.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

const std::string kModels = std::string(IMPETUS_SOURCE_DIR) + "/models";
constexpr double kWeight = 4.8 * 9.81;   // N: LINKS's 47.088 N
constexpr double kDt = 0.001;

/// The links_stance replay's scene (every foot on the ground at the start) under id_lcp_coulomb.
ReplayMetrics run_stance(int steps, const std::string& json_path = "") {
  const test::TempDir dir("replay_stance");
  ReplayRequest request;
  request.name = "links_stance";
  request.controller = "id_lcp_coulomb";
  request.terrain = "flat_sticky";
  const World world = load_scene(write_replay_scene(request, kModels, dir.path()));
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  State state = world.initial;
  ReplayMetricsAccumulator metrics(world.model, 0);
  for (int k = 0; k < steps; ++k) {
    stepper.step(state);
    metrics.observe(state, stepper.data(), kDt);
  }
  if (!json_path.empty()) write_replay_metrics(json_path, "id_lcp_coulomb", metrics.result());
  return metrics.result();
}

TEST(ReplayMetrics, LinksStanceUnderLcpCoulomb) {
  const ReplayMetrics m = run_stance(400);
  EXPECT_EQ(m.steps, 400);
  // Every foot starts on the ground and stays there.
  EXPECT_EQ(m.contact_steps, 400);
  // Standing still, the ground carries the weight on average (the settling's momentum change is a small
  // part of 0.4 s of weight), and the controller's twin prediction matches the simulator's (Table 5's
  // "about 1 %" when the models match; here they are the same model on the same rows).
  constexpr double kForce = 0.01;
  EXPECT_NEAR(m.normal_force_simulated, kWeight, 0.02 * kWeight);
  EXPECT_LT(m.normal_force_rel_error, kForce);
  EXPECT_NEAR(m.normal_force_abs_error / m.normal_force_simulated, m.normal_force_rel_error, kForce);
  // Holding a pose: the joints stay within mrad of it.
  constexpr double kHold = 0.01;   // rad, rad/s
  EXPECT_LT(m.position_error, kHold);
  EXPECT_LT(m.velocity_error, 10 * kHold);
  // Torques carry the weight: the knees hold ~12 N at ~0.04 m, so mean |τ| is of order 0.1–1 N·m, and
  // they are smooth once settled: mean |Δτ| far below mean |τ|.
  EXPECT_GT(m.mean_abs_tau, 0.05);
  EXPECT_LT(m.mean_abs_tau, 2.6);
  EXPECT_LT(m.mean_abs_dtau, 0.1 * m.mean_abs_tau);
  EXPECT_GE(m.max_abs_dtau_dt, m.mean_abs_dtau / kDt);
}

TEST(ReplayMetrics, SameRunSameMetricsJson) {
  const test::TempDir dir("replay_metrics");
  const std::string a = dir.path() + "/a.json", b = dir.path() + "/b.json";
  run_stance(100, a);
  run_stance(100, b);
  std::ifstream fa(a), fb(b);
  const std::string ta((std::istreambuf_iterator<char>(fa)), {}), tb((std::istreambuf_iterator<char>(fb)), {});
  EXPECT_EQ(ta, tb);
  const nlohmann::json j = nlohmann::json::parse(ta);
  EXPECT_EQ(j["metrics_version"], 1);
  EXPECT_EQ(j["steps"], 100);
  EXPECT_TRUE(j["table5"].contains("normal_force_rel_error"));
}

}  // namespace
}  // namespace impetus
