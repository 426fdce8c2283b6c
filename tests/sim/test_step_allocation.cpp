// No allocation in the step loop once warm (STYLE.md 11): the worker pool that runs the contact stage's
// islands; kinematics with dynamics (CRBA, RNEA, v*) on free bodies and on a URDF arm; and the whole step
// under each contact model and under each controller (those that still allocate on some build are measured and
// skipped there, with the count and why).
// tests/contact/test_allocation.cpp holds single solves to zero.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "../allocation_counting.hpp"
#include "contact/contact_rows_fill.hpp"
#include "contact/factory.hpp"
#include "contact/sparse_fill.hpp"
#include "contact/rows_by_count.hpp"
#include "contact/solvers/lemke.hpp"
#include "control/inverse_dynamics/effort_limits.hpp"
#include "control/inverse_dynamics/id_solver.hpp"
#include "control/inverse_dynamics/least_torque.hpp"
#include "dynamics/kinematics.hpp"
#include "islands_scene.hpp"
#include "scene_fixture.hpp"
#include "sim/assembly.hpp"
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
// trot (links_trot, whose swing feet the ID controllers do not see: ControlStage's contact selection). The
// counted steps may meet contact counts and shapes the warm-up did not (the stance is no stance until ~2 s, its
// contact count runs 0–6, and which shapes come first depends on the build's rounding): the buffers sized by the
// contacts are reserved for the most the world can hold, made for every count up to the most met, or grown only.
struct ControlledCase {
  const char* replay;
  const char* controller;
};
class ControlledStepAllocation : public ::testing::TestWithParam<ControlledCase> {};

