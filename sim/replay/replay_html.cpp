// report.html of a replay matrix (replay_html.hpp).
#include "sim/replay/replay_html.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "base/html_escape.hpp"
#include "control/gait/base_path.hpp"
#include "sim/replay/replay_series.hpp"
#include "sim/replay/svg_plot.hpp"

namespace impetus {
namespace {

/// Inline markup of a line: `code` spans.
std::string inline_html(const std::string& line) {
  std::string out;
  bool code = false;
  for (char c : html_escape(line)) {
    if (c == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else {
      out += c;
    }
  }
  if (code) out += "</code>";
  return out;
}

std::vector<std::string> table_cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  for (std::string& c : cells) {
    c.erase(0, c.find_first_not_of(' '));
    c.erase(c.find_last_not_of(' ') + 1);
  }
  return cells;
}

struct Series {
  const ReplayCell* cell;
  std::vector<ReplaySample> samples;
};

PlotLine line(const std::string& name, const std::vector<ReplaySample>& samples, double ReplaySample::*x,
              double ReplaySample::*y, double scale = 1) {
  PlotLine l{name, {}, {}};
  for (const ReplaySample& s : samples) {
    l.x.push_back(s.*x);
    l.y.push_back(scale * (s.*y));
  }
  return l;
}

std::string figure(const Plot& plot, const std::string& caption) {
  return "<figure>\n" + svg_plot(plot) + "<figcaption>" + html_escape(caption) + "</figcaption>\n</figure>\n";
}

/// One plot per group of cells (a terrain), made of the group's cells.
std::string figures_by(const std::vector<Series>& series, const std::vector<std::string>& groups,
                       const std::function<std::string(const ReplayCell&)>& group_of,
                       const std::function<Plot(const std::string& group, const std::vector<const Series*>&)>& make,
                       const std::string& caption) {
  std::string out;
  for (const std::string& g : groups) {
    std::vector<const Series*> in;
    for (const Series& s : series)
      if (group_of(*s.cell) == g) in.push_back(&s);
    if (in.empty()) continue;
    out += figure(make(g, in), caption + (g.empty() ? "" : " — " + g));
  }
  return out;
}

Plot time_plot(const std::string& title, const std::string& y_label, const std::vector<const Series*>& in,
               const std::function<std::string(const ReplayCell&)>& name_of, double ReplaySample::*y, double scale = 1,
               bool log_y = false) {
  Plot p{title, "t (s)", y_label, log_y, false, {}};
  for (const Series* s : in) p.lines.push_back(line(name_of(*s->cell), s->samples, &ReplaySample::t, y, scale));
  return p;
}

/// |predicted − simulated| / simulated of Σ f_N per sample (Table 5 in time).
Plot prediction_plot(const std::string& terrain, const std::vector<const Series*>& in,
                     const std::function<std::string(const ReplayCell&)>& name_of) {
  Plot p{"Table 5 in time: Σ f_N prediction error, " + terrain, "t (s)", "|predicted − simulated| / simulated", true, false, {}};
  for (const Series* s : in) {
    if (s->cell->controller == "pid") continue;   // predicts nothing
    PlotLine l{name_of(*s->cell), {}, {}};
    for (const ReplaySample& x : s->samples) {
      l.x.push_back(x.t);
      l.y.push_back(std::abs(x.normal_force_predicted - x.normal_force_simulated) / x.normal_force_simulated);
    }
    p.lines.push_back(l);
  }
  return p;
}

Plot path_plot(const std::string& terrain, const std::vector<const Series*>& in,
               const std::function<std::string(const ReplayCell&)>& name_of) {
  Plot p{"Fig. 17: centre of mass in the plane, " + terrain, "x (m)", "y (m)", false, true, {}};
  PlotLine waypoints{"waypoints", {}, {}, true};
  for (const Eigen::Vector2d& w : BasePathParameters().waypoints) {
    waypoints.x.push_back(w.x());
    waypoints.y.push_back(w.y());
  }
  p.lines.push_back(waypoints);
  for (const Series* s : in) p.lines.push_back(line(name_of(*s->cell), s->samples, &ReplaySample::com_x, &ReplaySample::com_y));
  return p;
}

std::string figures(const ReplayInfo& info, const std::vector<Series>& series) {
  const auto terrain = [](const ReplayCell& c) { return c.terrain; };
  const auto controller = [](const ReplayCell& c) { return controller_label(c.controller); };
  const auto model = [](const ReplayCell& c) { return c.model; };
  const auto none = [](const ReplayCell&) { return std::string(); };
  std::string out;
  if (info.name == "seed000_grasp") {
    out += figures_by(series, {""}, none, [&](const std::string&, const std::vector<const Series*>& in) {
      return time_plot("Table I: largest box slip in its finger's frame", "slip (mm)", in, model, &ReplaySample::slip, 1000);
    }, "Seed 000's grasp: slip per contact model (lost at 20 mm)");
    return out;
  }
  if (info.name == "seed000_walk") {
    out += figures_by(series, {""}, none, [&](const std::string&, const std::vector<const Series*>& in) {
      return time_plot("Tables II–III: joint position error on the height map", "mean |θ − θ_des| (rad)", in, model,
                       &ReplaySample::position_error);
    }, "Seed 000's walk: tracking per model:solver");
    return out;
  }
  if (info.name == "arm7_grasp") {
    out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
      return time_plot("Fig. 18: arm joint position error, " + g, "mean |θ − θ_des| (rad)", in, controller,
                       &ReplaySample::position_error);
    }, "Fig. 18: tracking of the 7 arm joints");
    out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
      Plot p = time_plot("Table 6: the box's slip in the hand, " + g, "slip (mm)", in, controller, &ReplaySample::slip, 1000);
      p.lines.push_back({"dropped (20 mm)", {0, in.front()->samples.empty() ? 0.0 : in.front()->samples.back().t}, {20, 20}, true});
      return p;
    }, "Table 6: the box is dropped when it slips 2 cm");
    return out;
  }
  const bool trot = info.name == "links_trot";
  out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
    return time_plot(std::string(g == "height_map" ? "Fig. 16" : "Fig. 14") + ": joint position error, " + g,
                     "mean |θ − θ_des| (rad)", in, controller, &ReplaySample::position_error);
  }, "Joint position error in time (the paper's Figs. 14 and 16)");
  out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
    return time_plot("Fig. 15: largest |dτ/dt| per 10 ms, " + g, "N·m/s", in, controller, &ReplaySample::max_abs_dtau_dt, 1, true);
  }, "Torque rate in time: chatter shows as peaks of orders of magnitude (the paper's Fig. 15)");
  out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
    return prediction_plot(g, in, controller);
  }, "The controllers' Σ f_N prediction against the simulator's (Table 5)");
  if (trot)
    out += figures_by(series, info.terrains, terrain, [&](const std::string& g, const std::vector<const Series*>& in) {
      return path_plot(g, in, controller);
    }, "The centre of mass's path against the waypoint segments (the paper's Fig. 17)");
  return out;
}

}  // namespace

