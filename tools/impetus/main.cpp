// impetus — the command line of DESIGN.md:
//   impetus run SCENE [--model NAME] [--dt S] [--duration S] [--record-dt S] [--out DIR] [--threads N]
//   impetus check SCENE|URDF [--strict]
//   impetus solve DUMP [--model M] [--repeat K]
//   impetus models
//   impetus view RUN_DIR [--serve] [--port N]
//   impetus batch | compare | models-compare   (batch_commands.hpp)
//   impetus replay NAME [--controller C] [--terrain T] [--model M] [--duration S] [--out DIR] [--matrix] | --list  (replay.hpp)
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "batch_commands.hpp"
#include "contact/factory.hpp"
#include "base/load_error.hpp"
#include "sim/collision_filter.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"
#include "sim/stepper.hpp"
#include "solve.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_summary.hpp"
#include "replay.hpp"
#include "view.hpp"

namespace {

using namespace impetus;

/// A one-line progress bar on a terminal, shown once a run has taken more than a second.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  void update(double fraction) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 1.0) return;
    constexpr int kWidth = 40;
    const int filled = static_cast<int>(fraction * kWidth);
    const double remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    std::fprintf(stderr, "\r[%s%s] %3.0f%%  %.0f s left ", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), 100 * fraction, remaining);
    shown_ = true;
  }
  ~ProgressBar() {
    if (shown_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  bool enabled_, shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

// SIGINT and SIGTERM (Ctrl-C, `timeout`, a scheduler's time limit): the first asks the run to end at
// the next step boundary, which it does as any last step (recorded, flushed, summary.json with status
// "interrupted"); the handler then restores the default action, so a second signal ends the process
// at once. Only async-signal-safe work in the handler: a sig_atomic_t and signal().
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_run_stop_signal(int signal_number) {
  g_stop_signal = signal_number;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

void install_stop_handlers() {
  struct sigaction action = {};
  action.sa_handler = on_run_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int command_models() {
  for (const ContactModelInfo& m : contact_models()) std::cout << m.name << "  " << m.summary << '\n';
  return 0;
}

void print_warnings(const std::vector<LoadWarning>& warnings) {
  for (const LoadWarning& w : warnings) std::cerr << w.text() << '\n';
}

/// A URDF on its own: loaded as a fixed-base model, summarized for comparison with urdfdom's facts.
int check_urdf(const std::string& path, bool strict) {
  const UrdfModel urdf = read_urdf(path);
  UrdfPlacement placement;
  placement.strict = strict;
  const UrdfMultibody out = urdf_to_multibody(urdf, placement);
  std::cout << path << ": ok: robot '" << urdf.name << "' (fixed base)\n";
  print_summary(std::cout, summarize_urdf(urdf.name, urdf, out.instance, out.multibody, out.geometries));
  return 0;
}

int command_check(const std::string& scene, bool strict) {
  if (scene.ends_with(".urdf") || scene.ends_with(".URDF")) return check_urdf(scene, strict);
  const World world = load_scene(scene, {strict});
  // Everything `run` builds before its first step, so that what it would refuse is refused here.
  try {
    Stepper stepper(world.model, world.model.physics.contact_model, world.model.physics.dt);
  } catch (const std::exception& e) {
    throw LoadError(scene, 0, e.what());
  }
  std::cout << scene << ": ok: scene '" << world.model.name << "', " << world.model.multibody.links.size()
            << " bodies, " << world.model.multibody.nv << " velocity coordinates, " << world.model.geometries.size()
            << " collision geometries, contact model " << world.model.physics.contact_model << ", "
            << world.model.warnings.size() << " warnings\n";
  for (const UrdfSummary& model : world.urdf_models) print_summary(std::cout, model);
  std::cout << describe_collision_pairs(world.model);
  return 0;
}

int command_run(const std::string& scene, bool strict, RunOptions options) {
  const World world = load_scene(scene, {strict});
  print_warnings(world.model.warnings);
  if (!options.contact_model.empty() && !is_contact_model(options.contact_model))
    throw std::invalid_argument("--model: unknown contact model '" + options.contact_model +
                                "' (see `impetus models`)");
  if (options.out_dir.empty()) options.out_dir = "runs/" + world.model.name;
  ProgressBar bar(isatty(STDERR_FILENO));
  options.progress = [&](double f) { bar.update(f); };
  options.interrupted = [] { return g_stop_signal != 0; };
  install_stop_handlers();
  const RunReport report = run_simulation(world, options);
  options.progress = nullptr;
  const RunTotals& t = report.totals;
  std::cout << world.model.name << ": " << report.status << ", " << t.steps << " steps of " << report.dt << " s with "
            << report.contact_model << ", " << t.times.stepping() << " s stepping; max penetration "
            << t.max_penetration << " m, solver failures " << t.solver_failures << ", fallbacks " << t.solver_fallbacks
            << "\noutput: " << options.out_dir
            << "/ (trajectory.csv, contacts.csv, stats.csv, summary.json, geometry.json); view it with: impetus view "
            << options.out_dir << '\n';
  // The last line says how the run ended, and why when it did not end well.
  std::cout << "status: " << report.status;
  if (report.status == "unsolved")
    std::cout << ": " << t.unsolved_steps << " of " << t.steps << " steps left unsolved (" << t.solver_failures
              << " solver failures)";
  if (!report.status_detail.empty()) std::cout << ": " << report.status_detail;
  std::cout << '\n';
  if (report.status == "interrupted") return 128 + g_stop_signal;   // as a shell reports a signal: 130, 143
  if (report.status == "ok") return 0;
  return report.status == "unsolved" ? 4 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"impetus — a time-stepping rigid-body simulator with pluggable contact models"};
  app.require_subcommand(1);

  std::string scene;
  bool strict = false;
  impetus::RunOptions options;
  CLI::App* run = app.add_subcommand("run", "simulate a scene and write a run folder");
  run->add_option("scene", scene, "scene file (.xml)")->required();
  run->add_option("--model", options.contact_model, "contact model (default: the scene's; see `impetus models`)");
  run->add_option("--dt", options.dt, "time step in s (default: the scene's)")->check(CLI::PositiveNumber);
  run->add_option("--duration", options.duration, "simulated time in s (default: the scene's)")->check(CLI::NonNegativeNumber);
  run->add_option("--record-dt", options.record_dt, "recording interval in s; 0 records every step (default 0.01)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--out", options.out_dir, "output folder (default: runs/<scene name>/)");
  run->add_option("--threads", options.threads,
                  "threads solving the contact stage's independent islands (default 0: every core); the results are "
                  "the same bits for any count")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--dump-problems", options.dump_problems_dir,
                  "write every step's contact problems into this folder (one .icp file per step; see `impetus solve`)");

  run->footer(
      "Exit status: 0 ok; 1 input refused; 3 diverged or stopped; 130 (SIGINT) or 143 (SIGTERM) interrupted:\n"
      "the run ended at the next step boundary with status \"interrupted\" in summary.json. A second signal\n"
      "ends the program at once.");

  impetus::SolveCommandOptions solve_options;
  CLI::App* solve = app.add_subcommand("solve", "solve the contact problems of a dump again; time and status per problem");
  solve->add_option("dump", solve_options.dump, "a .icp file or a folder of them (run --dump-problems)")->required();
  solve->add_option("--model", solve_options.model, "contact model (default: the one the dump was written under)");
  solve->add_option("--repeat", solve_options.repeat, "solves per problem; the fastest is reported (default 1)")
      ->check(CLI::PositiveNumber);
  const char* strict_help = "refuse URDF inertias the loader would otherwise repair with a warning";
  run->add_flag("--strict", strict, strict_help);

  CLI::App* check = app.add_subcommand("check", "validate a scene (or a URDF) without running it; print its models");
  check->add_option("scene", scene, "scene file (.xml) or URDF (.urdf)")->required();
  check->add_flag("--strict", strict, strict_help);
  app.add_subcommand("models", "list the contact models");

  std::string run_dir;
  bool serve = false;
  int port = impetus::kViewDefaultPort;
  CLI::App* view = app.add_subcommand("view", "write RUN_DIR/view.html, a self-contained 3-D replay of a run");
  view->add_option("run_dir", run_dir, "a folder written by `impetus run`")->required();
  view->add_flag("--serve", serve, "serve the page on 127.0.0.1 instead (for runs too large to inline)");
  view->add_option("--port", port, "port for --serve (0: any free port)");

  impetus::ReplayCommandOptions replay_options;
  replay_options.models_dir = IMPETUS_MODELS_DIR;
  if (const char* dir = std::getenv("IMPETUS_MODELS_DIR")) replay_options.models_dir = dir;
  CLI::App* replay = app.add_subcommand("replay", "run a named benchmark replay of the papers; writes metrics.json");
  replay->add_option("name", replay_options.request.name, "replay name (see --list)");
  replay->add_flag("--list", replay_options.list, "list the replays: name, what, terrains, controllers");
  replay->add_option("--controller", replay_options.request.controller, "controller (default: the replay's first)");
  replay->add_option("--terrain", replay_options.request.terrain, "terrain (default: the replay's first)");
  replay->add_option("--model", replay_options.request.contact_model,
                     "contact model (default stewart_trinkle; no_slip on a μ = ∞ terrain; a replay comparing models: its first)");
  replay->add_flag("--matrix", replay_options.matrix, "run every terrain × controller × model of the replay, write report.md and report.html");
  replay->add_option("--duration", replay_options.request.duration, "simulated time in s (default: the paper's)")
      ->check(CLI::NonNegativeNumber);
  replay->add_option("--out", replay_options.out_dir, "output folder (default runs/replay/NAME)");

  const impetus::BatchCommands batch(app);

  CLI11_PARSE(app, argc, argv);
  try {
    if (batch.parsed()) return batch.run();
    if (run->parsed()) return command_run(scene, strict, options);
    if (check->parsed()) return command_check(scene, strict);
    if (solve->parsed()) return impetus::solve_command(solve_options, std::cout);
    if (view->parsed()) return impetus::view_command(run_dir, serve, port, std::cout, std::cerr);
    if (replay->parsed()) {
      for (int i = 0; i < argc; ++i) replay_options.command_line += (i ? " " : "") + std::string(argv[i]);
      return impetus::replay_command(replay_options, std::cout);
    }
    return command_models();
  } catch (const impetus::LoadError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "impetus: error: " << e.what() << '\n';
    return 1;
  }
}
