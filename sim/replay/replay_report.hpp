// report.md (and report.html) of `impetus replay NAME --matrix`: every cell's metrics.json and timing.json read back and set
// beside the papers' numbers (seed 004's Tables 3–6 and Fig. 17, notes 004 §3.6; seed 000's Tables I–III,
// notes 000 §4), cell by cell, with the rankings the paper states compared to ours, the command that made
// it and the machine's load. Where a paper number cannot be matched (a terrain we do not have, a value the
// paper leaves out) the report says which and why.
#pragma once

#include <string>
#include <vector>

#include "sim/replay/replay_registry.hpp"

namespace impetus {

struct ReplayCell {
  std::string terrain, controller, model;   // model empty: the terrain's
  std::string dir;                          // holds metrics.json and timing.json
  std::string status = "ok";                // the cell's run: "ok", "exit N", "crashed (signal N)"
};

/// Writes the report of the cells of replay `info` to dir/report.md and, with its figures, dir/report.html
/// (replay_html.hpp). Throws std::runtime_error when a cell's files cannot be read.
void write_replay_report(const ReplayInfo& info, const std::vector<ReplayCell>& cells, const std::string& command,
                         const std::string& dir);

/// The paper's name of a controller (ID(t_i)_QP,μ for id_qp_coulomb, …); other names as they are.
std::string controller_label(const std::string& controller);

}  // namespace impetus