std::string markdown_to_html(const std::string& markdown) {
  std::istringstream in(markdown);
  std::ostringstream o;
  std::string line;
  enum class Block { none, paragraph, list, table } block = Block::none;
  bool header_row = false;
  const auto close = [&] {
    if (block == Block::paragraph) o << "</p>\n";
    if (block == Block::list) o << "</ul>\n";
    if (block == Block::table) o << "</tbody></table>\n";
    block = Block::none;
  };
  while (std::getline(in, line)) {
    if (line.empty()) {
      close();
    } else if (line.rfind("## ", 0) == 0) {
      close();
      o << "<h2>" << inline_html(line.substr(3)) << "</h2>\n";
    } else if (line.rfind("# ", 0) == 0) {
      close();
      o << "<h1>" << inline_html(line.substr(2)) << "</h1>\n";
    } else if (line.rfind("- ", 0) == 0) {
      if (block != Block::list) close(), o << "<ul>\n", block = Block::list;
      o << "<li>" << inline_html(line.substr(2)) << "</li>\n";
    } else if (line.rfind("|", 0) == 0) {
      if (block != Block::table) close(), o << "<table>\n", block = Block::table, header_row = true;
      if (line.rfind("|---", 0) == 0) {
        o << "<tbody>\n";
        continue;
      }
      o << "<tr>";
      for (const std::string& c : table_cells(line)) o << (header_row ? "<th>" : "<td>") << inline_html(c) << (header_row ? "</th>" : "</td>");
      o << "</tr>\n";
      if (header_row) header_row = false;
    } else {
      if (block != Block::paragraph) close(), o << "<p>", block = Block::paragraph;
      else o << '\n';
      o << inline_html(line);
    }
  }
  close();
  return o.str();
}

void write_replay_html(const ReplayInfo& info, const std::vector<ReplayCell>& cells, const std::string& markdown,
                       const std::string& path) {
  std::vector<Series> series;
  for (const ReplayCell& c : cells) {
    const std::string file = c.dir + "/series.csv";
    if (std::filesystem::exists(file)) series.push_back({&c, read_replay_series(file)});
  }
  std::ofstream o(path);
  if (!o) throw std::runtime_error("cannot write " + path);
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Replay " << html_escape(info.name)
    << "</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
       "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:left}"
       "th{background:#eee}figure{margin:1.5em 0}figcaption{color:#444}</style>\n</head>\n<body>\n"
    << markdown_to_html(markdown) << "<h2>Figures</h2>\n<p>From each cell's series.csv (one sample per "
    << kSeriesWindow * 1000 << " ms).</p>\n" << figures(info, series) << "</body>\n</html>\n";
  if (!o) throw std::runtime_error("cannot write " + path);
}

}  // namespace impetus
