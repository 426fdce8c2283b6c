// The seed-000 grasp built in code (test_no_slip_grasp.hpp): 36 contacts with degenerate corner
// normals, dt = 0.01, 1000 steps. Issue 3: the grasped boxes move less than 1 mm relative to the
// grippers. What Stewart–Trinkle does on the same problem is recorded, not asserted (the paper's lost
// the grasp after about ten steps).
#include <gtest/gtest.h>

#include <chrono>

#include "contact/factory.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "test_no_slip_grasp.hpp"

namespace impetus {
namespace {

constexpr int kSteps = 1000;
constexpr double kGraspDriftBound = 1e-3;   // m, issue 3

struct GraspOutcome {
  double max_drift = 0;        // m: largest displacement of a box relative to the left gripper
  int fallbacks = 0, failures = 0, max_iterations = 0;
  int steps = 0;
  bool finite = true;
  double seconds = 0;
};

GraspOutcome run_grasp(ContactModel& model, test::GraspSetup setup, int steps) {
  test::GraspSimulation sim(setup);
  const Eigen::Vector3d r0[2] = {sim.box_relative(0), sim.box_relative(1)};
  GraspOutcome out;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) {
    sim.step(model);
    const SolverStatistics& s = sim.result().stats;
    out.fallbacks += s.status == SolveStatus::Fallback;
    out.failures += s.status == SolveStatus::Failed;
    out.max_iterations = std::max(out.max_iterations, s.iterations);
    out.steps = k + 1;
    if (!sim.finite()) {
      out.finite = false;
      break;
    }
    for (int i = 0; i < 2; ++i) out.max_drift = std::max(out.max_drift, (sim.box_relative(i) - r0[i]).norm());
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

TEST(NoSlipGrasp, HoldsTheBoxesForAThousandStepsWithThirtySixDegenerateContacts) {
  for (auto variant : {test::GraspSetup::Variant::CornerNormals, test::GraspSetup::Variant::Duplicates}) {
    test::GraspSetup setup;
    setup.variant = variant;
    NoSlipModel model;
    const GraspOutcome o = run_grasp(model, setup, kSteps);
    ASSERT_TRUE(o.finite);
    EXPECT_LT(o.max_drift, kGraspDriftBound);
    EXPECT_EQ(o.failures, 0);
    EXPECT_EQ(o.fallbacks, 0);
    const std::string tag = variant == test::GraspSetup::Variant::CornerNormals ? "corner_normals" : "duplicates";
    RecordProperty("no_slip_" + tag + "_max_drift_m", std::to_string(o.max_drift));
    RecordProperty("no_slip_" + tag + "_max_pivots", o.max_iterations);
  }
}

TEST(NoSlipGrasp, ContactsAreThirtySixAndTheProblemHasRedundantRows) {
  test::GraspSimulation sim({});
  NoSlipModel model;
  sim.step(model);
  EXPECT_EQ(sim.contacts(), 36);
  // 14 coordinates; rank(G) ≤ 14 while G has 72 rows, and the active normal rows fill the rest.
  EXPECT_LE(model.last_report().indices.rank, 14);
  EXPECT_LE(model.last_report().projection.pivoting.active + model.last_report().indices.rank, 14);
}

TEST(NoSlipGrasp, StewartTrinkleOnTheSameProblemIsReported) {
  // Not an assertion on Stewart–Trinkle's physics: the issue asks what it does here. Only that it
  // runs without crashing and its outcome is recorded. 20 steps keep the test fast (a Stewart–Trinkle
  // step of this grasp takes up to ~0.1 s of Lemke); tools/bench/bench_no_slip runs the 1000.
  for (auto variant : {test::GraspSetup::Variant::CornerNormals, test::GraspSetup::Variant::Duplicates}) {
    test::GraspSetup setup;
    setup.variant = variant;
    auto model = make_contact_model("stewart_trinkle", {});
    const GraspOutcome o = run_grasp(*model, setup, 20);
    const std::string tag = variant == test::GraspSetup::Variant::CornerNormals ? "corner_normals" : "duplicates";
    RecordProperty("stewart_trinkle_" + tag + "_max_drift_m", std::to_string(o.max_drift));
    RecordProperty("stewart_trinkle_" + tag + "_fallbacks", o.fallbacks);
    RecordProperty("stewart_trinkle_" + tag + "_failures", o.failures);
    RecordProperty("stewart_trinkle_" + tag + "_steps", o.steps);
    RecordProperty("stewart_trinkle_" + tag + "_seconds", std::to_string(o.seconds));
    std::printf("[ report   ] stewart_trinkle grasp (%s): %d steps, max drift %.3g m, fallbacks %d, failures %d, "
                "max pivots %d, %.3f s\n",
                tag.c_str(), o.steps, o.max_drift, o.fallbacks, o.failures, o.max_iterations, o.seconds);
    EXPECT_GT(o.steps, 0);
  }
}

}  // namespace
}  // namespace impetus
