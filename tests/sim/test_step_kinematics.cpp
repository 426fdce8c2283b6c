// Forward kinematics once per step (sim/step_kinematics.hpp): the pass a step ends with is that of the state
// it ends in, bit for bit, also when the penetration recovery moved q⁺ after its pass; a pass is skipped only
// for the same bits of (q, v), and a tree's pass only for the same bits of that tree's segments of (q, v).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "../dynamics/fixtures.hpp"
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

/// Two free bodies and the dynamics tests' three articulated trees (every joint type: revolute, prismatic, fixed,
/// continuous, planar, floating on the world and under a link), one model.
WorldModel five_trees() {
  WorldModel world;
  world.multibody = test::trees_model({0, 1, 0, 2, 3});
  return world;
}

/// Moves tree t's segments of q and v to random values (a unit quaternion for each floating joint).
void move_tree(const MultibodyModel& mb, int t, std::mt19937& rng, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  const Tree& tree = mb.trees[t];
  const Eigen::VectorXd q_random = test::random_configuration(mb, rng);
  q.segment(tree.q_offset, tree.nq) = q_random.segment(tree.q_offset, tree.nq);
  v.segment(tree.v_offset, tree.nv) = test::random_vector(tree.nv, rng);
}

// A walk in which each pass moves some trees (their q, their v, or both) and leaves the others bitwise where
// they were: the trees it does not recompute must hold the bits a fresh pass writes, and so must those it does.
TEST(StepKinematics, TreesKeptByAPassHoldTheBitsOfAFreshPass) {
  const WorldModel world = five_trees();
  const MultibodyModel& mb = world.multibody;
  const int trees = static_cast<int>(mb.trees.size());
  StepData data(world);
  MultibodyData fresh(mb);
  std::mt19937 rng(16);
  std::bernoulli_distribution moves(0.3);
  std::uniform_int_distribution<int> what(0, 2);   // 0: q and v, 1: q alone, 2: v alone
  Eigen::VectorXd q = test::random_configuration(mb, rng), v = test::random_vector(mb.nv, rng);
  kinematics_at(mb, data, q, v);
  int kept = 0, moved = 0;
  for (int pass = 0; pass < 200; ++pass) {
    for (int t = 0; t < trees; ++t) {
      if (!moves(rng)) {
        ++kept;
        continue;
      }
      ++moved;
      Eigen::VectorXd q_new = q, v_new = v;
      move_tree(mb, t, rng, q_new, v_new);
      const int w = what(rng);
      if (w != 2) q = q_new;
      if (w != 1) v = v_new;
    }
    kinematics_at(mb, data, q, v);
    forward_kinematics(mb, fresh, q, v);
    ASSERT_TRUE(same_kinematics(data.multibody, fresh)) << "pass " << pass;
    ASSERT_TRUE(holds_kinematics_of(data, q, v)) << "pass " << pass;
  }
  EXPECT_GT(kept, 200) << "trees left in place are what a kept pass is about";
  EXPECT_GT(moved, 200);
}

// A tree's pass is kept only against its last pass: a pass at another state in between (the recovery's at q⁺,
// then the state's) leaves that state's bits, and going back must recompute the trees it moved. A tree moved by
// one ulp, or by the sign of a zero, is recomputed too.
TEST(StepKinematics, ATreeIsKeptOnlyAgainstItsLastPass) {
  const WorldModel world = five_trees();
  const MultibodyModel& mb = world.multibody;
  StepData data(world);
  MultibodyData fresh(mb);
  std::mt19937 rng(7);
  const Eigen::VectorXd q0 = test::random_configuration(mb, rng), v0 = test::random_vector(mb.nv, rng);
  for (int t = 0; t < static_cast<int>(mb.trees.size()); ++t) {
    const Tree& tree = mb.trees[t];
    Eigen::VectorXd q1 = q0, v1 = v0;
    move_tree(mb, t, rng, q1, v1);
    Eigen::VectorXd q_ulp = q0, v_zero = v0;
    q_ulp[tree.q_offset] = std::nextafter(q0[tree.q_offset], 1e9);
    v_zero[tree.v_offset] = 0.0;
    Eigen::VectorXd v_negative_zero = v_zero;
    v_negative_zero[tree.v_offset] = -0.0;   // == 0, other bits
    const std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*> walk[] = {
        {&q0, &v0}, {&q1, &v1}, {&q0, &v0}, {&q_ulp, &v0}, {&q0, &v_zero}, {&q0, &v_negative_zero}, {&q0, &v0}};
    for (const auto& [q, v] : walk) {
      kinematics_at(mb, data, *q, *v);
      forward_kinematics(mb, fresh, *q, *v);
      ASSERT_TRUE(same_kinematics(data.multibody, fresh)) << "tree " << t;
    }
  }
}

}  // namespace
}  // namespace impetus