/// Cases that still allocate once warm on some build, with the count measured (per step, outside FCL) and where
/// (a trace of each allocation's call stack after the warm-up); skipped only where they do allocate.
std::string controller_not_yet_allocation_free(const std::string& replay, const std::string& controller) {
  if (replay == "links_stance" && controller == "id_qp_noslip")
    return "measured 0 in 20 steps natively and 29 on the portable build (-DIMPETUS_NATIVE=OFF; 2026-11-29 05:53 "
           "trace on AMD EPYC; 60 before make_working_shapes), whose trajectory meets problem shapes the native one "
           "does not, each allocating once when first met: InequalityLeastSquares' buffers of a new shape of id_qp's "
           "Stage II (make_working_shapes and its shape list, 21), IdQp's per-shape plain matrices (PlainScratch, 6), "
           "the stepper's and the control stage's impulse maps (2)";
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
    GTEST_SKIP() << c.replay << " under " << c.controller << " allocates " << allocations.outside << " times in "
                 << counted_steps << " steps once warm, " << reason;
  EXPECT_EQ(allocations.outside, 0) << c.replay << " under " << c.controller << ", over " << counted_steps << " steps";
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

// The buffers of id_lcp_noslip's call sized by the contacts, on every contact count below the most met, in an
// order no trot follows: the replays above meet only the contact sets of this machine's trajectory (its last
// bits differ between CPUs, and with them the sets first met after the warm-up).
TEST(ContactSetAllocation, LeastTorqueSelectionAllocatesNothingBelowItsReserve) {
  // LINKS' shape: 18 coordinates, the last 12 driven; 8 contacts, m ≤ 24 impulse components. Undriven or driven
  // rows of Jᵀ zeroed bring the ranks r (the Gram matrix) and q (Ẽ) of (LT3) below their most.
  constexpr int nv = 18, na = 12, most = 24;
  std::vector<int> actuated(na);
  std::iota(actuated.begin(), actuated.end(), nv - na);
  std::mt19937 random(16);
  std::uniform_real_distribution<double> uniform(-1, 1);
  LeastTorqueSelection selection;
  selection.reserve(nv, na, most);
  {   // the buffers of the coordinates' sizes (nv, na) are sized by a first call that reaches (LT3)
    Eigen::MatrixXd Jt = Eigen::MatrixXd::NullaryExpr(nv, most, [&] { return uniform(random); });
    Eigen::VectorXd x = Eigen::VectorXd::Ones(most), tau = Eigen::VectorXd::Zero(na);
    LeastTorqueReport report;
    selection.select(Jt, std::vector<char>(most, 1), actuated, x, tau, report);
    ASSERT_GT(report.pivots, 0);
  }
  long allocations = 0;
  int free_calls = 0;
  const std::pair<int, int> zeroed[] = {{0, 0}, {0, 4}, {6, 9}, {2, 12}};   // (first row, rows)
  for (int m = most; m >= 1; m -= 1)
    for (auto [first_zero, zero_rows] : zeroed) {
      Eigen::MatrixXd Jt = Eigen::MatrixXd::NullaryExpr(nv, m, [&] { return uniform(random); });
      Jt.middleRows(first_zero, zero_rows).setZero();
      std::vector<char> nonnegative(m);
      for (int k = 0; k < m; ++k) nonnegative[k] = k % 3 == 0;
      const Eigen::VectorXd x0 = Eigen::VectorXd::NullaryExpr(m, [&] { return 1 + uniform(random); });
      const Eigen::VectorXd tau0 = Eigen::VectorXd::NullaryExpr(na, [&] { return uniform(random); });
      Eigen::VectorXd x = x0, tau = tau0;
      LeastTorqueReport report;
      bool selected = false;
      allocations += test::allocations_in([&] { selected = selection.select(Jt, nonnegative, actuated, x, tau, report); });
      free_calls += report.freedom > 0 && report.pivots > 0;
      // The kept buffers carry nothing over: a fresh selection gives the same bits.
      LeastTorqueSelection fresh;
      Eigen::VectorXd x_fresh = x0, tau_fresh = tau0;
      LeastTorqueReport fresh_report;
      ASSERT_EQ(fresh.select(Jt, nonnegative, actuated, x_fresh, tau_fresh, fresh_report), selected) << "m " << m;
      ASSERT_EQ(x, x_fresh) << "m " << m;
      ASSERT_EQ(tau, tau_fresh) << "m " << m;
    }
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(free_calls, 50);   // most calls ran (LT3): the impulses were indeterminate
}

TEST(ContactSetAllocation, PredictionMemoryAllocatesNothingOnceAsManyContactsWereHeld) {
  // A trot's feet: 8 contact keys, held 4 at a time in every pattern once 8 were held together.
  ContactProblem cp;
  std::vector<ContactKey> all;
  for (int k = 0; k < 8; ++k) all.push_back({k, -1, k % 2});
  PredictionMemory memory;
  cp.keys = all;
  cp.nc = 8;
  memory.remember(cp, Eigen::VectorXd::LinSpaced(8, 1, 8));
  long allocations = 0;
  for (int pattern = 0; pattern < 256; ++pattern) {
    cp.keys.clear();
    for (int k = 0; k < 8; ++k)
      if (pattern >> k & 1) cp.keys.push_back(all[k]);
    cp.nc = static_cast<int>(cp.keys.size());
    const Eigen::VectorXd p = Eigen::VectorXd::Constant(cp.nc, pattern);
    allocations += test::allocations_in([&] { memory.remember(cp, p); });
    ASSERT_EQ(memory.p_N.size(), cp.keys.size());
    for (const ContactKey& key : cp.keys) ASSERT_EQ(memory.p_N.at(key), pattern);
  }
  EXPECT_EQ(allocations, 0);
}

TEST(ContactSetAllocation, LemkeAllocatesNothingBelowTheLargestSizeMet) {
  // The restricted LCPs of stewart_trinkle's (ST11) and id_qp's Stage I change size with the contacts held:
  // once Lemke has solved its largest, every smaller size, in any order, is solved in its buffers, and gives
  // the bits of a fresh solver. Monotone LCPs (A = B Bᵀ + ½I, q of mixed signs): Lemke pivots on each.
  constexpr int most = 40;
  auto lcp = [](int n, Eigen::MatrixXd& A, Eigen::VectorXd& q) {
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) B(i, j) = std::cos(1.0 + 0.7 * i + 1.3 * j + n);
    A = B * B.transpose();
    A.diagonal().array() += 0.5;
    q.resize(n);
    for (int i = 0; i < n; ++i) q[i] = std::sin(2.0 * i + n);
  };
  LemkeSolver lemke;
  Eigen::MatrixXd A;
  Eigen::VectorXd q, z_storage(most);
  lcp(most, A, q);
  ASSERT_TRUE(lemke.solve(A, q, z_storage).solved());
  long allocations = 0;
  int pivoted = 0;
  for (int n : {7, 31, 1, 40, 12, 25, 3, 39, 18, 2, 33, 9, 26, 5}) {
    lcp(n, A, q);
    VectorView z(z_storage.data(), n);
    LemkeResult result;
    allocations += test::allocations_in([&] { result = lemke.solve(A, q, z); });
    LemkeSolver fresh;
    Eigen::VectorXd z_fresh;
    const LemkeResult fresh_result = fresh.solve(A, q, z_fresh);
    ASSERT_TRUE(result.solved()) << "n " << n;
    ASSERT_EQ(result.pivots, fresh_result.pivots) << "n " << n;
    ASSERT_TRUE((z.array() == z_fresh.array()).all()) << "n " << n;
    pivoted += result.pivots > 1;
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(pivoted, 10);   // the solves pivoted (q ≥ 0 would return z = 0 untouched)
}

TEST(ContactSetAllocation, StackedRowsAllocateNothingForARowCountBelowTheMostMet) {
  // stewart_trinkle's J = [N; L; S; T] of the group leaders: once its most rows were stacked, every smaller
  // count, in any order and first met or not, is stacked in the kept outer indices and storage of nonzeros,
  // and holds the rows of a freshly built matrix. LINKS' shape: 18 coordinates, up to 40 contacts (120 rows),
  // rows of up to 9 nonzeros (the base's 6 and a leg's 3).
  constexpr int nv = 18, most_rows = 120, row_nonzeros = 9;
  std::mt19937 random(16);
  std::uniform_real_distribution<double> uniform(-1, 1);
  auto stack = [&](SparseRows& J, int rows, int seed) {
    for (int r = 0; r < rows; ++r) {
      J.startVec(r);
      const int leg = (r + seed) % 4;   // the base's 6 columns, then some of leg's 3
      for (int k = 0; k < row_nonzeros - leg; ++k) J.insertBack(r, k < 6 ? k : 3 + 3 * leg + k) = uniform(random);
    }
    J.finalize();
  };
  RowsByCount rows_by_count;
  stack(rows_by_count.empty(most_rows, nv, row_nonzeros), most_rows, 0);
  long allocations = 0;
  for (int rows : {13, 57, 1, 120, 26, 4, 99, 0, 31, 72, 8, 119, 45}) {
    const std::mt19937 start = random;
    SparseRows* J = nullptr;
    allocations += test::allocations_in([&] {
      J = &rows_by_count.empty(rows, nv, row_nonzeros);
      stack(*J, rows, rows);
    });
    random = start;
    SparseRows fresh(rows, nv);
    stack(fresh, rows, rows);
    ASSERT_EQ(J->rows(), rows);
    ASSERT_EQ(J->nonZeros(), fresh.nonZeros()) << rows << " rows";
    ASSERT_TRUE(Eigen::MatrixXd(*J) == Eigen::MatrixXd(fresh)) << rows << " rows";
  }
  EXPECT_EQ(allocations, 0);
}

TEST(ContactSetAllocation, UndrivenImpulseKernelAllocatesNothingBelowTheLargestShapeMet) {
  // id_qp's Stage II face, Z = ker(U Jᵀ) (least_torque.hpp LT1): its shape follows the free impulse components
  // m and the driven set (the effort limits' rounds hold driven joints). Warmed at the largest (m = 120, nothing
  // driven), then shapes never met in an order no trot follows, each the bits of a fresh workspace's.
  constexpr int nv = 18, most = 120;
  std::mt19937 random(16);
  std::uniform_real_distribution<double> uniform(-1, 1);
  UndrivenKernelWorkspace kernel;
  const Eigen::MatrixXd Jt_most = Eigen::MatrixXd::NullaryExpr(nv, most, [&] { return uniform(random); });
  undriven_impulse_kernel(Jt_most, {}, kernel);
  long allocations = 0;
  int deficient = 0;
  const std::pair<int, int> shapes[] = {{24, 12}, {9, 12}, {61, 5}, {3, 12}, {36, 0}, {12, 11}, {120, 12}, {18, 9}, {6, 12}};
  for (auto [m, na] : shapes) {
    std::vector<int> actuated(na);
    std::iota(actuated.begin(), actuated.end(), nv - na);
    Eigen::MatrixXd Jt = Eigen::MatrixXd::NullaryExpr(nv, m, [&] { return uniform(random); });
    if (m % 2 == 0) Jt.row(0).setZero();   // a coordinate no impulse moves: a rank deficiency of U Jᵀ
    const MatrixView* Z = nullptr;
    allocations += test::allocations_in([&] { Z = &undriven_impulse_kernel(Jt, actuated, kernel); });
    UndrivenKernelWorkspace fresh;
    const Eigen::MatrixXd Z_fresh = undriven_impulse_kernel(Jt, actuated, fresh);
    ASSERT_EQ(Z->rows(), m);
    ASSERT_EQ(Z->cols(), Z_fresh.cols()) << "m " << m << ", " << na << " driven";
    ASSERT_TRUE(Eigen::MatrixXd(*Z) == Z_fresh) << "m " << m << ", " << na << " driven";
    deficient += Z->cols() > std::max(m - (nv - na), 0);
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(deficient, 3);   // the copies left round-off pivots out of the rank
}

TEST(ContactSetAllocation, ProblemBuffersAllocateNothingForCountsBelowTheReserve) {
  // The assembly's island problem and result (sim/assembly.cpp fit_problem_sizes): reserved for LINKS' island (18
  // coordinates, up to 40 contacts, 12 joint-limit rows), every pair of counts, in an order no trot follows and
  // with the contacts' and the limits' counts changing apart, is fitted and filled in the reserved buffers, and
  // holds what a fresh problem filled the same way holds.
  constexpr int nv = 18, most_nc = 40, most_nl = 12, row_nonzeros = 9;
  std::mt19937 random(16);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<ContactRowsEntry> entries;
  std::vector<Eigen::Triplet<double>> triplets;
  entries.reserve(most_nc * row_nonzeros);   // the assembly's own lists, kept from step to step
  triplets.reserve(most_nl);
  // N, S, T of nc contacts (rows of up to 9 nonzeros: the base's 6, some of a leg's 3), L of nl limit rows, and
  // every vector of the problem and the result written.
  const auto fill = [&](ContactProblem& P, ContactResult& R, int nc, int nl, int seed) {
    entries.clear();
    for (int r = 0; r < nc; ++r) {
      const int leg = (r + seed) % 4;
      for (int k = 0; k < row_nonzeros - leg; ++k)
        entries.push_back({r, k < 6 ? k : 3 + 3 * leg + k, uniform(random), uniform(random), uniform(random), false});
    }
    set_contact_rows_from_row_ordered_entries(P.N, P.S, P.T, nc, nv, entries);
    triplets.clear();
    for (int r = 0; r < nl; ++r) triplets.emplace_back(r, 6 + r, r % 2 == 0 ? 1.0 : -1.0);
    set_from_row_ordered_triplets(P.L, nl, nv, triplets);
    for (Eigen::VectorXd* x : {&P.v, &P.v_star, &R.v_plus}) x->setConstant(seed);
    for (Eigen::VectorXd* x : {&P.phi, &P.mu, &P.mu_viscous, &P.p_N_guess, &P.p_S_guess, &P.p_T_guess, &R.p_N, &R.p_S, &R.p_T})
      x->setLinSpaced(nc, seed, seed + nc);
    for (Eigen::VectorXd* x : {&P.phi_L, &P.p_L_guess, &R.p_L}) x->setConstant(nl, -seed);
  };
  AssemblyScratch::ProblemBuffers parked;
  reserve_problem_sizes(parked, nv, most_nc, most_nl);
  ContactProblem P;
  ContactResult R;
  fit_problem_sizes(parked, P, &R, nv, 0, 0);   // the buffers the problem starts with are parked too
  fill(P, R, 0, 0, 0);
  long allocations = 0;
  const std::pair<int, int> counts[] = {{13, 4},  {40, 12}, {1, 0},  {27, 12}, {4, 4},  {0, 7},  {39, 1},
                                        {8, 12},  {13, 0},  {40, 0}, {2, 9},   {21, 5}, {0, 0},  {33, 12}};
  for (int i = 0; i < static_cast<int>(std::size(counts)); ++i) {
    const auto [nc, nl] = counts[i];
    const std::mt19937 start = random;
    allocations += test::allocations_in([&] {
      fit_problem_sizes(parked, P, &R, nv, nc, nl);
      fill(P, R, nc, nl, i);
    });
    random = start;
    ContactProblem fresh;
    ContactResult fresh_result;
    fresh.v.resize(nv), fresh.v_star.resize(nv), fresh_result.v_plus.resize(nv);
    for (Eigen::VectorXd* x : {&fresh.phi, &fresh.mu, &fresh.mu_viscous, &fresh.p_N_guess, &fresh.p_S_guess,
                               &fresh.p_T_guess, &fresh_result.p_N, &fresh_result.p_S, &fresh_result.p_T})
      x->resize(nc);
    fill(fresh, fresh_result, nc, nl, i);
    for (const auto& [X, Y] : {std::pair{&P.N, &fresh.N}, {&P.S, &fresh.S}, {&P.T, &fresh.T}, {&P.L, &fresh.L}}) {
      ASSERT_EQ(X->rows(), Y->rows()) << nc << " contacts, " << nl << " limits";
      ASSERT_EQ(X->cols(), nv);
      ASSERT_EQ(X->nonZeros(), Y->nonZeros()) << nc << " contacts, " << nl << " limits";
      ASSERT_TRUE(Eigen::MatrixXd(*X) == Eigen::MatrixXd(*Y)) << nc << " contacts, " << nl << " limits";
    }
    ASSERT_EQ(P.v.size(), nv);
    ASSERT_EQ(R.v_plus.size(), nv);
    ASSERT_EQ(P.phi, fresh.phi);
    ASSERT_EQ(R.p_T, fresh_result.p_T);
    ASSERT_EQ(P.p_L_guess.size(), nl);
    ASSERT_EQ(R.p_L.size(), nl);
  }
  EXPECT_EQ(allocations, 0);
}

TEST(ContactSetAllocation, ImpulsesFitEveryContactCountBelowTheReserve) {
  // Reserved for the most contacts (ControlStage: the world's), no count up to it allocates, the first one met
  // included; a copy holds its values in storage of its own.
  InverseDynamicsSolution solution;
  solution.reserve_impulses(8);
  long allocations = 0;
  for (int nc : {3, 0, 7, 1, 8, 5, 2, 6, 4, 8, 0}) {
    allocations += test::allocations_in([&] { solution.fit_impulses(nc); });
    ASSERT_EQ(solution.p_N.size(), nc);
    ASSERT_EQ(solution.p_S.size(), nc);
    ASSERT_EQ(solution.p_T.size(), nc);
  }
  EXPECT_EQ(allocations, 0);
  solution.fit_impulses(5);
  solution.p_N.setLinSpaced(1, 5);
  const InverseDynamicsSolution copy = solution;
  solution.p_N.setZero();
  EXPECT_EQ(copy.p_N, Eigen::VectorXd::LinSpaced(5, 1, 5));
}

// An ID variant whose every τ exceeds its limit, for the effort limits' re-solves: τ_a = 2 τ̄_a whatever the
// problem, v⁺ = v* and p = [N v*; S v*; T v*] of the problem it is given (the v* of EL1 in a re-solve), so
// each round holds one more joint, down to every one held.
class OverTheLimit final : public InverseDynamicsSolver {
 public:
  explicit OverTheLimit(double bound) : bound_(bound) {}
  std::string_view name() const override { return "over_the_limit"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override {
    const ContactProblem& cp = *problem.contact;
    solution.stats = {};
    solution.fallbacks = 0;
    solution.tau.setConstant(static_cast<Eigen::Index>(problem.actuated.size()), 2 * bound_);
    solution.v_plus = cp.v_star;
    solution.fit_impulses(cp.nc);
    solution.p_N.noalias() = cp.N * cp.v_star;
    solution.p_S.noalias() = cp.S * cp.v_star;
    solution.p_T.noalias() = cp.T * cp.v_star;
  }

 private:
  double bound_;
};

/// LINKS' shape for the effort limits: 8 coordinates, the last 6 driven with an effort out of OverTheLimit's
/// reach, and rows of N, S, T for any contact count (contacts(nc)), each over three coordinates.
struct EffortLimitsProblem {
  static constexpr int nv = 8;
  static constexpr double dt = 1e-3, effort = 5, bound = effort * dt;
  std::mt19937 random{7};
  std::uniform_real_distribution<double> uniform{-1, 1};
  Eigen::MatrixXd M;
  Eigen::LLT<Eigen::MatrixXd> M_llt;
  ContactProblem cp;
  InverseDynamicsProblem problem;

  EffortLimitsProblem() {
    Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(nv, nv, [&] { return uniform(random); });
    M = A * A.transpose() + Eigen::MatrixXd::Identity(nv, nv);
    M_llt.compute(M);
    cp.dt = dt;
    cp.nv = nv;
    cp.systems = {SystemBlock{0, nv, &M, &M_llt}};
    cp.v = Eigen::VectorXd::Zero(nv);
    cp.v_star = Eigen::VectorXd::NullaryExpr(nv, [&] { return uniform(random); });
    problem.contact = &cp;
    problem.actuated = {2, 3, 4, 5, 6, 7};
    problem.qd_des = Eigen::VectorXd::Constant(6, 1e3);   // out of reach: a held joint never returns
    problem.effort = Eigen::VectorXd::Constant(6, effort);
  }
  void contacts(int nc) {
    cp.nc = nc;
    for (SparseRows* X : {&cp.N, &cp.S, &cp.T}) {
      X->resize(nc, nv);
      for (int r = 0; r < nc; ++r)
        for (int k = 0; k < 3; ++k) X->insert(r, (r + 3 * k) % nv) = uniform(random);
      X->makeCompressed();
    }
  }
  /// A solve of `limits` at nc contacts: allocations counted, held to a fresh EffortLimits' bits and to every
  /// driven set from none held to all six, the caller's v* given back.
  long solve_as_fresh(EffortLimits& limits, OverTheLimit& solver, InverseDynamicsSolution& solution, int nc) {
    contacts(nc);
    const Eigen::VectorXd v_star = cp.v_star;
    const long allocations = test::allocations_in([&] { limits.solve(solver, problem, cp, solution); });
    EXPECT_TRUE((cp.v_star.array() == v_star.array()).all()) << "nc " << nc;
    EffortLimits fresh_limits;
    OverTheLimit fresh_solver(bound);
    InverseDynamicsSolution fresh;
    fresh_limits.solve(fresh_solver, problem, cp, fresh);
    EXPECT_EQ(solution.effort_rounds, 7) << "nc " << nc;
    EXPECT_EQ(solution.tau, fresh.tau) << "nc " << nc;
    EXPECT_EQ(solution.saturated, fresh.saturated) << "nc " << nc;
    EXPECT_EQ(solution.v_plus, fresh.v_plus) << "nc " << nc;
    EXPECT_EQ(solution.p_N, fresh.p_N) << "nc " << nc;
    EXPECT_EQ(solution.p_S, fresh.p_S) << "nc " << nc;
    EXPECT_EQ(solution.p_T, fresh.p_T) << "nc " << nc;
    EXPECT_NE(solution.v_plus, v_star) << "nc " << nc;   // the last round's v⁺ is (EL1)'s v*, not the caller's
    return allocations;
  }
};

TEST(ContactSetAllocation, EffortLimitsReSolveEveryContactCountWithoutACopy) {
  // The re-solves' problem is the caller's with v* of (EL1) lent to it: once the limits have re-solved the
  // most contacts (every driven set met), any contact count in any order allocates nothing in EffortLimits,
  // each gives the bits of a fresh EffortLimits, and the caller's v* comes back as it was.
  constexpr int most = 8;
  EffortLimitsProblem p;
  OverTheLimit solver(p.bound);
  EffortLimits limits;
  InverseDynamicsSolution solution;
  p.contacts(most);
  limits.solve(solver, p.problem, p.cp, solution);
  ASSERT_EQ(solution.effort_rounds, 7);   // every driven set from none held to all six
  long allocations = 0;
  for (int nc : {3, 0, 7, 1, 5, 2, 6, 4, 8, 1}) allocations += p.solve_as_fresh(limits, solver, solution, nc);
  EXPECT_EQ(allocations, 0);
}

TEST(ContactSetAllocation, EffortLimitsReservedAllocateNothingForAContactCountFirstMetOnceWarm) {
  // Reserved for the most contacts the world can hold (ControlStage), the limits allocate nothing for a count
  // above every one solved so far: warmed on one contact only, the counts up to the most in an order no trot
  // follows (the replays meet a new most after their warm-up, which one CPU's rounding decides).
  constexpr int most = 8;
  EffortLimitsProblem p;
  OverTheLimit solver(p.bound);
  EffortLimits limits;
  limits.reserve(6, p.nv, most);
  InverseDynamicsSolution solution;
  solution.reserve_impulses(most);
  p.contacts(1);
  limits.solve(solver, p.problem, p.cp, solution);   // the caller's solution and OverTheLimit's buffers
  ASSERT_EQ(solution.effort_rounds, 7);
  long allocations = 0;
  for (int nc : {5, 0, 8, 2, 7, 3, 6, 4, 1}) allocations += p.solve_as_fresh(limits, solver, solution, nc);
  EXPECT_EQ(allocations, 0);
}

/// OverTheLimit whose re-solves throw, which no variant does (InverseDynamicsSolver::solve never throws).
class ThrowingOnReSolve final : public InverseDynamicsSolver {
 public:
  explicit ThrowingOnReSolve(double bound) : plain_(bound) {}
  std::string_view name() const override { return "throwing_on_re_solve"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override {
    if (calls_++ > 0) throw std::runtime_error("re-solve");
    plain_.solve(problem, solution);
  }

 private:
  OverTheLimit plain_;
  int calls_ = 0;
};

TEST(EffortLimitsLending, AnExceptionInAReSolveGivesTheCallersVStarBack) {
  // The re-solve reads v* of (EL1) from the caller's problem, lent for its scope: the caller's v* (the same
  // vector) is back when the re-solve throws as when it returns.
  EffortLimitsProblem p;
  p.contacts(3);
  const Eigen::VectorXd v_star = p.cp.v_star;
  const double* storage = p.cp.v_star.data();
  ThrowingOnReSolve solver(p.bound);
  EffortLimits limits;
  InverseDynamicsSolution solution;
  EXPECT_THROW(limits.solve(solver, p.problem, p.cp, solution), std::runtime_error);
  EXPECT_EQ(p.cp.v_star.data(), storage);
  EXPECT_TRUE((p.cp.v_star.array() == v_star.array()).all());
}

}  // namespace
}  // namespace impetus
