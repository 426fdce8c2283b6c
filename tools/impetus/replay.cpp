// impetus replay (replay.hpp).
#include "replay.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sys/wait.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sim/replay/replay_metrics.hpp"
#include "sim/replay/replay_report.hpp"
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

/// Median and 90th percentile of samples (sorted in place); 0 for none.
std::pair<double, double> median_p90(std::vector<double>& x) {
  if (x.empty()) return {0, 0};
  std::sort(x.begin(), x.end());
  return {x[x.size() / 2], x[std::min(x.size() - 1, x.size() * 9 / 10)]};
}

struct CellResult {
  RunReport report;
  std::string dir;
};

/// One replay run into dir: replay.xml, the run files, metrics.json, series.csv and timing.json.
CellResult run_cell(const ReplayRequest& request, const std::string& models_dir, const std::string& dir) {
  const std::string scene = write_replay_scene(request, models_dir, dir);
  const World world = load_scene(scene);
  const bool controlled = !world.model.controllers.empty();
  ReplayMetricsAccumulator metrics(world.model, controlled ? 0 : -1, replay_watch(request.name).tracked_joints,
                                   replay_watch(request.name, world.model));
  metrics.start(world.initial);
  std::vector<double> contact_times, control_times;
  std::map<int, std::vector<double>> by_contacts;   // ID call times by the step's contact count (Fig. 19)
  double contacts = 0;
  RunOptions run;
  run.out_dir = dir;
  run.threads = 1;   // timings of one core; the bits do not depend on it
  run.after_step = [&](const State& state, const Stepper& stepper) {
    const StepData& data = stepper.data();
    metrics.observe(state, data, stepper.dt());
    contact_times.push_back(data.times.contact);
    contacts += data.stats.contacts;
    if (controlled && data.control.at(0).called) {
      control_times.push_back(data.times.control);
      by_contacts[data.stats.contacts].push_back(data.times.control);
    }
    return std::string();
  };
  const auto start = std::chrono::steady_clock::now();
  const RunReport report = run_simulation(world, run);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_replay_metrics(dir + "/metrics.json", controlled ? request.controller.empty() ? world.model.controllers[0].settings.type
                                                                                       : request.controller
                                                         : "none",
                       metrics.result());
  write_replay_series(dir + "/series.csv", metrics.series());
  // Clock readings: not in metrics.json, which must be the same from run to run.
  nlohmann::ordered_json t;
  const size_t steps = contact_times.size();
  double contact_total = 0, control_total = 0;
  for (double x : contact_times) contact_total += x;
  for (double x : control_times) control_total += x;
  const auto [contact_median, contact_p90] = median_p90(contact_times);
  const auto [control_median, control_p90] = median_p90(control_times);
  t["wall_s"] = wall;
  t["steps"] = steps;
  t["status"] = report.status;
  t["mean_contacts"] = steps ? contacts / steps : 0.0;
  t["contact_stage_s"] = {{"total", contact_total}, {"mean", steps ? contact_total / steps : 0.0}, {"median", contact_median},
                          {"p90", contact_p90}};
  // The control stage of a step with a call: the ID call (Fig. 19), with the stage's small overhead.
  t["id_call_s"] = {{"calls", control_times.size()},
                    {"mean", control_times.empty() ? 0.0 : control_total / control_times.size()},
                    {"median", control_median},
                    {"p90", control_p90}};
  nlohmann::ordered_json fig19 = nlohmann::ordered_json::array();
  for (auto& [nc, times] : by_contacts) {
    const auto [median, p90] = median_p90(times);
    fig19.push_back({{"contacts", nc}, {"calls", times.size()}, {"median", median}, {"p90", p90}});
  }
  t["id_call_s_by_contacts"] = fig19;
  std::ofstream out(dir + "/timing.json");
  out << t.dump(2) << '\n';
  if (!out) throw std::runtime_error("cannot write " + dir + "/timing.json");
  return {report, dir};
}

int exit_status(const RunReport& report) {
  if (report.status == "ok") return 0;
  return report.status == "unsolved" ? 4 : 3;
}

}  // namespace

int replay_command(const ReplayCommandOptions& options, std::ostream& out) {
  if (options.list) {
    for (const ReplayInfo& r : replay_list()) {
      out << r.name << "  " << r.what << "; terrains " << joined(r.terrains) << "; controllers " << joined(r.controllers);
      if (!r.models.empty()) out << "; models " << joined(r.models);
      out << "; " << r.duration << " s; version " << r.version << '\n';
    }
    return 0;
  }
  if (options.request.name.empty()) throw std::invalid_argument("replay: a replay NAME or --list expected");
  const std::string dir = options.out_dir.empty() ? "runs/replay/" + options.request.name : options.out_dir;
  if (options.matrix) {
    const ReplayInfo& info = find_replay(options.request.name);
    std::vector<ReplayCell> cells;
    const std::vector<std::string> models = info.models.empty() ? std::vector<std::string>{""} : info.models;
    for (const std::string& terrain : info.terrains)
      for (const std::string& controller : info.controllers)
        for (const std::string& model : models) {
          ReplayRequest r = options.request;
          r.terrain = terrain;
          r.controller = controller;
          r.contact_model = model;
          std::string name = terrain + "-" + controller;
          if (!model.empty()) name += "-" + model;
          std::replace(name.begin(), name.end(), ':', '_');
          // Each cell in a child process: a cell that crashes is reported, not the end of the matrix.
          const std::string cell_dir = dir + "/" + name;
          std::string command = "'" + std::filesystem::read_symlink("/proc/self/exe").string() + "' replay " + r.name + " --terrain " + terrain + " --controller " + controller;
          if (!model.empty()) command += " --model " + model;
          if (r.duration >= 0) command += " --duration " + std::to_string(r.duration);
          command += " --out '" + cell_dir + "' > '" + cell_dir + ".log' 2>&1";
          std::filesystem::create_directories(cell_dir);
          const int rc = std::system(command.c_str());
          std::string status = "exit " + std::to_string(WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
          if (WIFSIGNALED(rc)) status = "crashed (signal " + std::to_string(WTERMSIG(rc)) + ")";
          if (WIFEXITED(rc) && WEXITSTATUS(rc) == 0) status = "ok";
          out << name << ": " << status << "\n" << std::flush;
          cells.push_back({terrain, controller, model, cell_dir, status});
        }
    write_replay_report(info, cells, options.command_line, dir);
    out << "output: " << dir << "/ (one folder per cell, report.md, report.html)\n";
    return 0;
  }
  const CellResult c = run_cell(options.request, options.models_dir, dir);
  out << options.request.name << ": " << c.report.status << ", " << c.report.totals.steps << " steps under "
      << c.report.contact_model << "\noutput: " << dir << "/ (replay.xml, the run files, metrics.json, series.csv, timing.json)\nstatus: "
      << c.report.status << '\n';
  return exit_status(c.report);
}

}  // namespace impetus
