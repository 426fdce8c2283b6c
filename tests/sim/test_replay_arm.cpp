// Seed 004's manipulator replay (sim/replay/replay_registry.hpp, arm7_grasp): the box placed in the hand
// by forward kinematics touches all four fingertips, and at μ = ∞ (no_slip) the hand carries it through
// the 3 s of q_des = π/2 − 0.1(1 − cos 10t) without slip: what holding a box must mean physically.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "contact/no_slip/no_slip_model.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/replay/replay_metrics.hpp"
#include "sim/replay/replay_registry.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

const std::string kModels = std::string(IMPETUS_SOURCE_DIR) + "/models";
constexpr double kDt = 0.001;
constexpr double kBoxMass = 0.3651169;   // kg: box.urdf, 6000 kg/m³ × its volume
constexpr double kGravity = 9.81;

World arm_world(const test::TempDir& dir, const std::string& controller, const std::string& terrain) {
  ReplayRequest request;
  request.name = "arm7_grasp";
  request.controller = controller;
  request.terrain = terrain;
  return load_scene(write_replay_scene(request, kModels, dir.path()));
}

TEST(ReplayArm, BoxStartsBetweenTheFourFingertips) {
  // The box's height is the fingertips' gap at π/4 and its centre is where forward kinematics puts the
  // middle of the grip: each tip touches it, to the rounding of the pose.
  const test::TempDir dir("replay_arm_start");
  const World world = arm_world(dir, "pid", "box_noslip");
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  State state = world.initial;
  stepper.step(state);
  const int box = world.model.multibody.find_link("box/BOX");
  int touching = 0;
  constexpr double kTouch = 1e-9;   // m: rounding of the pose through seven joints and the box's rpy
  for (const ContactPoint& c : stepper.data().contacts)
    if (c.link_a == box || c.link_b == box) {
      EXPECT_LT(std::abs(c.phi), kTouch);
      ++touching;
    }
  EXPECT_EQ(touching, 4);
}

