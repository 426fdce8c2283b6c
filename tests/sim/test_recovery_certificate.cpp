// The certificate (R4) of sim/penetration_recovery.hpp: the penetration recovery skips its collision pass at
// q⁺ only when no contact can penetrate there, and resting scenes skip it.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace impetus
