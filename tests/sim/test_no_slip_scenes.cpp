// Scene-level physics of the seed-000 models: the no_slip and viscous models through the whole pipeline
// (scene loading, collision, assembly, the stepper), on the shipped scenes incline_no_slip,
// box_slide_viscous and grasp_no_slip.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "contact/no_slip/no_slip_model.hpp"
#include "scene_fixture.hpp"
#include "tests/contact/coulomb_invariants.hpp"
#include "sim/simulation.hpp"

namespace impetus {
namespace {

constexpr double g = 9.81;
// |S v⁺|, |T v⁺| < 1e-9 m/s at every contact, N v⁺ ≥ −φ/dt − 1e-9: the projection certifies
// ρ ≤ 1e-9 (ProjectionOptions::certificate_tolerance) at the velocity scales of these scenes (≤ 1 m/s).
constexpr double kVelocityTol = 1e-9;

/// Largest |S v⁺|, |T v⁺| and largest violation of N v⁺ ≥ −φ/dt over the islands of the last step.
struct RowCheck {
  double slip = 0, penetration_rate = 0, friction_power = -INFINITY;
};
RowCheck check_last_step(const Stepper& stepper) {
  RowCheck c;
  const StepData& d = stepper.data();
  for (std::size_t k = 0; k < d.problems.size() && k < d.results.size(); ++k) {
    const ContactProblem& P = d.problems[k];
    const ContactResult& r = d.results[k];
    if (P.nc == 0) continue;
    const Eigen::VectorXd s = P.S * r.v_plus, t = P.T * r.v_plus, w = P.N * r.v_plus + P.phi / P.dt;
    c.slip = std::max({c.slip, s.cwiseAbs().maxCoeff(), t.cwiseAbs().maxCoeff()});
    c.penetration_rate = std::max(c.penetration_rate, -w.minCoeff());
    for (int i = 0; i < P.nc; ++i) c.friction_power = std::max(c.friction_power, r.p_S[i] * s[i] + r.p_T[i] * t[i]);
  }
  return c;
}

/// Position of a free body along the incline's slope (up the slope is +).
double along_slope(const test::SceneRun& run) {
  const double theta = M_PI / 6;
  return run.position("box").dot(Eigen::Vector3d(std::cos(theta), 0, std::sin(theta)));
}

TEST(NoSlipScenes, BoxOnAThirtyDegreeInclineNeverSlides) {
  test::SceneRun run("incline_no_slip.xml");
  ASSERT_EQ(run.stepper.contact_model_name(), "no_slip");
  const double s0 = along_slope(run);
  double max_slip = 0, max_drift = 0;
  for (int k = 0; k < run.steps_for(1.0); ++k) {
    run.step();
    const RowCheck c = check_last_step(run.stepper);
    max_slip = std::max(max_slip, c.slip);
    EXPECT_LE(c.penetration_rate, kVelocityTol) << "step " << k;
    EXPECT_EQ(run.stepper.data().stats.solver_failures, 0);
    max_drift = std::max(max_drift, std::abs(along_slope(run) - s0));
  }
  EXPECT_LT(max_slip, kVelocityTol);
  // No tangential velocity at any contact point: the box can only move by round-off of the solve.
  constexpr double kStickDriftBound = 1e-9;   // m over 1 s: 1000 steps of ≤ 1e-9 m/s·dt, with margin
  EXPECT_LT(max_drift, kStickDriftBound);
  RecordProperty("max_drift_m", std::to_string(max_drift));
}

TEST(NoSlipScenes, TheSameInclineSlidesUnderStewartTrinkleWithItsMu) {
  // The control experiment: μ = 0.3 < tan 30°, so Coulomb friction cannot hold the box; the
  // no-slip result above is the model's doing, not the scene's. Along the slope the box accelerates
  // down at g (sin θ − μ cos θ) = 2.36 m/s²: after 0.5 s it has slid ≈ ½·a·t² ≈ 0.29 m.
  test::SceneRun run("incline_no_slip.xml", "stewart_trinkle");
  const double s0 = along_slope(run);
  for (int k = 0; k < run.steps_for(0.5); ++k) run.step();
  const double a = g * (std::sin(M_PI / 6) - 0.3 * std::cos(M_PI / 6));
  constexpr double kSlideRelTol = 0.02;   // semi-implicit Euler over 500 steps: O(dt/t) = 0.2 %, and the first contact step
  EXPECT_NEAR(s0 - along_slope(run), 0.5 * a * 0.25, kSlideRelTol * 0.5 * a * 0.25);
}

TEST(ViscousScenes, SlidingBoxDecaysAsExpOfMinusMuVTOverM) {
  test::SceneRun run("box_slide_viscous.xml");
  ASSERT_EQ(run.stepper.contact_model_name(), "viscous");
  const double m = 1, mu_v = 2, v0 = run.velocity("box").x(), dt = run.dt(), a = mu_v / m;
  ASSERT_NEAR(v0, 1.0, 1e-12);
  // (V4) of contact/viscous/viscous_model.hpp: exact ≤ v_k ≤ exact·exp(a²·dt·t/2). The normal
  // contact adds nothing along x for a box sliding flat; kPipelineSlack covers the round-off of the
  // pipeline (collision points, Jacobians) relative to v.
  constexpr double kPipelineSlack = 1e-9;
  double max_power = -INFINITY;
  for (int k = 1; k <= run.steps_for(1.0); ++k) {
    run.step();
    const double t = k * dt, exact = v0 * std::exp(-a * t), v = run.velocity("box").x();
    EXPECT_GE(v, exact * (1 - kPipelineSlack)) << "step " << k;
    EXPECT_LE(v, exact * std::exp(a * a * dt * t / 2) * (1 + kPipelineSlack)) << "step " << k;
    max_power = std::max(max_power, check_last_step(run.stepper).friction_power);
    EXPECT_EQ(run.stepper.data().stats.solver_failures, 0);
  }
  EXPECT_LE(max_power, 0.0);   // friction never does positive work
  RecordProperty("v_at_1s", std::to_string(run.velocity("box").x()));
}

/// The grasp scene: its <actuator> elements squeeze the boxes with 100 N per finger.
World grasp_world() {
  World world = load_scene(test::scene_path("grasp_no_slip.xml"));
  return world;
}

struct GraspRun {
  double max_drift = 0;   // m, the boxes relative to the left finger
  int failures = 0, fallbacks = 0, max_contacts = 0, steps = 0;
};

GraspRun run_grasp(const std::string& model, int steps) {
  const World world = grasp_world();
  Stepper stepper(world.model, model, world.model.physics.dt);
  State state = world.initial;
  const MultibodyModel& mb = world.model.multibody;
  auto box = [&](const char* body) { return Eigen::Vector3d(state.q.segment<3>(mb.links[mb.find_link(body)].joint.q_index)); };
  // The left finger's centre: its joint displacement along x from −0.15 m (grasp_gripper.urdf).
  const int finger_q = mb.links[mb.find_link("gripper/finger_left")].joint.q_index;
  auto finger = [&] { return Eigen::Vector3d(state.q[finger_q], 0, 0); };
  const Eigen::Vector3d r1 = box("box1") - finger(), r2 = box("box2") - finger();
  GraspRun out;
  for (int k = 0; k < steps; ++k) {
    stepper.step(state);
    if (!state.q.allFinite()) break;
    out.steps = k + 1;
    out.failures += stepper.data().stats.solver_failures;
    out.fallbacks += stepper.data().stats.solver_fallbacks;
    out.max_contacts = std::max(out.max_contacts, stepper.data().stats.contacts);
    out.max_drift = std::max({out.max_drift, (box("box1") - finger() - r1).norm(), (box("box2") - finger() - r2).norm()});
  }
  return out;
}

TEST(NoSlipScenes, GraspHoldsTheBoxesForAThousandSteps) {
  const GraspRun r = run_grasp("no_slip", 1000);
  EXPECT_EQ(r.steps, 1000);
  // 1% of a box's side: no-slip rows leave no tangential velocity, so the boxes move only by their
  // contacts' gaps; a lost grasp drops them by g t²/2, metres over the run.
  constexpr double kGraspDriftBound = 1e-3;   // m
  EXPECT_LT(r.max_drift, kGraspDriftBound);
  EXPECT_EQ(r.failures, 0);
  EXPECT_GT(r.max_contacts, 0);
  RecordProperty("no_slip_max_drift_m", std::to_string(r.max_drift));
  RecordProperty("contacts", r.max_contacts);
}

TEST(NoSlipScenes, GraspUnderStewartTrinkleMeetsCoulombsConditions) {
  // Whether Stewart–Trinkle keeps this grasp (the paper's lost it in ~10 steps) hangs on rounding at
  // the fingers' coincident corners; `impetus run scenes/grasp_no_slip.xml --model stewart_trinkle`
  // reports it (summary.json). What every step must satisfy, through the whole pipeline, is the LCP's
  // physics (tests/contact/coulomb_invariants.hpp). 200 steps keep the suite fast.
  constexpr int kSteps = 200;
  // ρ ≤ 1e-6 (StewartTrinkleOptions::tolerance) in the LCP's own scaling, which differs from (p, v⁺)
  // by the O(1) factors of the pyramid and of merged contacts (ST9); a factor 10 covers them.
  constexpr double kCoulombTolerance = 1e-5;
  const World world = grasp_world();
  Stepper stepper(world.model, "stewart_trinkle", world.model.physics.dt);
  State state = world.initial;
  int contacts = 0;
  for (int k = 0; k < kSteps; ++k) {
    stepper.step(state);
    ASSERT_TRUE(state.q.allFinite() && state.v.allFinite()) << "step " << k;
    const StepData& d = stepper.data();
    ASSERT_EQ(d.stats.solver_failures, 0) << "step " << k;
    contacts = std::max(contacts, d.stats.contacts);
    for (std::size_t i = 0; i < d.problems.size() && i < d.results.size(); ++i) {
      const test::CoulombViolations c = test::coulomb_violations(d.problems[i], d.results[i]);
      EXPECT_LE(c.largest(), kCoulombTolerance)
          << "step " << k << ", island " << i << ": p_N < 0 by " << c.negative_impulse << ", penetration "
          << c.penetration << ", complementarity " << c.complementarity << ", outside the cone "
          << c.outside_cone << ", friction power " << c.friction_power;
    }
  }
  EXPECT_GT(contacts, 0);   // the fingers and the boxes touch
}

TEST(NoSlipScenes, ShippedScenesRunCleanThroughRunSimulation) {
  for (const char* file : {"incline_no_slip.xml", "box_slide_viscous.xml", "grasp_no_slip.xml"}) {
    const World world = load_scene(test::scene_path(file));
    RunOptions options;
    options.duration = 0.5;
    options.out_dir = (std::filesystem::temp_directory_path() / ("impetus-noslip-" + std::to_string(::getpid())) / file).string();
    const RunReport report = run_simulation(world, options);
    EXPECT_EQ(report.status, "ok") << file;
    EXPECT_EQ(report.totals.solver_failures, 0) << file;
    // No-slip and viscous contact are M-projections: the contact stage never adds kinetic energy
    // beyond what gap stabilisation returns, ½·m·(d/dt)² for a penetration d.
    double m_total = 0;
    for (const Link& l : world.model.multibody.links) m_total += l.inertia.mass;
    const double d_over_dt = report.totals.max_penetration / report.dt;
    EXPECT_LE(report.totals.contact_max_gain, 0.5 * m_total * d_over_dt * d_over_dt + 1e-12) << file;
    std::filesystem::remove_all(options.out_dir);
  }
}

}  // namespace
}  // namespace impetus