// μ = ∞ under `controller`: every fingertip contact leaves each step with zero tangential velocity, the box
// stays where it sits in the hand, and the contacts' vertical impulse is the box's weight plus its change
// of vertical momentum (its velocity after the last step is its last displacement over dt: q⁺ = q + dt·v⁺).
// forward_fallback: the forward no_slip solve may be a certified fallback (Lemke after principal pivoting
// cycles); its rows are held to kStuck all the same. dropped_rows_held: also the rows FIND-INDICES dropped as
// dependent on the kept ones (no_slip_model.hpp step 1), which hold only through that dependence.
void expect_hand_holds_the_box_three_seconds(const std::string& controller, bool forward_fallback,
                                             bool dropped_rows_held) {
  const test::TempDir dir("replay_arm_noslip_" + controller);
  const World world = arm_world(dir, controller, "box_noslip");
  ASSERT_EQ(world.model.physics.contact_model, "no_slip");
  Stepper stepper(world.model, world.model.physics.contact_model, kDt);
  State state = world.initial;
  ReplayMetricsAccumulator metrics(world.model, 0, replay_watch("arm7_grasp").tracked_joints,
                                   replay_watch("arm7_grasp", world.model));
  metrics.start(state);
  const int box = world.model.multibody.find_link("box/BOX");
  // The no_slip certificate holds each row to 1e-9 (certificate_tolerance) on velocities of order 1 m/s.
  constexpr double kStuck = 1e-9;
  constexpr int kSteps = 3000;
  double impulse_z = 0, z_before = 0;
  MultibodyData kin(world.model.multibody);
  for (int k = 0; k < kSteps; ++k) {
    forward_kinematics(world.model.multibody, kin, state.q, state.v);
    z_before = kin.X_WL[box].translation().z();
    stepper.step(state);
    metrics.observe(state, stepper.data(), kDt);
    const StepData& data = stepper.data();
    for (size_t i = 0; i < data.problems.size(); ++i) {
      if (forward_fallback)
        ASSERT_NE(data.results[i].stats.status, SolveStatus::Failed) << "step " << k << ": " << data.results[i].stats.message;
      else
        ASSERT_EQ(data.results[i].stats.status, SolveStatus::Solved) << "step " << k << ": " << data.results[i].stats.message;
      if (data.problems[i].N.rows() == 0) continue;
      const Eigen::VectorXd slip_S = data.problems[i].S * data.results[i].v_plus;
      const Eigen::VectorXd slip_T = data.problems[i].T * data.results[i].v_plus;
      const FindIndicesResult& kept = data.results[i].report_as<NoSlipReport>().indices;
      for (int c = 0; c < slip_S.size(); ++c) {
        if (dropped_rows_held || kept.s_position[c] >= 0) {
          EXPECT_LT(std::abs(slip_S[c]), kStuck) << "step " << k;
        }
        if (dropped_rows_held || kept.t_position[c] >= 0) {
          EXPECT_LT(std::abs(slip_T[c]), kStuck) << "step " << k;
        }
      }
    }
    for (size_t c = 0; c < data.contacts.size(); ++c) {
      const ContactPoint& p = data.contacts[c];
      const Eigen::Vector3d J = data.impulse[c][0] * p.n_W + data.impulse[c][1] * data.t1[c] + data.impulse[c][2] * data.t2[c];
      if (p.link_a == box) impulse_z += J.z();
      if (p.link_b == box) impulse_z -= J.z();
    }
  }
  forward_kinematics(world.model.multibody, kin, state.q, state.v);
  const double v_z = (kin.X_WL[box].translation().z() - z_before) / kDt;
  const double T = kSteps * kDt;
  // 1 % of the weight: far above the rounding of 3000 impulses and the position-level recovery's μm moves
  // (1 µm over 1 ms is 1 mm/s, 1e-4 of the weight over 3 s); a box that slipped would miss it by its fall.
  constexpr double kBalance = 0.01;
  EXPECT_NEAR(impulse_z / T, kBoxMass * kGravity + kBoxMass * v_z / T, kBalance * kBoxMass * kGravity);
  const ReplayMetrics m = metrics.result();
  EXPECT_FALSE(m.drop_time.has_value());
  // Held: the box's centre moves less than a few mm in the hand (the fingers' PD gives under the load:
  // 2 N·m limits, kp 20 N·m/rad — a tip 5 cm out yields ~mm); dropping it would move it 2 cm and more.
  constexpr double kHeld = 0.005;   // m
  EXPECT_LT(m.max_slip, kHeld);
  EXPECT_EQ(m.steps, kSteps);
}

TEST(ReplayArm, NoSlipHandHoldsTheBoxThreeSeconds) {
  // Whether principal pivoting cycles on a given step of the hold (and Lemke answers, status Fallback, counted)
  // hangs on rounding: on the Intel Xeon build (-march=cooperlake) it does at step 2701, on the AMD EPYC one (znver3)
  // it does not. A certified fallback holds every row to kStuck all the same, so only Failed is excluded.
  expect_hand_holds_the_box_three_seconds("pid", true, true);
}

TEST(ReplayArm, NoSlipHandHoldsTheBoxThreeSecondsUnderIdQpNoSlip) {
  // Issue 14's test: QP,∞ holds the box where the fingers' feedback would squeeze it (controller.cpp: the
  // target its contacts allow, sticking_target.hpp, not the squeezing one). The forward no_slip solve may
  // be a certified Fallback (principal pivoting cycling, Lemke answering), so only Failed is excluded.
  // Rows FIND-INDICES dropped are held too: one that slipped beyond the certificate (step 574, contact 1's
  // T row at 1.95e-9 m/s, sin²θ ~ 1e-11 to the rows kept) joins G by (NS6, no_slip_model.cpp).
  expect_hand_holds_the_box_three_seconds("id_qp_noslip", true, true);
}

}  // namespace
}  // namespace impetus
