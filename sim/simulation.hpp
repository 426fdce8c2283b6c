// A whole run: load-time choices, the step loop, recording, and how the run ended.
#pragma once

#include <functional>
#include <string>

#include "sim/recorder.hpp"
#include "sim/world.hpp"

namespace impetus {

class Stepper;

struct RunOptions {
  std::string contact_model;        // empty: the scene's
  double dt = 0;                    // s; 0: the scene's
  double duration = -1;             // s; < 0: the scene's
  double record_dt = 0.01;          // s; 0: every step
  int threads = 0;                  // threads of the contact stage (Stepper); 0: every core. Same bits for any
  std::string out_dir;              // where the files go
  std::string dump_problems_dir;    // non-empty: every step's ContactProblems go there (contact/dump/)
  std::function<void(double fraction_done)> progress;  // called now and then; may be empty
  /// Restart hook, called once before the first step (may be empty): it may replace the initial state
  /// by a restart point's (the run then continues from state.t, on the step grid k·dt) and restore the
  /// stepper's warm-start memory.
  std::function<void(State& state, Stepper& stepper)> before_first_step;
  /// Called after every step, recorded or not (may be empty), with the new state and the stepper
  /// (whose data() holds what the step computed). A non-empty return stops the run there, with
  /// status "stopped: " and that reason; the step is recorded as the last.
  std::function<std::string(const State& state, const Stepper& stepper)> after_step;
  /// Asked once per step, after the step: true ends the run there with status "interrupted" (the
  /// step is recorded and the summary written as for any last step). May be empty. The CLI answers
  /// it from its SIGINT/SIGTERM handler.
  std::function<bool()> interrupted;
};

struct RunReport {
  std::string status;               // "ok", "unsolved", "diverged", "interrupted", or the reason the run stopped
  std::string status_detail;        // for "diverged": what exceeded its bound, and when
  std::string contact_model;
  double dt = 0;
  double energy_max_rise = 0;       // J: max over the run of E − E₀ − W (sim/divergence.hpp)
  RunTotals totals;
};

/// Runs the world from its initial state and writes the run folder. Never throws for a numerical
/// failure: a state beyond the bounds of sim/divergence.hpp stops the run with status "diverged" and
/// keeps what was recorded; a run that ends with steps a solver failed on is "unsolved";
/// options.interrupted() stops it at the step boundary with status "interrupted".
RunReport run_simulation(const World& world, const RunOptions& options);

}  // namespace impetus
