// No allocation in the step loop once warm (STYLE.md 11), for the stages that are already free of it: the
// worker pool that runs the contact stage's islands, and kinematics with dynamics (CRBA, RNEA, v*) on free
// bodies and on a URDF arm. (What still allocates in Stepper::step, stage by stage and model by model, and
// why: /work/notes/speed16.md; tests/contact/test_allocation.cpp holds the Stewart–Trinkle solve to zero.)
#include <gtest/gtest.h>

#include "../allocation_counting.hpp"
#include "dynamics/kinematics.hpp"
#include "islands_scene.hpp"
#include "scene_fixture.hpp"
#include "sim/free_velocity.hpp"
#include "sim/worker_pool.hpp"

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

}  // namespace
}  // namespace impetus
