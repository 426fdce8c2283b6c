// report.html of `impetus replay NAME --matrix`: report.md's text and tables, then the figures of the paper
// drawn from each cell's series.csv (replay_series.hpp) as inline SVG — seed 004's Fig. 14 (joint position
// error in time, per terrain), Fig. 15 (the largest |dτ/dt| in time: chatter), Fig. 16 (the height map's
// tracking), Fig. 17 (the centre of mass's path against the waypoint segments), Fig. 18 (the manipulator's
// tracking and the box's slip), Table 5's prediction error in time; for seed 000 the grasp's slip and the
// walk's tracking. One self-contained file: no script, no other file.
#pragma once

#include <string>
#include <vector>

#include "sim/replay/replay_report.hpp"

namespace impetus {

/// Writes report.html from the report's markdown and the cells' series.csv (a cell without one is left out
/// of the figures). Throws std::runtime_error when path cannot be written or a series.csv is malformed.
void write_replay_html(const ReplayInfo& info, const std::vector<ReplayCell>& cells, const std::string& markdown,
                       const std::string& path);

/// The subset of markdown report.md uses (headings, paragraphs, lists, tables, `code`), as HTML.
std::string markdown_to_html(const std::string& markdown);

}  // namespace impetus
