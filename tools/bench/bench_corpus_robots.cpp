// The corpus robots of tests/sim/corpus_robots.hpp for the full 2 s under the three main contact
// models, as a markdown table: status, solver failures and fallbacks, max penetration, energy rise
// (max of E − E₀ − W, sim/divergence.hpp) and wall time of the stepping.
//
//   build/bench/bench_corpus_robots [--duration S] [--robot NAME] [--model NAME] [--dump-problems DIR]
//
// --dump-problems writes every step's contact problems (contact/dump/) to DIR/ROBOT_MODEL, for
// `impetus solve` to replay the ones a model failed on.
#include <cstdio>
#include <cstring>
#include <string>

#include "base/load_error.hpp"
#include "sim/simulation.hpp"
#include "tests/sim/corpus_robots.hpp"

int main(int argc, char** argv) {
  using namespace impetus;
  double duration = 2.0;
  std::string only_robot, only_model, dump_dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--duration")) duration = std::stod(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--robot")) only_robot = argv[i + 1];
    else if (!std::strcmp(argv[i], "--model")) only_model = argv[i + 1];
    else if (!std::strcmp(argv[i], "--dump-problems")) dump_dir = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: %s [--duration S] [--robot NAME] [--model NAME] [--dump-problems DIR]\n", argv[0]);
      return 2;
    }
  }
  if (corpus::robots().empty()) {
    std::fprintf(stderr, "no URDF corpus at %s\n", corpus::corpus_dir().c_str());
    return 2;
  }
  std::printf("| robot | base | model | status | failures | fallbacks | max penetration (mm) | energy rise (J) | E0 (J) | wall (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const corpus::Robot& robot : corpus::robots()) {
    if (!only_robot.empty() && robot.name != only_robot) continue;
    for (const char* model : {"stewart_trinkle", "no_slip", "max_dissipation"}) {
      if (!only_model.empty() && only_model != model) continue;
      corpus::ScopedPackagePath packages(robot.package_path);
      World world;
      try {
        world = corpus::robot_scene(robot, duration, model);
      } catch (const LoadError& e) {
        std::printf("| %s | | %s | refused: %s | | | | | | |\n", robot.name.c_str(), model, e.message().c_str());
        std::fflush(stdout);
        break;
      }
      RunOptions options;
      options.out_dir = "/tmp/bench_corpus_robots/" + world.model.name + "_" + model;
      if (!dump_dir.empty()) options.dump_problems_dir = dump_dir + "/" + robot.name + "_" + model;
      const RunReport r = run_simulation(world, options);
      const RunTotals& t = r.totals;
      std::printf("| %s | %s | %s | %s | %ld | %ld | %.3g | %.3g | %.4g | %.2f |\n", robot.name.c_str(),
                  robot.fixed_base ? "fixed" : "floating", model, (r.status + (r.status_detail.empty() ? "" : " (" + r.status_detail + ")")).c_str(),
                  t.solver_failures, t.solver_fallbacks, 1e3 * t.max_penetration, r.energy_max_rise, t.energy_initial,
                  t.times.stepping());
      std::fflush(stdout);
    }
  }
  return 0;
}
