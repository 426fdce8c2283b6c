// No allocation in the step loop once warm (STYLE.md 11): the worker pool that runs the contact stage's
// islands; kinematics with dynamics (CRBA, RNEA, v*) on free bodies and on a URDF arm; and the whole step
// under each contact model and under each controller (those controllers that still allocate are measured and
// skipped, with the count and why).
// tests/contact/test_allocation.cpp holds single solves to zero.
#include <gtest/gtest.h>

#include "../allocation_counting.hpp"
#include "contact/factory.hpp"
#include "dynamics/kinematics.hpp"
#include "islands_scene.hpp"
#include "scene_fixture.hpp"
#include "sim/free_velocity.hpp"
#include "sim/replay/replay_registry.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/worker_pool.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

TEST(StepAllocation, TheWorkerPoolAllocatesNothingPerRun) {
  WorkerPool pool(3);
  std::vector<double> slots(1000, 0.0);
  auto item = [&](int k, int) { slots[k] += k; };
  pool.run(static_cast<int>(slots.size()), item);   // the threads are started by the constructor: nothing to warm
  EXPECT_EQ(test::allocations_in([&] {
              for (int r = 0; r < 20; ++r) pool.run(static_cast<int>(slots.size()), item);
            }),
            0);
  for (int k = 0; k < 1000; ++k) ASSERT_EQ(slots[k], 21.0 * k) << "item " << k;
}

TEST(StepAllocation, KinematicsAndDynamicsAllocateNothingOnceWarm) {
  // Free bodies (the implicit gyroscopic step of free_velocity.cpp) and an 8-DoF URDF arm with damping.
  struct Case {
    std::string name;
    World world;
  };
  std::vector<Case> cases;
  cases.push_back({"islands", load_scene_string(test::islands_scene(1e-3), "islands.xml")});
  cases.push_back({"arm_friction_hold", load_scene(test::scene_path("arm_friction_hold.xml"))});
  for (const Case& c : cases) {
    const WorldModel& model = c.world.model;
    StepData data(model);
    State state = c.world.initial;
    const Eigen::VectorXd no_control;
    auto stages = [&] {
      forward_kinematics(model.multibody, data.multibody, state.q, state.v);
      compute_free_velocity(model, model.physics.dt, state, no_control, data);
    };
    stages();   // warm: buffers grow to the model's size
    state.v = data.v_star;
    EXPECT_EQ(test::allocations_in(stages), 0) << c.name;
    EXPECT_TRUE(data.v_star.allFinite()) << c.name;
  }
}

// The goal of issue #16: the whole step (Stepper::step, every stage) allocates nothing once warm, under each
// model, on 1 and 2 threads. Allocations made inside FCL (libfcl, and libccd through it) are counted apart:
// its box–box test collects its contact points in a local std::vector per call
// (ShapeCollisionTraversalNode::leafTesting → boxBoxIntersect), and its GJK distance query makes a libccd
// object per call; the adapter already reuses its request and result objects (collision/fcl_adapter.cpp), so
// what remains can only go with a narrow phase of our own. Everything outside FCL must be 0.
class WholeStepAllocation : public ::testing::TestWithParam<std::string> {};

TEST_P(WholeStepAllocation, NoneOutsideFclOnceWarm) {
  const std::string name = GetParam();
  const ContactModelInfo& m = contact_model_info(name);
  // The ECP at its scenes' 10 ms; the others at 1 ms. Warm: the boxes have stopped sliding and spinning
  // (μg = 3.9 m/s², from 0.3 m/s: 0.08 s) and the falling sphere rests on the other (0.2 s).
  const double dt = m.needs.hull_plane_pairs ? 1e-2 : 1e-3;
  const int warm_steps = static_cast<int>(0.4 / dt), counted_steps = 20;
  const World world = load_scene_string(test::islands_scene(dt), "islands.xml");
  for (int threads : {1, 2}) {
    Stepper stepper(world.model, name, dt, threads);
    State state = world.initial;
    for (int k = 0; k < warm_steps; ++k) stepper.step(state);
    ASSERT_GE(stepper.data().stats.islands, 4) << name << ": the scene is not the one described";
    const test::AttributedAllocations allocations = test::allocations_outside("libfcl", [&] {
      for (int k = 0; k < counted_steps; ++k) stepper.step(state);
    });
    RecordProperty("fcl_allocations_" + std::to_string(threads) + "_threads", std::to_string(allocations.inside));
    EXPECT_EQ(allocations.outside, 0) << name << " with " << threads << " threads, over " << counted_steps
                                      << " steps (and " << allocations.inside << " inside FCL)";
  }
}

