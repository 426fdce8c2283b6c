// What stage 4 keeps from step to step (sim/free_velocity.cpp): a tree's M_eff = M + dt·D and its factor while
// crba_of_tree has not written M and dt is the same, and its v* while besides those its v, τ and h are bitwise
// the last call's. Each must then be, to the bit, what a fresh StepData makes: after dt changes (the damping
// enters M_eff through dt·D), after the arm moves (M written again), after v or τ alone change, and after the
// joint-friction stage replaced v* (the kept v* is the free one, not that).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/integration.hpp"
#include "dynamics/kinematics.hpp"
#include "scene_fixture.hpp"
#include "sim/free_velocity.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus {
namespace {

bool same_bits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

/// Stage 4 at `state`, step dt and control τ into `data`.
void free_velocity_at(const WorldModel& model, const State& state, double dt, const Eigen::VectorXd& tau_control,
                      StepData& data) {
  forward_kinematics(model.multibody, data.multibody, state.q, state.v);
  compute_free_velocity(model, dt, state, tau_control, data);
}

TEST(FreeVelocityKept, EffectiveInertiaAndFreeVelocityAreThoseMadeAfresh) {
  // The 8-DoF arm with joint damping 0.1 N·m·s/rad: M_eff differs from M, and M turns with the arm.
  const World world = load_scene(test::scene_path("arm_friction_fall.xml"));
  const WorldModel& model = world.model;
  const int nv = model.multibody.nv;
  State state = world.initial;
  state.v = Eigen::VectorXd::LinSpaced(nv, 0.2, 0.9);
  double dt = 1e-3;
  Eigen::VectorXd tau_control = Eigen::VectorXd::Zero(nv);
  struct Change {
    std::string what;
    std::function<void()> apply;
  };
  const std::vector<Change> changes = {
      {"nothing", [] {}},
      {"nothing again", [] {}},
      {"dt", [&] { dt = 2e-3; }},
      {"q (the arm moved)", [&] { integrate(model.multibody, state.q, state.v, 0.05, state.q); }},
      {"nothing after the move", [] {}},
      {"v", [&] { state.v[3] = std::nextafter(state.v[3], 1.0); }},
      {"control τ", [&] { tau_control[5] = 0.25; }},
      {"nothing at the end", [] {}},
  };
  StepData kept(model);
  for (const Change& change : changes) {
    change.apply();
    free_velocity_at(model, state, dt, tau_control, kept);
    StepData fresh(model);
    free_velocity_at(model, state, dt, tau_control, fresh);
    for (std::size_t t = 0; t < model.multibody.trees.size(); ++t) {
      ASSERT_TRUE(same_bits(kept.M_eff[t], fresh.M_eff[t])) << change.what << ", tree " << t;
      ASSERT_TRUE(same_bits(kept.M_llt[t].matrixLLT(), fresh.M_llt[t].matrixLLT())) << change.what << ", tree " << t;
    }
    ASSERT_TRUE(same_bits(kept.v_star, fresh.v_star)) << change.what;
    kept.v_star.setConstant(0.5);   // as the joint-friction stage replaces v* after stage 4
  }
  // The arm's damping makes M_eff depend on dt, its motion M on q: the kept M_eff above were put to the test.
  StepData at_1ms(model), at_2ms(model);
  free_velocity_at(model, world.initial, 1e-3, tau_control, at_1ms);
  free_velocity_at(model, world.initial, 2e-3, tau_control, at_2ms);
  EXPECT_FALSE(same_bits(at_1ms.M_eff[0], at_2ms.M_eff[0]));
  EXPECT_FALSE(same_bits(at_2ms.M_eff[0], kept.M_eff[0]));
}

}  // namespace
}  // namespace impetus
