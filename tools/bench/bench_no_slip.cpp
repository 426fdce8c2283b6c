// Contact-solve time of the seed-000 models against the number of contacts, Google Benchmark.
//
//   build/bench/bench_no_slip                                   every benchmark
//   build/bench/bench_no_slip --benchmark_filter=Box            the n = 4 … 1024 sweep
//   build/bench/bench_no_slip --grasp_report=1000               also step the grasp 1000 times with
//                                                               no_slip and stewart_trinkle and print
//                                                               drift, fallbacks, failures, time
//
// Box/n:   one free box (0.4 × 0.4 × 0.2 m, 2 kg) resting on the ground under gravity, its bottom face
//          carrying n coplanar contacts on a grid (n = 4 … 1024): nv = 6, rank N = rank [S; T] = 3.
//          Warm: p_N_guess = the previous solve's p_N (the stepper's steady state); Cold: no guess.
// Grasp:   the seed-000 grasp of tests/contact/test_no_slip_grasp.hpp at its initial state: 36
//          contacts, nv = 14, the squeezing grippers and the boxes' weight in v*.
// Each benchmark times ContactModel::solve only (the problem is built once, outside the loop).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "contact/factory.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "tests/contact/test_no_slip_grasp.hpp"

namespace {

using namespace impetus;

/// The box of Box/n with its n bottom contacts on an r × c grid (r·c = n, r ≤ c).
test::ProblemBuilder box_with_contacts(int n) {
  const Eigen::Vector3d size(0.4, 0.4, 0.2), C(0, 0, 0.1);
  test::ProblemBuilder b;
  b.dt = 1e-3;
  b.add(test::free_box(2.0, size, C));
  int rows = 1;
  while (rows * rows < n) rows *= 2;
  if (rows * rows > n) rows /= 2;
  const int cols = n / rows;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      test::ContactSpec s;
      s.p = Eigen::Vector3d(-0.2 + 0.4 * i / std::max(rows - 1, 1), -0.2 + 0.4 * j / std::max(cols - 1, 1), 0);
      s.key = {0, -1, i * cols + j};
      b.contacts.push_back(s);
    }
  return b;
}

void solve_loop(benchmark::State& state, ContactModel& model, ContactProblem& P, bool warm) {
  ContactResult r;
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  model.solve(P, r, *workspace);   // warm the buffers
  long pivots = 0, calls = 0, fallbacks = 0;
  for (auto _ : state) {
    if (warm) P.p_N_guess = r.p_N;
    model.solve(P, r, *workspace);
    benchmark::DoNotOptimize(r.v_plus.data());
    pivots += r.stats.iterations;
    fallbacks += r.stats.status != SolveStatus::Solved;
    ++calls;
  }
  state.counters["contacts"] = P.nc;
  state.counters["pivots"] = static_cast<double>(pivots) / std::max(calls, 1L);
  state.counters["fallbacks"] = static_cast<double>(fallbacks);
  state.SetComplexityN(P.nc);
}

void Box(benchmark::State& state, const char* model_name, bool warm) {
  test::ProblemBuilder b = box_with_contacts(static_cast<int>(state.range(0)));
  ContactProblem P = b.build(Eigen::VectorXd::Zero(6), b.gravity_force());
  auto model = make_contact_model(model_name, {});
  solve_loop(state, *model, P, warm);
}

void Grasp(benchmark::State& state, const char* model_name) {
  test::GraspSimulation sim({});
  test::ProblemBuilder b;
  ContactProblem P = sim.problem(b);
  auto model = make_contact_model(model_name, {});
  solve_loop(state, *model, P, true);
}

BENCHMARK_CAPTURE(Box, no_slip_warm, "no_slip", true)->RangeMultiplier(2)->Range(4, 1024)->Complexity();
BENCHMARK_CAPTURE(Box, no_slip_cold, "no_slip", false)->RangeMultiplier(2)->Range(4, 1024)->Complexity();
BENCHMARK_CAPTURE(Box, viscous_warm, "viscous", true)->RangeMultiplier(2)->Range(4, 1024)->Complexity();
BENCHMARK_CAPTURE(Box, stewart_trinkle, "stewart_trinkle", true)->RangeMultiplier(2)->Range(4, 64);
BENCHMARK_CAPTURE(Grasp, no_slip, "no_slip");
BENCHMARK_CAPTURE(Grasp, stewart_trinkle, "stewart_trinkle");

/// Steps the grasp `steps` times with a model and prints what happened to the grasp.
void grasp_report(const char* model_name, test::GraspSetup::Variant variant, int steps) {
  test::GraspSetup setup;
  setup.variant = variant;
  test::GraspSimulation sim(setup);
  auto model = make_contact_model(model_name, {});
  const Eigen::Vector3d r0[2] = {sim.box_relative(0), sim.box_relative(1)};
  double drift = 0, solve_seconds = 0;
  int fallbacks = 0, failures = 0, max_pivots = 0, lost_at = -1, done = 0;
  for (int k = 0; k < steps; ++k) {
    const auto start = std::chrono::steady_clock::now();
    sim.step(*model);
    solve_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const SolverStatistics& s = sim.result().stats;
    fallbacks += s.status == SolveStatus::Fallback;
    failures += s.status == SolveStatus::Failed;
    max_pivots = std::max(max_pivots, s.iterations);
    done = k + 1;
    if (!sim.finite()) break;
    for (int i = 0; i < 2; ++i) drift = std::max(drift, (sim.box_relative(i) - r0[i]).norm());
    if (lost_at < 0 && drift > 1e-3) lost_at = k + 1;
  }
  std::printf("grasp %-16s %-15s steps %4d  max drift %9.3g m  drift > 1 mm at step %5d  fallbacks %4d  "
              "failures %4d  max pivots %5d  %.3f s (%.3g ms/step)\n",
              model_name, variant == test::GraspSetup::Variant::CornerNormals ? "corner_normals" : "duplicates", done,
              drift, lost_at, fallbacks, failures, max_pivots, solve_seconds, 1e3 * solve_seconds / std::max(done, 1));
}

}  // namespace

int main(int argc, char** argv) {
  int grasp_steps = 0;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--grasp_report=", 15) == 0) grasp_steps = std::atoi(argv[i] + 15);
  if (grasp_steps > 0) {
    for (auto variant : {test::GraspSetup::Variant::CornerNormals, test::GraspSetup::Variant::Duplicates})
      for (const char* model : {"no_slip", "stewart_trinkle"}) grasp_report(model, variant, grasp_steps);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