std::vector<std::string> every_model() {
  std::vector<std::string> names;
  for (const ContactModelInfo& m : contact_models()) names.push_back(m.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryModel, WholeStepAllocation, ::testing::ValuesIn(every_model()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The control stage too (issue #16): LINKS under a controller, standing (links_stance) and in the closed-loop
// trot (links_trot, whose swing feet the ID controllers do not see: ControlStage's contact selection).
struct ControlledCase {
  const char* replay;
  const char* controller;
};
class ControlledStepAllocation : public ::testing::TestWithParam<ControlledCase> {};

/// Cases that still allocate once warm, with the count measured on these replays (per step, outside FCL) and
/// where (a trace of each allocation's call stack after the warm-up); skipped only where they do allocate.
std::string controller_not_yet_allocation_free(const std::string& replay, const std::string& controller) {
  // The trot changes which feet touch every few steps: buffers sized by the contacts are kept per size met
  // (stewart_trinkle's Lemke and LCP, the problems and results, the selected rows, the sticking target's
  // decompositions, ActuatedElimination's per (nv, na, nc), the ID's impulses, IdLcpCoulomb's LCP).
  if (replay == "links_trot" && controller == "id_qp_coulomb")
    return "measured 5 per step (117 in 20 steps, 2026-11-27 17:48 trace; 134 before ActuatedElimination parked "
           "every shape below the most met, 98 per step before IdQp kept its temporaries per shape): shapes first "
           "met in the counted steps (the trot's contact sets and the effort limits' rounds): EffortLimits' "
           "problem copies per contact count, its solution copies (40), stewart_trinkle's Lemke (26) "
           "and dense path's QR/COD and groups (14), undriven_impulse_kernel's QR (15), IdQp's per-shape scratch "
           "(14), the impulses' fit (6), the controller's (2)";
  // Zero on Intel (cooperlake); on AMD EPYC (znver3) the trot's last bits differ and a contact set is first met
  // in the counted steps: IdLcpNoSlip::stage_two's ColPivHouseholderQR and its assignments, IdLcpNoSlip::solve
  // and solve_projection, PredictionMemory::guess — the same per-size caches as above.
  if (replay == "links_trot" && controller == "id_lcp_noslip")
    return "measured 16 in 20 steps on AMD EPYC (2026-11-27 trace; 0 on Intel cooperlake): a contact set first met "
           "in the counted steps reaches IdLcpNoSlip's per-size QR (stage_two), its solve and solve_projection, and "
           "PredictionMemory::guess";
  return "";
}

TEST_P(ControlledStepAllocation, NoneOutsideFclOnceWarm) {
  const ControlledCase c = GetParam();
  const test::TempDir dir(std::string("alloc_") + c.replay + "_" + c.controller);
  ReplayRequest request;
  request.name = c.replay;
  request.controller = c.controller;
  request.terrain = "flat";
  const World world = load_scene(write_replay_scene(request, std::string(IMPETUS_SOURCE_DIR) + "/models", dir.path()));
  const double dt = world.model.physics.dt;
  // Warm: 0.3 s, past the trot's first swing of each pair of feet (its period is 0.2–0.4 s); counted: 20 steps.
  const int warm_steps = static_cast<int>(0.3 / dt), counted_steps = 20;
  Stepper stepper(world.model, world.model.physics.contact_model, dt);
  State state = world.initial;
  for (int k = 0; k < warm_steps; ++k) stepper.step(state);
  const test::AttributedAllocations allocations = test::allocations_outside("libfcl", [&] {
    for (int k = 0; k < counted_steps; ++k) stepper.step(state);
  });
  const std::string reason = controller_not_yet_allocation_free(c.replay, c.controller);
  if (!reason.empty() && allocations.outside > 0)   // a listed case that allocates nothing is held to it
    GTEST_SKIP() << c.replay << " under " << c.controller << " allocates " << static_cast<double>(allocations.outside) / counted_steps
                 << " times per step once warm (" << allocations.outside << " in " << counted_steps << " steps), "
                 << reason;
  EXPECT_EQ(allocations.outside, 0) << c.replay << " under " << c.controller;
}

std::vector<ControlledCase> controlled_cases() {
  std::vector<ControlledCase> cases;
  for (const char* replay : {"links_stance", "links_trot"})
    for (const char* controller : {"pid", "id_lcp_coulomb", "id_lcp_noslip", "id_qp_coulomb", "id_qp_noslip", "id_sensed"})
      cases.push_back({replay, controller});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Replays, ControlledStepAllocation, ::testing::ValuesIn(controlled_cases()),
                         [](const ::testing::TestParamInfo<ControlledCase>& info) {
                           return std::string(info.param.replay) + "_" + info.param.controller;
                         });

}  // namespace
}  // namespace impetus
