// The ECP model (seed 003) on its scenes (Google Benchmark). One iteration is a whole run of the scene
// from its initial state (the desk: the paper's 4 s at dt = 0.01, 400 steps), so every iteration times the
// same steps; the counters are per step. The paper reports 5.3 ms per step for the desk (MATLAB, 2.6 GHz).
//   build/bench/bench_ecp [--benchmark_filter=desk]
#include <benchmark/benchmark.h>

#include <algorithm>

#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace {

using namespace impetus;

void run_scene(benchmark::State& bench, const std::string& file) {
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/" + file);
  const int steps = static_cast<int>(std::lround(world.model.physics.duration / world.model.physics.dt));
  StageTimes times;
  long iterations = 0, attempts = 0, failures = 0;
  int max_iterations = 0;
  for (auto _ : bench) {
    Stepper stepper(world.model, "ecp", world.model.physics.dt);
    State state = world.initial;
    for (int k = 0; k < steps; ++k) {
      stepper.step(state);
      const StepData& d = stepper.data();
      times += d.times;
      iterations += d.stats.solver_iterations;
      max_iterations = std::max(max_iterations, d.stats.solver_iterations);
      failures += d.stats.solver_failures;
      for (const ContactResult& r : d.results) attempts += r.stats.attempts;
    }
  }
  const double n = static_cast<double>(bench.iterations()) * steps;
  bench.counters["step_us"] = 1e6 * times.stepping() / n;
  bench.counters["contact_us"] = 1e6 * times.contact / n;
  bench.counters["newton_it_per_step"] = iterations / n;
  bench.counters["max_newton_it"] = max_iterations;
  bench.counters["runs_per_step"] = attempts / n;   // Newton starts (EcpModel::kRuns at most)
  bench.counters["failures"] = static_cast<double>(failures);
}

void BM_ecp_desk(benchmark::State& s) { run_scene(s, "ecp_desk.xml"); }
BENCHMARK(BM_ecp_desk)->Unit(benchmark::kMillisecond);

void BM_ecp_tbar(benchmark::State& s) { run_scene(s, "ecp_tbar.xml"); }
BENCHMARK(BM_ecp_tbar)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
