#include "sim/simulation.hpp"

#include <cmath>
#include <filesystem>

#include "contact/dump/problem_dump.hpp"
#include "sim/divergence.hpp"
#include "sim/output/geometry_json.hpp"
#include "sim/stepper.hpp"

namespace impetus {

RunReport run_simulation(const World& world, const RunOptions& options) {
  RunReport report;
  report.contact_model = options.contact_model.empty() ? world.model.physics.contact_model : options.contact_model;
  report.dt = options.dt > 0 ? options.dt : world.model.physics.dt;
  const double duration = options.duration >= 0 ? options.duration : world.model.physics.duration;
  const long steps = std::lround(duration / report.dt);

  Stepper stepper(world.model, report.contact_model, report.dt, options.threads);
  Recorder recorder(world.model, options.out_dir, report.dt, options.record_dt);
  write_geometry_json(world.model, std::filesystem::path(options.out_dir) / "geometry.json");
  State state = world.initial;
  if (options.before_first_step) options.before_first_step(state, stepper);
  const long first = std::lround(state.t / report.dt);   // 0, or the step of a restart point
  DivergenceMonitor monitor(world.model, state, report.dt);
  recorder.record_initial(state);
  report.status = "ok";
  const long progress_every = std::max(1L, steps / 200);
  const ModelOptions* model_options = nullptr;
  if (!options.dump_problems_dir.empty()) {
    std::filesystem::create_directories(options.dump_problems_dir);
    static const ModelOptions kNone;
    const auto it = world.model.physics.model_options.find(report.contact_model);
    model_options = it == world.model.physics.model_options.end() ? &kNone : &it->second;
  }
  try {
    for (long k = first + 1; k <= steps; ++k) {
      const double t_start = state.t;
      stepper.step(state);
      if (model_options) {
        const StepData& d = stepper.data();
        write_problem_dump((std::filesystem::path(options.dump_problems_dir) / problem_dump_file_name(k)).string(),
                           report.contact_model, *model_options, k, t_start, d.problems, d.islands.size());
      }
      state.t = k * report.dt;  // no accumulated round-off in t
      const std::string diverged = monitor.check(state, stepper.data());
      const std::string stop = diverged.empty() && options.after_step ? options.after_step(state, stepper) : std::string();
      const bool interrupted = options.interrupted && options.interrupted();
      recorder.record_step(state, stepper.data(), k == steps || !diverged.empty() || !stop.empty() || interrupted);
      if (!diverged.empty()) {
        report.status = "diverged";
        report.status_detail = "at t = " + std::to_string(state.t) + " s (step " + std::to_string(k) + "): " + diverged;
        break;
      }
      if (!stop.empty()) {
        report.status = "stopped: " + stop;
        break;
      }
      if (interrupted && k < steps) {
        report.status = "interrupted";
        break;
      }
      if (options.progress && k % progress_every == 0) options.progress(double(k) / steps);
    }
  } catch (const std::exception& e) {
    report.status = std::string("stopped: ") + e.what();
  }
  if (report.status == "ok" && recorder.totals().unsolved_steps > 0) report.status = "unsolved";
  report.energy_max_rise = monitor.energy_max_rise();
  recorder.finish({report.status, report.status_detail, report.energy_max_rise}, report.contact_model, report.dt);
  report.totals = recorder.totals();
  return report;
}

}  // namespace impetus
