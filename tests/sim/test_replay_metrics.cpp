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
ReplayMetrics run_stance(int steps, const std::string& json_path = "", std::vector<ReplaySample>* series = nullptr) {
  const test::TempDir dir("replay_stance");
  ReplayRequest request;
  request.name = "links_stance";
  request.controller = "id_lcp_coulomb";
  request.terrain = "flat";   // stewart_trinkle, id_lcp_coulomb's twin
  const World world = load_scene(write_replay_scene(request, kModels, dir.path()));
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  State state = world.initial;
  ReplayMetricsAccumulator metrics(world.model, 0);
  for (int k = 0; k < steps; ++k) {
    stepper.step(state);
    metrics.observe(state, stepper.data(), kDt);
  }
  if (!json_path.empty()) write_replay_metrics(json_path, "id_lcp_coulomb", metrics.result());
  if (series) *series = metrics.series();
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

TEST(ReplayMetrics, TrotPathIncludesThePatrolsWayBackToTheStart) {
  // links_trot patrols its waypoints: after (−0.25, 0) it walks back to (0, 0) (from ~21 s of the 30 s). LINKS
  // standing at (−0.125, 0), on that last leg, is 0 m from the path; without it the nearest segment,
  // (0, −0.25) → (−0.25, 0), is 8.8 cm away. The CoM sits within a few mm of the base origin's xy (the legs'
  // masses are symmetric in y and nearly in x): 1 cm separates the two.
  const test::TempDir dir("replay_path");
  ReplayRequest request;
  request.name = "links_trot";
  request.controller = "pid";
  request.terrain = "flat_noslip";
  request.duration = 0.01;
  const World world = load_scene(write_replay_scene(request, kModels, dir.path()));
  State state = world.initial;
  state.q[world.model.multibody.links[0].joint.q_index] -= 0.125;
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  ReplayMetricsAccumulator metrics(world.model, 0, {}, replay_watch("links_trot", world.model));
  metrics.start(state);
  stepper.step(state);
  metrics.observe(state, stepper.data(), kDt);
  constexpr double kOnPath = 0.01;   // m
  EXPECT_LT(metrics.result().path_max_distance, kOnPath);
}

TEST(ReplayMetrics, NoSlipTerrainLocksTheFeet) {
  // flat_noslip is μ = ∞ as the no_slip model's equality constraints: every foot contact leaves the step
  // with zero tangential velocity (S v⁺ = T v⁺ = 0), whatever tangential impulse that takes, and the feet
  // carry the weight. The joint PD (no prediction) keeps the controller out of the question.
  const test::TempDir dir("replay_noslip");
  ReplayRequest request;
  request.name = "links_stance";
  request.controller = "pid";
  request.terrain = "flat_noslip";
  const World world = load_scene(write_replay_scene(request, kModels, dir.path()));
  ASSERT_EQ(world.model.physics.contact_model, "no_slip");
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  State state = world.initial;
  // The no_slip certificate holds every row to 1e-9 (certificate_tolerance) relative to the problem's
  // scale; 1e-9 m/s is that order for velocities of order 1 m/s and below.
  constexpr double kStuck = 1e-9;
  constexpr int kSteps = 300;
  double weight_impulse = 0;
  for (int k = 0; k < kSteps; ++k) {
    stepper.step(state);
    const StepData& data = stepper.data();
    ASSERT_EQ(data.problems.size(), 1u) << "step " << k;
    const ContactProblem& P = data.problems[0];
    const ContactResult& r = data.results[0];
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << "step " << k;
    ASSERT_EQ(P.N.rows(), 4) << "step " << k << ": every foot on the ground";
    EXPECT_LT((P.S * r.v_plus).cwiseAbs().maxCoeff(), kStuck) << "step " << k;
    EXPECT_LT((P.T * r.v_plus).cwiseAbs().maxCoeff(), kStuck) << "step " << k;
    weight_impulse += r.p_N.sum();
  }
  // Over 0.3 s the ground's impulse is the weight's, less the settling's small momentum change.
  EXPECT_NEAR(weight_impulse / (kSteps * kDt), kWeight, 0.02 * kWeight);
}

TEST(ReplayMetrics, NoSlipTerrainRefusesAnotherModel) {
  const test::TempDir dir("replay_noslip_model");
  ReplayRequest request;
  request.name = "links_stance";
  request.terrain = "flat_noslip";
  request.contact_model = "stewart_trinkle";
  EXPECT_THROW(write_replay_scene(request, kModels, dir.path()), std::invalid_argument);
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
  EXPECT_EQ(j["metrics_version"], 2);
  EXPECT_EQ(j["steps"], 100);
  EXPECT_TRUE(j["table5"].contains("normal_force_rel_error"));
}

TEST(ReplayMetrics, SeriesWindowsPartitionTheRunAndAgreeWithTheTables) {
  // 105 steps of 1 ms: ten whole windows of 10 ms (the last 5 steps open a window that is not written).
  std::vector<ReplaySample> series;
  const ReplayMetrics m = run_stance(105, "", &series);
  const long per_window = std::lround(kSeriesWindow / kDt);
  ASSERT_EQ(static_cast<long>(series.size()), m.steps / per_window);
  double largest_rate = 0;
  for (size_t i = 0; i < series.size(); ++i) {
    EXPECT_NEAR(series[i].t, (i + 1) * kSeriesWindow, 1e-12);
    // A stance has a controller and contact in every window, and no base or held body watched here.
    EXPECT_TRUE(std::isfinite(series[i].position_error) && std::isfinite(series[i].normal_force_simulated));
    EXPECT_TRUE(std::isnan(series[i].com_x) && std::isnan(series[i].slip));
    largest_rate = std::max(largest_rate, series[i].max_abs_dtau_dt);
  }
  // Table 4's max |dτ/dt| is over every step; the windows before the unwritten one hold all but 5 of them, so
  // the series' largest rate is at most the table's, and equal unless the table's came in the last 5 steps.
  EXPECT_LE(largest_rate, m.max_abs_dtau_dt);
  std::vector<ReplaySample> whole;
  const ReplayMetrics w = run_stance(100, "", &whole);
  double whole_rate = 0;
  for (const ReplaySample& s : whole) whole_rate = std::max(whole_rate, s.max_abs_dtau_dt);
  EXPECT_EQ(whole_rate, w.max_abs_dtau_dt);
}

}  // namespace
}  // namespace impetus
