// The certificate (R4) of sim/penetration_recovery.hpp: the penetration recovery skips its collision pass at
// q⁺ only when no contact can penetrate there, and resting scenes skip it.
#include <gtest/gtest.h>

#include <cstring>

#include "collision/collision_detector.hpp"
#include "dynamics/kinematics.hpp"
#include "scene_fixture.hpp"
#include "sim/collision_filter.hpp"
#include "sim/penetration_recovery.hpp"

namespace impetus {
namespace {

/// The deepest penetration at configuration q, by a collision pass of the scene's own detector set-up.
double deepest_penetration(const WorldModel& model, CollisionDetector& detector, const Eigen::VectorXd& q) {
  MultibodyData kin(model.multibody);
  forward_kinematics(model.multibody, kin, q, Eigen::VectorXd::Zero(model.multibody.nv));
  ContactSet contacts;
  detector.detect(kin.X_WL, contacts);
  double depth = 0;
  for (const ContactPoint& c : contacts) depth = std::max(depth, -c.phi);
  return depth;
}

// Sound: after every step whose pass (R4) skipped, a collision pass at the end-of-step state finds no
// penetration beyond the recovery's slop. Boxes and spheres landing from up to 10 m (fast_drop_small.xml),
// through their landing and settling; both branches must be taken for the check to mean anything.
TEST(RecoveryCertificate, NoStepItExcusesEndsInPenetration) {
  test::SceneRun run("fast_drop_small.xml", "stewart_trinkle");
  CollisionDetector detector(run.world.model.geometries, collision_filter(run.world.model));
  int certified = 0, passed = 0;
  for (int k = 0; k < run.steps_for(2.0); ++k) {
    run.step();
    if (run.stepper.data().stats.recovery_passes > 0) {
      ++passed;
      continue;
    }
    ++certified;
    ASSERT_LE(deepest_penetration(run.world.model, detector, run.state.q), kRecoverySlop) << "step " << k;
  }
  EXPECT_GT(certified, 0);
  EXPECT_GT(passed, 0) << "the landings must take the pass";
}

// Cheap: bodies at rest certify (R4) in every step, so they pay no collision pass at q⁺. Over the first
// 0.5 s the stack's contacts stay within 1e-14 m of touching and its speeds are round-off; later the
// contact solves' residuals let it sink towards kRecoverySlop (8.9e-10 m at 10 s), where a pass is due.
TEST(RecoveryCertificate, RestingScenesTakeNoCollisionPassAtTheEndOfTheStep) {
  for (const char* scene : {"stack10.xml", "box_rest.xml"}) {
    test::SceneRun run(scene);
    int passes = 0;
    for (int k = 0; k < run.steps_for(0.5); ++k) {
      run.step();
      passes += run.stepper.data().stats.recovery_passes;
    }
    EXPECT_EQ(passes, 0) << scene;
  }
}

// Cheap in free fall: four spheres falling from rest side by side, 0.5 mm apart, each moving farther in a
// step (|v|·dt, 2 mm at 2 m/s) than its gap to a neighbour, with s_g = dt(|v| + |g|dt) its reach to the
// last bits. They move alike, and only their relative motion moves a gap: no step takes the pass, where
// D_a + D_b, or D_g ≤ s_g without the slack, would take it — and the end-of-step states are free of
// penetration.
TEST(RecoveryCertificate, BodiesFallingTogetherTakeNoCollisionPass) {
  const char* xml = R"(<scene name="falling_together">
    <physics dt="0.001" duration="1" gravity="0 0 -9.81" mu="0.5"/>
    <ground/>
    <body name="a" density="1000"><origin xyz="0 0 2"/><collision><geometry><sphere radius="0.04"/></geometry></collision></body>
    <body name="b" density="1000"><origin xyz="0.0805 0 2"/><collision><geometry><sphere radius="0.04"/></geometry></collision></body>
    <body name="c" density="1000"><origin xyz="0 0.0805 2"/><collision><geometry><sphere radius="0.04"/></geometry></collision></body>
    <body name="d" density="1000"><origin xyz="0.0805 0.0805 2"/><collision><geometry><sphere radius="0.04"/></geometry></collision></body>
  </scene>)";
  test::SceneRun run(xml, "falling_together.xml", "max_dissipation");
  CollisionDetector detector(run.world.model.geometries, collision_filter(run.world.model));
  int passes = 0, close_pairs = 0;
  const auto& D = run.stepper.data().recovery.displacement;
  for (int k = 0; k < run.steps_for(0.3); ++k) {
    run.step();
    passes += run.stepper.data().stats.recovery_passes;
    for (const ContactPoint& c : run.stepper.data().contacts)
      if (c.geom_b != kGround && !D.empty() && c.phi - D[c.geom_a] - D[c.geom_b] < -kRecoverySlop) ++close_pairs;
    ASSERT_LE(deepest_penetration(run.world.model, detector, run.state.q), kRecoverySlop) << "step " << k;
  }
  EXPECT_EQ(passes, 0);
  EXPECT_GT(close_pairs, 0) << "some pair must be closer than the two falls for the check to mean anything";
}

// D_g is kept from the last step while its inputs are (penetration_recovery.cpp, displacement_of): g's
// placement in the collision stage and its tree's kinematics at q⁺. A sphere resting on the ground, bitwise still,
// is pushed by a load from t = 0.1 s: in the step it starts to slide its tree was unwritten when the step began
// (the collision stage kept its placement), and written at q⁺. On every step that the certificate excuses, each
// D_g must bound how far g's centre moved; a D_g kept from the rest (round-off) would excuse the step the push
// begins, and every pass-free step has D_g ≥ |Δp|.
TEST(RecoveryCertificate, DisplacementIsTheStepsWhenARestingBodyStartsToMove) {
  const char* xml = R"(<scene name="pushed_from_rest">
    <physics dt="0.001" duration="1" gravity="0 0 -9.81" mu="0.5"/>
    <ground/>
    <body name="ball" density="1000"><origin xyz="0 0 0.05"/><collision><geometry><sphere radius="0.05"/></geometry></collision></body>
    <load body="ball" force="20 0 0" start="0.1"/>
  </scene>)";
  test::SceneRun run(xml, "pushed_from_rest.xml", "stewart_trinkle");
  // Round-off of the positions (~0.1 m, 1e-16 relative) and of D_g's own products: far below a step's slide.
  constexpr double kRoundOff = 1e-12;
  const auto& D = run.stepper.data().recovery.displacement;
  int starts_from_rest = 0, excused = 0;
  Eigen::VectorXd last_q = run.state.q;
  for (int k = 0; k < run.steps_for(0.2); ++k) {
    const Eigen::VectorXd q = run.state.q;
    const Eigen::Vector3d p = run.position("ball");
    run.step();
    const double moved = (run.position("ball") - p).norm();
    const bool was_still = q.size() == last_q.size() && std::memcmp(q.data(), last_q.data(), sizeof(double) * q.size()) == 0;
    starts_from_rest += was_still && moved > 0;
    last_q = q;
    if (run.stepper.data().stats.recovery_passes > 0) continue;
    ++excused;
    ASSERT_GE(D[0] + kRoundOff, moved) << "step " << k;
  }
  EXPECT_GT(starts_from_rest, 0) << "the ball must be bitwise still before the push for the check to mean anything";
  EXPECT_GT(excused, 0);
}

}  // namespace
}  // namespace impetus
