// impetus replay NAME [--controller C] [--terrain T] [--model M] [--duration S] [--out DIR] [--matrix] | --list
// (sim/replay/replay_registry.hpp): builds the replay's scene into the run folder, runs it as `impetus run`
// does, and writes metrics.json (sim/replay/replay_metrics.hpp: deterministic) and timing.json (clock
// readings) beside the usual run files. --matrix runs every terrain × controller × model of the replay,
// one folder each, and writes report.md and report.html (sim/replay/replay_report.hpp, replay_html.hpp): our numbers beside the papers'.
#pragma once

#include <ostream>
#include <string>

#include "sim/replay/replay_registry.hpp"

namespace impetus {

struct ReplayCommandOptions {
  ReplayRequest request;
  bool list = false;
  bool matrix = false;          // every terrain × controller × model of the replay, then report.md and report.html
  std::string command_line;     // written into report.md
  std::string out_dir;          // default runs/replay/NAME
  std::string models_dir;       // the repository's models/
};

/// Exit status as `impetus run`'s; --list prints one replay per line: name, what, terrains, controllers.
int replay_command(const ReplayCommandOptions& options, std::ostream& out);

}  // namespace impetus
