// impetus replay (replay.hpp).
#include "replay.hpp"

#include <stdexcept>

#include "sim/replay/replay_metrics.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

int replay_command(const ReplayCommandOptions& options, std::ostream& out) {
  if (options.list) {
    for (const ReplayInfo& r : replay_list())
      out << r.name << "  " << r.what << "; terrains " << joined(r.terrains) << "; controllers " << joined(r.controllers)
          << "; " << r.duration << " s; version " << r.version << '\n';
    return 0;
  }
  if (options.request.name.empty()) throw std::invalid_argument("replay: a replay NAME or --list expected");
  const std::string dir = options.out_dir.empty() ? "runs/replay/" + options.request.name : options.out_dir;
  const std::string scene = write_replay_scene(options.request, options.models_dir, dir);
  const World world = load_scene(scene);
  const ControllerSpec& spec = world.model.controllers.at(0);
  ReplayMetricsAccumulator metrics(world.model, 0);
  RunOptions run;
  run.out_dir = dir;
  run.after_step = [&](const State& state, const Stepper& stepper) {
    metrics.observe(state, stepper.data(), stepper.dt());
    return std::string();
  };
  const RunReport report = run_simulation(world, run);
  write_replay_metrics(dir + "/metrics.json", spec.settings.type, metrics.result());
  out << options.request.name << ": " << report.status << ", " << report.totals.steps << " steps under "
      << report.contact_model << "\noutput: " << dir << "/ (replay.xml, the run files, metrics.json)\nstatus: "
      << report.status << '\n';
  if (report.status == "ok") return 0;
  return report.status == "unsolved" ? 4 : 3;
}

}  // namespace impetus
