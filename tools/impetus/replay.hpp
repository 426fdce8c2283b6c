// impetus replay NAME [--controller C] [--terrain T] [--model M] [--duration S] [--out DIR] | --list
// (sim/replay/replay_registry.hpp): builds the replay's scene into the run folder, runs it as `impetus run`
// does, and writes metrics.json (sim/replay/replay_metrics.hpp) beside the usual run files.
#pragma once

#include <ostream>
#include <string>

#include "sim/replay/replay_registry.hpp"

namespace impetus {

struct ReplayCommandOptions {
  ReplayRequest request;
  bool list = false;
  std::string out_dir;          // default runs/replay/NAME
  std::string models_dir;       // the repository's models/
};

/// Exit status as `impetus run`'s; --list prints one replay per line: name, what, terrains, controllers.
int replay_command(const ReplayCommandOptions& options, std::ostream& out);

}  // namespace impetus
