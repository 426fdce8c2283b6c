// Scene-level tests of max_dissipation (seed 002): the ramp against its closed form and
// against stewart_trinkle, a small granular pile, the shipped scenes run with this model (no contact
// stage adds energy beyond what gap stabilisation must), and the 8-DoF arm with joint friction
// (sim/joint_friction_stage.hpp), both through a hand-written step loop and through the Stepper.
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/crba.hpp"
#include "dynamics/integration.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/rnea.hpp"
#include "scene_fixture.hpp"
#include "sim/joint_friction_stage.hpp"

namespace impetus {
namespace {

constexpr double g = 9.81;

/// Displacement and velocity of the ramp scenes' box along the slope (up the slope is +).
struct SlopeMotion {
  double s, v;
};
SlopeMotion along_slope(const test::SceneRun& run) {
  const double theta = M_PI / 6;
  const Eigen::Vector3d up_slope(std::cos(theta), 0, std::sin(theta));
  return {run.position("box").dot(up_slope), run.velocity("box").dot(up_slope)};
}

/// The largest kinetic-energy rise a contact stage may cause: gap stabilisation separates a contact
/// that penetrates by d at d/dt, at most ½·m·(d/dt)² for the scene's total mass m (as in
/// test_shipped_scenes.cpp), plus rounding of the energies themselves.
double stabilisation_allowance(const test::SceneRun& run, double penetration) {
  double mass = 0;
  for (const Link& l : run.world.model.multibody.links) mass += l.inertia.mass;
  const double speed = penetration / run.dt();
  constexpr double kEnergyRounding = 1e-12;   // J: energies of O(1) J summed over ~1000 bodies
  return 0.5 * mass * speed * speed + kEnergyRounding;
}

TEST(MaxDissipationRamp, SlidesWithTheCoulombAcceleration) {
  test::SceneRun run("ramp_slide.xml");
  const double theta = M_PI / 6, mu = 0.3;
  const double a = g * (std::sin(theta) - mu * std::cos(theta));   // down the slope
  for (int k = 0; k < run.steps_for(0.2); ++k) run.step();
  const SlopeMotion m0 = along_slope(run);
  const int n = run.steps_for(0.8);
  for (int k = 0; k < n; ++k) {
    run.step();
    EXPECT_EQ(run.stepper.data().stats.solver_failures + run.stepper.data().stats.solver_fallbacks, 0) << "step " << k;
  }
  const SlopeMotion m1 = along_slope(run);
  // Every step removes exactly (g sin θ − μ g cos θ)·dt of speed while sliding; the contact geometry
  // of the box's face (four corner points, gaps of a few nm) perturbs that by far less than 1e-6.
  constexpr double kAccelerationRelTol = 1e-6;
  EXPECT_NEAR((m0.v - m1.v) / (n * run.dt()), a, kAccelerationRelTol * a);
}

TEST(MaxDissipationRamp, SticksWhenTanThetaIsBelowMu) {
  test::SceneRun run("ramp_stick.xml");
  const double s0 = along_slope(run).s;
  for (int k = 0; k < run.steps_for(1.0); ++k) run.step();
  // Sticking is the exact minimum of phase II (v⁺ = 0); what remains is the solver's tolerance,
  // 1e-8 of a velocity scale of g·dt per step: below 1e-9 m over a thousand steps. A micrometre
  // leaves room for the contact geometry.
  constexpr double kStickDriftBound = 1e-6;
  EXPECT_LT(std::abs(along_slope(run).s - s0), kStickDriftBound);
}

TEST(MaxDissipationRamp, AgreesWithStewartTrinkle) {
  // Seed 002 Fig. 2: the box on the ramp, max_dissipation against the LCP of Anitescu–Potra. Along the
  // slope the slip points along an edge of stewart_trinkle's 4-edge pyramid, where pyramid and cone
  // give the same friction, so the trajectories agree to the solvers' tolerances.
  test::SceneRun md("ramp_slide.xml", "max_dissipation");
  test::SceneRun st("ramp_slide.xml", "stewart_trinkle");
  double largest = 0;
  for (int k = 0; k < md.steps_for(1.0); ++k) {
    md.step();
    st.step();
    largest = std::max(largest, (md.velocity("box") - st.velocity("box")).norm());
  }
  // Lemke's certificate is 1e-6 of the velocity scale (≈ 1 m/s here) per step; over 1000 steps the
  // differences stay within its order.
  constexpr double kAgreement = 1e-6;
  EXPECT_LT(largest, kAgreement);
  EXPECT_LT((md.position("box") - st.position("box")).norm(), kAgreement);
}

TEST(MaxDissipationRamp, SticksIffTanThetaIsAtMostMuAndAgreesWithStewartTrinkle) {
  // The friction coefficient swept across tan 30° = 0.5774, two values on each side: from rest the box
  // sticks iff tan θ ≤ μ, else it slides with g(sin θ − μ cos θ) (seed-002 notes §5.3), and
  // stewart_trinkle's LCP gives the same motion at every μ (along the slope the slip lies on an edge of
  // its pyramid). μ = 0.55 slides at only 0.23 m/s², a tenth of ramp_slide's.
  const double theta = M_PI / 6;
  for (const double mu : {0.40, 0.55, 0.60, 0.80}) {
    test::SceneRun md("ramp_slide.xml", "max_dissipation");
    test::SceneRun st("ramp_slide.xml", "stewart_trinkle");
    md.world.model.physics.mu = st.world.model.physics.mu = mu;   // the steppers read the model each step
    ASSERT_TRUE(md.world.model.pair_materials.empty());
    const double s0 = along_slope(md).s;
    const int settle = md.steps_for(0.05), n = md.steps_for(0.25);
    double v_start = 0, largest_difference = 0;
    for (int k = 0; k < settle + n; ++k) {
      md.step();
      st.step();
      if (k + 1 == settle) v_start = along_slope(md).v;
      largest_difference = std::max(largest_difference, (md.velocity("box") - st.velocity("box")).norm());
    }
    const SlopeMotion end = along_slope(md);
    if (std::tan(theta) <= mu) {
      // Sticking: as SticksWhenTanThetaIsBelowMu, the solver's tolerance over 300 steps.
      constexpr double kStickDriftBound = 1e-6;   // m
      EXPECT_LT(std::abs(end.s - s0), kStickDriftBound) << "mu " << mu;
    } else {
      const double a = g * (std::sin(theta) - mu * std::cos(theta));
      constexpr double kAccelerationRelTol = 1e-6;   // as SlidesWithTheCoulombAcceleration
      EXPECT_NEAR((v_start - end.v) / (n * md.dt()), a, kAccelerationRelTol * a) << "mu " << mu;
    }
    // Lemke's certificate, 1e-6 of the velocity scale per step (as AgreesWithStewartTrinkle).
    constexpr double kAgreement = 1e-6;
    EXPECT_LT(largest_difference, kAgreement) << "mu " << mu;
  }
}

TEST(MaxDissipationGranular, SmallPileSettlesWithoutEnergyGainOrDeepPenetration) {
  test::SceneRun run("granular_small.xml");
  double max_kinetic = 0, max_penetration = 0, kinetic = 0;
  int failures = 0, fallbacks = 0;
  for (int k = 0; k < run.steps_for(1.0); ++k) {
    run.step();
    const StepData& d = run.stepper.data();
    ASSERT_TRUE(run.state.q.allFinite() && run.state.v.allFinite()) << "step " << k;
    failures += d.stats.solver_failures;
    fallbacks += d.stats.solver_fallbacks;
    max_penetration = std::max(max_penetration, d.stats.max_penetration);
    EXPECT_LE(d.stats.contact_energy_change, stabilisation_allowance(run, d.stats.max_penetration)) << "step " << k;
    kinetic = 0;
    for (std::size_t t = 0; t < run.world.model.multibody.trees.size(); ++t) {
      const Tree& tree = run.world.model.multibody.trees[t];
      if (tree.nv == 0) continue;
      const auto v = run.state.v.segment(tree.v_offset, tree.nv);
      kinetic += 0.5 * v.dot(d.multibody.M[t] * v);
    }
    max_kinetic = std::max(max_kinetic, kinetic);
  }
  EXPECT_EQ(failures, 0);
  // Phase II is certified on every step: a settled pile is degenerate (redundant contacts, sticking
  // friction), not hard, and falling back to frictionless phase I would let it creep.
  EXPECT_EQ(fallbacks, 0);
  // The fall (≤ 0.35 m) reaches 2.6 m/s, 5 mm per step of 2 ms, well inside the 1 cm margin: contacts
  // are seen before they close, so penetration is what linearising the gap over a step leaves,
  // (v_t·dt)²/r ≲ 0.7 mm for a sphere rolling over another; a millimetre bounds it.
  constexpr double kPenetrationBound = 1e-3;
  EXPECT_LT(max_penetration, kPenetrationBound);
  // Settled: the kinetic energy left after 1 s is a small fraction of the fall's peak.
  constexpr double kSettledFraction = 1e-3;
  EXPECT_LT(kinetic, kSettledFraction * max_kinetic);
}

/// Shipped scenes run with max_dissipation for a short while: no step's contact stage adds kinetic
/// energy beyond the gap-stabilisation allowance.
TEST(MaxDissipationScenes, NoContactStageAddsEnergy) {
  const std::pair<const char*, double> scenes[] = {{"ramp_slide.xml", 1.0}, {"ramp_stick.xml", 1.0},
                                                   {"box_rest.xml", 0.5},   {"box_slide.xml", 0.5},
                                                   {"spheres_drop.xml", 1.0}, {"stack10.xml", 0.3},
                                                   {"incline_stick.xml", 0.5}};
  for (const auto& [file, seconds] : scenes) {
    test::SceneRun run(file, "max_dissipation");
    for (int k = 0; k < run.steps_for(seconds); ++k) {
      run.step();
      const StepStatistics& s = run.stepper.data().stats;
      ASSERT_LE(s.contact_energy_change, stabilisation_allowance(run, s.max_penetration)) << file << " step " << k;
      ASSERT_EQ(s.solver_failures, 0) << file << " step " << k;
    }
  }
}

/// The arm scenes stepped by hand (stages 1, 4 with joint friction, 7; the arm touches nothing), with
/// joint friction either by QP4 (the stage) or by the explicit law τ = −μ_v q̇ − μ_c sgn(q̇) of
/// seed 002 Eq. (6) — the baseline of Figs. 8–9.
struct ArmLoop {
  World world;
  State state;
  StepData data;
  Eigen::VectorXd q_next;

