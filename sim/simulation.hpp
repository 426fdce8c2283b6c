// A whole run: load-time choices, the step loop, recording, and how the run ended.
#pragma once

#include <functional>
#include <string>

#include "sim/recorder.hpp"
#include "sim/world.hpp"

namespace impetus {

struct RunOptions {
  std::string contact_model;        // empty: the scene's
  double dt = 0;                    // s; 0: the scene's
  double duration = -1;             // s; < 0: the scene's
  double record_dt = 0.01;          // s; 0: every step
  std::string out_dir;              // where the files go
  std::function<void(double fraction_done)> progress;  // called now and then; may be empty
};

struct RunReport {
  std::string status;               // "ok", "diverged", or the reason the run stopped
  std::string contact_model;
  double dt = 0;
  RunTotals totals;
};

/// Runs the world from its initial state and writes the run folder. Never throws for a numerical
/// failure: a non-finite state stops the run with status "diverged" and keeps what was recorded.
RunReport run_simulation(const World& world, const RunOptions& options);

}  // namespace impetus
