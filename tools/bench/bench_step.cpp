// Step time of shipped scenes (Google Benchmark). Each iteration is one full step of the pipeline;
// the scene is first stepped through `--warm` seconds so the stack has settled.
//   build/bench/bench_step [--benchmark_filter=stack10]
#include <benchmark/benchmark.h>

#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace {

using namespace impetus;

void step_scene(benchmark::State& bench, const std::string& file, const std::string& model, double warm_seconds) {
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/" + file);
  const std::string name = model.empty() ? world.model.physics.contact_model : model;
  Stepper stepper(world.model, name, world.model.physics.dt);
  State state = world.initial;
  for (int k = 0; k < static_cast<int>(warm_seconds / stepper.dt()); ++k) stepper.step(state);
  StageTimes times;
  long contacts = 0;
  for (auto _ : bench) {
    stepper.step(state);
    times += stepper.data().times;
    contacts += stepper.data().stats.contacts;
  }
  const double n = static_cast<double>(bench.iterations());
  bench.counters["contacts"] = contacts / n;
  bench.counters["kinematics_us"] = 1e6 * times.kinematics / n;
  bench.counters["collision_us"] = 1e6 * times.collision / n;
  bench.counters["dynamics_us"] = 1e6 * times.dynamics / n;
  bench.counters["assembly_us"] = 1e6 * times.assembly / n;
  bench.counters["contact_us"] = 1e6 * times.contact / n;
  bench.counters["integration_us"] = 1e6 * times.integration / n;
  // Wall time per simulated second = step time / dt.
  bench.counters["s_per_sim_s"] = benchmark::Counter(times.stepping() / n / stepper.dt());
}

void BM_stack10_stewart_trinkle(benchmark::State& s) { step_scene(s, "stack10.xml", "stewart_trinkle", 0.1); }
BENCHMARK(BM_stack10_stewart_trinkle)->Unit(benchmark::kMicrosecond);

void BM_spheres_drop_stewart_trinkle(benchmark::State& s) { step_scene(s, "spheres_drop.xml", "stewart_trinkle", 1.0); }
BENCHMARK(BM_spheres_drop_stewart_trinkle)->Unit(benchmark::kMicrosecond);

// The pile's free fall (issue 16: "at ODE quick's cost"): 1001 spheres in a lattice, 1–2 thousand pairs within
// the collision margin, none closing in the step; the first lands at ~0.3 s.
void BM_granular_fall_max_dissipation(benchmark::State& s) { step_scene(s, "granular.xml", "max_dissipation", 0.1); }
BENCHMARK(BM_granular_fall_max_dissipation)->Unit(benchmark::kMicrosecond)->Iterations(100);   // 0.1–0.2 s: before any lands

}  // namespace

BENCHMARK_MAIN();