  explicit ArmLoop(const std::string& file)
      : world(load_scene(test::scene_path(file))), state(world.initial), data(world.model) {}

  const MultibodyModel& mb() const { return world.model.multibody; }

  /// The static gravity torques g(q) at the current pose.
  Eigen::VectorXd gravity_torques() {
    forward_kinematics(mb(), data.multibody, state.q, Eigen::VectorXd::Zero(mb().nv));
    return bias_forces(mb(), data.multibody, Eigen::VectorXd::Zero(mb().nv));
  }

  /// ½ v*ᵀ H v* before and after the joint-friction stage in the last QP4 step (J), H = M + dt·D.
  double friction_energy_before = 0, friction_energy_after = 0;

  double h_energy() const {
    double e = 0;
    for (std::size_t t = 0; t < mb().trees.size(); ++t) {
      const Tree& tree = mb().trees[t];
      if (tree.nv == 0) continue;
      const auto v = data.v_star.segment(tree.v_offset, tree.nv);
      e += 0.5 * v.dot(data.M_eff[t] * v);
    }
    return e;
  }

  void step(double dt, bool explicit_law) {
    forward_kinematics(mb(), data.multibody, state.q, state.v);
    crba(mb(), data.multibody);
    const Eigen::VectorXd h = bias_forces(mb(), data.multibody, state.v);
    for (std::size_t t = 0; t < mb().trees.size(); ++t) {
      const Tree& tree = mb().trees[t];
      if (tree.nv == 0) continue;
      Eigen::MatrixXd& M = data.M_eff[t];
      M = data.multibody.M[t];
      Eigen::VectorXd tau = -h.segment(tree.v_offset, tree.nv);
      const auto v = state.v.segment(tree.v_offset, tree.nv);
      for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
        const Joint& j = mb().links[i].joint;
        if (joint_nv(j.type) != 1) continue;
        const int k = j.v_index - tree.v_offset;
        if (explicit_law) {
          tau[k] -= j.damping * v[k] + j.friction * (v[k] > 0 ? 1.0 : v[k] < 0 ? -1.0 : 0.0);
        } else {
          M(k, k) += dt * j.damping;   // as the stepper: damping implicit
        }
      }
      data.M_llt[t].compute(M);
      data.v_star.segment(tree.v_offset, tree.nv) = data.M_llt[t].solve(data.multibody.M[t] * v + dt * tau);
    }
    if (!explicit_law) {
      friction_energy_before = h_energy();
      apply_joint_friction(world.model, dt, data);
      friction_energy_after = h_energy();
    }
    integrate(mb(), state.q, data.v_star, dt, q_next);
    state.q = q_next;
    state.v = data.v_star;
    state.t += dt;
  }
};

int joint_index(const ArmLoop& arm, const std::string& joint) {
  for (const Link& l : arm.mb().links)
    if (l.joint.name == "arm/" + joint || l.joint.name == joint) return l.joint.v_index;
  return -1;
}

TEST(JointFrictionArm, PoseIsHeldByFiveNewtonMetresAndNotByAQuarter) {
  // The preconditions of the two scenes: every static gravity torque below μ_c = 5 N·m, some above 0.25.
  ArmLoop arm("arm_friction_hold.xml");
  const Eigen::VectorXd tau_g = arm.gravity_torques();
  EXPECT_LT(tau_g.cwiseAbs().maxCoeff(), 5.0);
  EXPECT_GT(tau_g.cwiseAbs().maxCoeff(), 0.25);
}

TEST(JointFrictionArm, CoulombFiveHoldsStillAtALargeStepWhereTheExplicitLawChatters) {
  // Seed 002 Fig. 8: μ_c = 5, μ_v = 0, from rest. QP4 at dt = 0.01 s stops every joint exactly.
  ArmLoop qp("arm_friction_hold.xml");
  const Eigen::VectorXd q0 = qp.state.q;
  double qp_speed = 0;
  for (int k = 0; k < 100; ++k) {   // 1 s
    qp.step(0.01, false);
    qp_speed = std::max(qp_speed, qp.state.v.cwiseAbs().maxCoeff());
  }
  // Stopped to the solver's rounding (JF4, 1e-12 relative of speeds ~g·dt).
  constexpr double kStill = 1e-10;
  EXPECT_LT(qp_speed, kStill);
  EXPECT_LT((qp.state.q - q0).cwiseAbs().maxCoeff(), kStill);

  // The explicit law at the same step: sgn(q̇) flips the full 5 N·m each step, so the joints chatter at
  // speeds of dt·(μ_c + |τ_g|)/H_ii — of order 0.1 rad/s for the light distal joints.
  ArmLoop ex("arm_friction_hold.xml");
  double explicit_speed = 0;
  for (int k = 0; k < 100; ++k) {
    ex.step(0.01, true);
    explicit_speed = std::max(explicit_speed, ex.state.v.cwiseAbs().maxCoeff());
  }
  EXPECT_GT(explicit_speed, 1e6 * kStill);

  // The chatter shrinks in proportion to dt: a thousand times smaller steps bring it to the order of
  // what QP4 does at dt = 0.01 s only after 10⁵ steps per simulated second.
  ArmLoop fine("arm_friction_hold.xml");
  double fine_speed = 0;
  for (int k = 0; k < 10000; ++k) {   // 0.1 s at 1e-5 s
    fine.step(1e-5, true);
    fine_speed = std::max(fine_speed, fine.state.v.cwiseAbs().maxCoeff());
  }
  EXPECT_LT(fine_speed, 2e-3 * explicit_speed);
  EXPECT_GT(fine_speed, 1e2 * kStill);   // and still far from QP4's stillness
}

TEST(JointFrictionArm, QuarterNewtonMetreLetsItFallSlowerThanFreely) {
  // Seed 002 Fig. 9: μ_c = 0.25, μ_v = 0.1. The arm falls, slower than with no joint friction; QP4 at
  // dt = 0.01 s follows the explicit law at dt = 1e-4 s (to which that law converges) closely.
  ArmLoop qp("arm_friction_fall.xml");
  ArmLoop fine("arm_friction_fall.xml");
  ArmLoop free("arm_friction_fall.xml");
  for (Link& l : free.world.model.multibody.links) l.joint.friction = l.joint.damping = 0;
  const int elbow = joint_index(qp, "elbow"), shoulder = joint_index(qp, "shoulder_pitch");
  ASSERT_GE(elbow, 0);
  ASSERT_GE(shoulder, 0);
  const double q0 = qp.state.q[shoulder];
  for (int k = 0; k < 50; ++k) {   // 0.5 s
    qp.step(0.01, false);
    free.step(0.01, false);
  }
  for (int k = 0; k < 5000; ++k) fine.step(1e-4, true);
  const double fell = qp.state.q[shoulder] - q0, fell_freely = free.state.q[shoulder] - q0;
  EXPECT_GT(std::abs(fell), 0.05);                         // it moves
  EXPECT_LT(std::abs(fell), 0.9 * std::abs(fell_freely));  // slower than without friction
  // QP4 against the converged explicit law: the first-order splitting of friction and dynamics differs
  // by O(dt) = O(0.01) in relative terms over the fall; 10 % bounds it.
  constexpr double kAgreement = 0.1;
  EXPECT_NEAR(qp.state.q[shoulder], fine.state.q[shoulder], kAgreement * std::abs(fell));
  EXPECT_NEAR(qp.state.q[elbow], fine.state.q[elbow], kAgreement * std::abs(fell) + 1e-3);
}

TEST(JointFrictionArm, NoJointFrictionStageAddsEnergy) {
  // The arm scenes have no contacts; their dissipative stage is joint friction. x = 0 is feasible for
  // QP4, so its minimum has ½v⁺ᵀHv⁺ ≤ ½v*ᵀHv* in the metric H = M + dt·D it minimises, every step.
  for (const char* file : {"arm_friction_hold.xml", "arm_friction_fall.xml"}) {
    ArmLoop arm(file);
    const double dt = arm.world.model.physics.dt;
    double dissipated = 0;
    for (int k = 0; k < static_cast<int>(std::lround(1.0 / dt)); ++k) {
      arm.step(dt, false);
      // Rounding of energies of O(1) J: QP4's solution is exact up to a few ulps of ‖H‖‖v‖².
      constexpr double kEnergyRounding = 1e-12;   // J
      ASSERT_LE(arm.friction_energy_after, arm.friction_energy_before + kEnergyRounding) << file << " step " << k;
      dissipated += arm.friction_energy_before - arm.friction_energy_after;
    }
    EXPECT_GT(dissipated, 0.0) << file;   // and friction did act
  }
}

TEST(JointFrictionArm, StepperAppliesJointFriction) {
  // The Stepper runs the joint-friction stage between dynamics and assembly: the hold scene stays put.
  test::SceneRun run("arm_friction_hold.xml");
  const Eigen::VectorXd q0 = run.state.q;
  for (int k = 0; k < run.steps_for(0.5); ++k) run.step();
  EXPECT_LT((run.state.q - q0).cwiseAbs().maxCoeff(), 1e-9)
      << "is apply_joint_friction(model_, dt_, data_) called in Stepper::step after compute_dynamics?";
}

}  // namespace
}  // namespace impetus
