// Scene-level physics: analytic motion of shipped scenes under stewart_trinkle.
#include <gtest/gtest.h>

#include <cmath>

#include "scene_fixture.hpp"

namespace impetus {
namespace {

constexpr double g = 9.81;

TEST(BoxRest, StaysAtRestForTenSecondsCarriedByWeightImpulses) {
  test::SceneRun run("box_rest.xml");
  const Eigen::Vector3d p0 = run.position("box");
  const double m = run.world.model.multibody.links[run.link("box")].inertia.mass;
  // Complementarity holds the box exactly, so it moves and its weight is missed only by round-off (~1e-16
  // relative per step). The bounds sit far above that and far below any real creep: 1 µm in 10 s is a mean
  // drift of 1e-7 m/s, and 1e-6 of the weight impulse m g dt, every step.
  constexpr double kDriftBound = 1e-6, kImpulseRelTol = 1e-6;
  double max_drift = 0, max_impulse_error = 0;
  for (int k = 0; k < run.steps_for(10.0); ++k) {
    run.step();
    max_drift = std::max(max_drift, (run.position("box") - p0).norm());
    if (k > 0)  // the first step settles the initial contact
      max_impulse_error = std::max(max_impulse_error, std::abs(run.total_normal_impulse() / (m * g * run.dt()) - 1));
  }
  EXPECT_LT(max_drift, kDriftBound);
  EXPECT_LT(max_impulse_error, kImpulseRelTol);
}

TEST(BoxSlide, DeceleratesAtMuGAndStopsAtTheAnalyticTimeAndDistance) {
  test::SceneRun run("box_slide.xml");
  const double mu = 0.3, v0 = 1.0, dt = run.dt();
  const double t_stop = v0 / (mu * g), d_stop = v0 * v0 / (2 * mu * g);
  const double x0 = run.position("box").x();
  // While sliding, each step removes exactly μ g dt of speed (the pyramid edge is along the slip).
  constexpr double kSpeedStepTol = 1e-9;
  int stop_step = -1;
  double v_prev = run.velocity("box").x();
  for (int k = 1; k <= run.steps_for(0.6); ++k) {
    run.step();
    const double v = run.velocity("box").x();
    if (stop_step < 0 && v_prev > mu * g * dt) {
      EXPECT_NEAR(v_prev - v, mu * g * dt, kSpeedStepTol) << "step " << k;
    }
    if (stop_step < 0 && std::abs(v) < kSpeedStepTol) stop_step = k;
    v_prev = v;
  }
  ASSERT_GT(stop_step, 0);
  EXPECT_LE(std::abs(stop_step * dt - t_stop), dt);
  // Semi-implicit Euler: x = dt Σₖ (v0 − k μ g dt) = d_stop − v0·dt/2 + O(dt²): within v0·dt of d_stop.
  EXPECT_NEAR(run.position("box").x() - x0, d_stop, v0 * dt);
  EXPECT_LT(std::abs(run.velocity("box").x()), kSpeedStepTol);
}

/// Displacement and velocity of the box along the incline's slope direction (up the slope is +).
struct SlopeMotion {
  double s, v;
};
SlopeMotion along_slope(const test::SceneRun& run) {
  const double theta = M_PI / 6;
  const Eigen::Vector3d up_slope(std::cos(theta), 0, std::sin(theta));
  return {run.position("box").dot(up_slope), run.velocity("box").dot(up_slope)};
}

TEST(Incline, SticksAtMuPointSix) {
  test::SceneRun run("incline_stick.xml");
  const double s0 = along_slope(run).s;
  for (int k = 0; k < run.steps_for(1.0); ++k) run.step();
  // Sticking is exact in the LCP; what remains is round-off of the solve: nanometres.
  constexpr double kStickDriftBound = 1e-6;
  EXPECT_LT(std::abs(along_slope(run).s - s0), kStickDriftBound);
}

TEST(Incline, SlidesAtMuPointFiveWithTheAnalyticAcceleration) {
  test::SceneRun run("incline_slide.xml");
  const double theta = M_PI / 6, mu = 0.5;
  const double a = g * (std::sin(theta) - mu * std::cos(theta));  // down the slope
  for (int k = 0; k < run.steps_for(0.2); ++k) run.step();
  const SlopeMotion m0 = along_slope(run);
  const int n = run.steps_for(0.8);
  for (int k = 0; k < n; ++k) run.step();
  const SlopeMotion m1 = along_slope(run);
  // Along a pyramid edge the discrete deceleration is exact per step: only round-off accumulates.
  constexpr double kAccelRelTol = 1e-6;
  EXPECT_NEAR(-(m1.v - m0.v) / (n * run.dt()), a, kAccelRelTol * a);
}

TEST(Stack, TenBoxesStandForTenSeconds) {
  test::SceneRun run("stack10.xml");
  const Eigen::Vector3d top0 = run.position("box9");
  double max_move = 0;
  for (int k = 0; k < run.steps_for(10.0); ++k) {
    run.step();
    max_move = std::max(max_move, (run.position("box9") - top0).norm());
  }
  // 1 mm over 10 s, a ten-thousandth of the stack's height: a standing stack moves only by settling
  // into its contacts (round-off and the gap term, far below a millimetre); one that slides or
  // topples moves its top box by a good part of its 1 m side.
  constexpr double kTopMoveBound = 1e-3;
  EXPECT_LT(max_move, kTopMoveBound);
  RecordProperty("top_box_max_move_m", std::to_string(max_move));
}

}  // namespace
}  // namespace impetus
