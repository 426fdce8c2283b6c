// Forward kinematics once per step (sim/step_kinematics.hpp): the pass a step ends with is that of the state
// it ends in, bit for bit, also when the penetration recovery moved q⁺ after its pass; a pass is skipped only
// for the same bits of (q, v).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "dynamics/kinematics.hpp"
#include "scene_fixture.hpp"
#include "sim/step_kinematics.hpp"

namespace impetus {
namespace {

/// X_WL, V, p_WC, I and S of a and b are the same bits.
bool same_kinematics(const MultibodyData& a, const MultibodyData& b) {
  auto same = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof(x)) == 0; };
  for (std::size_t i = 0; i < a.X_WL.size(); ++i)
    if (!same(a.X_WL[i], b.X_WL[i]) || !same(a.V[i], b.V[i]) || !same(a.p_WC[i], b.p_WC[i]) || !same(a.I[i], b.I[i]))
      return false;
  return a.S.cols() == 0 || std::memcmp(a.S.data(), b.S.data(), sizeof(double) * a.S.size()) == 0;
}

// Boxes and spheres landing from up to 10 m (fast_drop_small.xml): the landings take the recovery's
// projection (q⁺ moves after its pass), the flight and rest do not; after every step the step's kinematics
// are those of a fresh pass at the final state.
TEST(StepKinematics, EveryStepEndsWithTheKinematicsOfItsFinalState) {
  test::SceneRun run("fast_drop_small.xml", "stewart_trinkle");
  const MultibodyModel& mb = run.world.model.multibody;
  MultibodyData fresh(mb);
  int projected = 0;
  for (int k = 0; k < run.steps_for(2.0); ++k) {
    run.step();
    const StepData& data = run.stepper.data();
    if (data.stats.recovered_penetration > 0) ++projected;
    ASSERT_TRUE(holds_kinematics_of(data, run.state.q, run.state.v)) << "step " << k;
    forward_kinematics(mb, fresh, run.state.q, run.state.v);
    ASSERT_TRUE(same_kinematics(data.multibody, fresh)) << "step " << k;
  }
  EXPECT_GT(projected, 0) << "the landings must move q⁺ after the recovery's pass for the check to mean anything";
}

TEST(StepKinematics, APassIsSkippedOnlyForTheSameBits) {
  test::SceneRun run("box_rest.xml");
  const MultibodyModel& mb = run.world.model.multibody;
  StepData data(run.world.model);
  Eigen::VectorXd q = run.world.initial.q, v = Eigen::VectorXd::Zero(mb.nv);
  EXPECT_FALSE(holds_kinematics_of(data, q, v));   // nothing computed yet
  kinematics_at(mb, data, q, v);
  EXPECT_TRUE(holds_kinematics_of(data, q, v));
  Eigen::VectorXd v_signed = v;
  v_signed[0] = -0.0;   // == 0, other bits
  EXPECT_FALSE(holds_kinematics_of(data, q, v_signed));
  q[0] = std::nextafter(q[0], 1e9);
  EXPECT_FALSE(holds_kinematics_of(data, q, v));
  kinematics_at(mb, data, q, v);
  MultibodyData fresh(mb);
  forward_kinematics(mb, fresh, q, v);
  EXPECT_TRUE(same_kinematics(data.multibody, fresh));
}

}  // namespace
}  // namespace impetus
