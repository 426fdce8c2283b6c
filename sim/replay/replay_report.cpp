// report.md of a replay matrix (replay_report.hpp).
#include "sim/replay/replay_report.hpp"

#include "sim/replay/replay_html.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace impetus {
namespace {

using nlohmann::json;

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return json::parse(in);
}

}  // namespace

std::string controller_label(const std::string& controller) {
  static const std::map<std::string, std::string> labels = {
      {"id_qp_coulomb", "ID(t_i)_QP,μ"}, {"id_qp_noslip", "ID(t_i)_QP,∞"},   {"id_lcp_coulomb", "ID(t_i)_LCP,μ"},
      {"id_lcp_noslip", "ID(t_i)_LCP,∞"}, {"pid", "PID"},                    {"id_sensed", "ID(t_{i−1})"},
      {"id_sensed_lag2", "ID(t_{i−2})"}};
  const auto it = labels.find(controller);
  return it == labels.end() ? controller : it->second;
}

namespace {

std::string label(const std::string& controller) { return controller_label(controller); }

std::string num(double x, int digits = 4) {
  std::ostringstream s;
  s << std::setprecision(digits) << x;
  return s.str();
}

// Seed 004's tables (notes 004 §3.6), per controller: Table 3 (e_pos rad, e_vel rad/s; NaN: "−", fell) for
// rigid low friction (our `flat`) and rigid high friction (our `flat_noslip`); Table 4 (E|Δτ|, E|τ|; the
// paper does not say on which terrain); Table 5 (absolute N, relative; NaN: "−", fell; absent: not in it).
struct PaperRow {
  double pos_low, vel_low, pos_high, vel_high, dtau, tau, f_abs_low, f_rel_low, f_abs_high, f_rel_high;
};
constexpr double kFell = std::numeric_limits<double>::quiet_NaN();
constexpr double kAbsent = std::numeric_limits<double>::infinity();
const std::map<std::string, PaperRow>& paper_004() {
  static const std::map<std::string, PaperRow> rows = {
      {"id_qp_coulomb", {0.0310, 1.9425, 0.0486, 2.2596, 52.5718, 0.2016, 3.8009, 0.1253, 13.8457, 0.2748}},
      {"id_qp_noslip", {0.0483, 2.6295, 0.0654, 2.5737, 245.5117, 0.4239, 8.4567, 0.2226, 12.4153, 0.2526}},
      {"id_lcp_coulomb", {0.0239, 1.8386, 0.0259, 1.8784, 677.9693, 0.8351, 0.9371, 0.0194, 1.2768, 0.0155}},
      {"id_lcp_noslip", {kFell, kFell, 0.0260, 1.8950, 351.1803, 0.4055, kFell, kFell, 0.3572, 0.0116}},
      {"pid", {0.0895, 1.5569, 0.0916, 1.4653, 100.1571, 0.3413, kAbsent, kAbsent, kAbsent, kAbsent}},
      {"id_sensed", {0.0325, 1.7952, 0.1317, 2.5585, 974.3312, 0.9918, kAbsent, kAbsent, kAbsent, kAbsent}},
      {"id_sensed_lag2", {0.0328, 1.7830, 0.1316, 2.5608, 17528.0, 2.7416, kAbsent, kAbsent, kAbsent, kAbsent}},
  };
  return rows;
}
/// The same for the compliant low friction (our `compliant`) and high friction (`compliant_noslip`) columns;
/// dtau and tau unused (Table 4 is one table). The paper's PID row is the same on both (notes: perhaps a copy
/// error), kept as printed.
const std::map<std::string, PaperRow>& paper_004_compliant() {
  static const std::map<std::string, PaperRow> rows = {
      {"id_qp_coulomb", {0.0217, 2.0365, 0.0342, 2.9360, 0, 0, 7.8260, 0.1712, 14.9225, 0.3086}},
      {"id_qp_noslip", {kFell, kFell, 0.0446, 3.9779, 0, 0, kFell, kFell, 15.1897, 0.3066}},
      {"id_lcp_coulomb", {0.0219, 2.0786, 0.0226, 2.1243, 0, 0, 4.6385, 0.0637, 12.4896, 0.2400}},
      {"id_lcp_noslip", {kFell, kFell, kFell, kFell, 0, 0, kFell, kFell, kFell, kFell}},
      {"pid", {0.0850, 1.5845, 0.0850, 1.5845, 0, 0, kAbsent, kAbsent, kAbsent, kAbsent}},
      {"id_sensed", {0.0265, 1.8858, 0.1270, 4.4377, 0, 0, kAbsent, kAbsent, kAbsent, kAbsent}},
      {"id_sensed_lag2", {0.0267, 1.8742, 0.1270, 4.2061, 0, 0, kAbsent, kAbsent, kAbsent, kAbsent}},
  };
  return rows;
}

/// The paper's row for a terrain with a column in Tables 3 and 5, and whether it is the low-friction one.
struct PaperColumn {
  const std::map<std::string, PaperRow>* rows = nullptr;   // null: the terrain has no column
  bool low = false;
  const char* name = "";
};
PaperColumn paper_column(const std::string& terrain) {
  if (terrain == "flat") return {&paper_004(), true, "the paper's rigid, low friction (μ = 0.1)"};
  if (terrain == "flat_noslip") return {&paper_004(), false, "the paper's rigid, high friction (μ = ∞)"};
  if (terrain == "compliant")
    return {&paper_004_compliant(), true, "the paper's compliant, low friction (μ = 0.1; LINKS sinks 1 mm at rest)"};
  if (terrain == "compliant_noslip")
    return {&paper_004_compliant(), false, "the paper's compliant, high friction (μ = ∞; LINKS sinks 1 mm at rest)"};
  return {};
}

std::string paper_cell(double x, int digits = 4) {
  if (std::isnan(x)) return "− (fell)";
  if (std::isinf(x)) return "(not in the table)";
  return num(x, digits);
}

struct Cell {
  const ReplayCell* where;
  json metrics, timing;
};

std::string event(const json& t6, const char* flag, const char* time) {
  if (!t6.value(flag, false)) return "no";
  return "at " + num(t6[time].get<double>(), 4) + " s";
}

/// Controllers ordered by a metric, as "a < b < c".
std::string ranking(std::vector<std::pair<double, std::string>> v) {
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& [x, name] : v) out += (out.empty() ? "" : " < ") + label(name);
  return out;
}

void links_report(std::ostream& o, const ReplayInfo& info, const std::vector<Cell>& cells) {
  const bool trot = info.name == "links_trot";
  for (const std::string& terrain : info.terrains) {
    const PaperColumn column = paper_column(terrain);
    const bool low = column.rows && column.low, high = column.rows && !column.low;
    o << "\n## Terrain `" << terrain << "`" << (column.rows ? std::string(" — ") + column.name : "") << "\n\n";
    if (high)
      o << "On μ = ∞ the ground's μ is 100 for the Coulomb ID controllers, which is QP,∞'s μ: ID(t_i)_QP,μ and "
           "ID(t_i)_QP,∞ solve the same problems here and their rows are the same.\n\n";
    o << "Table 3 (tracking; mean over steps and joints) and Table 6 (fell)"
      << (trot && (low || high) ? ", ours beside the paper's" : "") << ":\n\n";
    o << "| controller | e_pos (rad) | e_vel (rad/s) | fell |" << (trot && (low || high) ? " paper e_pos | paper e_vel |" : "")
      << "\n|---|---|---|---|" << (trot && (low || high) ? "---|---|" : "") << '\n';
    std::vector<std::pair<double, std::string>> by_position, by_dtau;
    for (const Cell& c : cells) {
      if (c.where->terrain != terrain) continue;
      const json& m = c.metrics;
      o << "| " << label(c.where->controller) << " | " << num(m["table3"]["position_error_rad"].get<double>()) << " | "
        << num(m["table3"]["velocity_error_rad_s"].get<double>()) << " | " << event(m["table6"], "fell", "fall_time_s") << " |";
      if (trot && (low || high)) {
        const PaperRow& p = column.rows->at(c.where->controller);
        o << ' ' << paper_cell(low ? p.pos_low : p.pos_high) << " | " << paper_cell(low ? p.vel_low : p.vel_high) << " |";
      }
      o << '\n';
      by_position.emplace_back(m["table3"]["position_error_rad"].get<double>(), c.where->controller);
      by_dtau.emplace_back(m["table4"]["mean_abs_dtau_Nm"].get<double>(), c.where->controller);
    }
    const double dt = 0.001;
    o << "\nTable 4 (smoothness; E|Δτ| per second, i.e. mean |τ_i − τ_{i−1}|/Δt, which is what the paper's values of "
         "50–17500 suggest; the paper does not say on which terrain its single table was measured):\n\n"
      << "| controller | E|Δτ|/Δt (N·m/s) | E|τ| (N·m) | max |dτ/dt| (N·m/s) |" << (trot ? " paper E|Δτ| | paper E|τ| |" : "")
      << "\n|---|---|---|---|" << (trot ? "---|---|" : "") << '\n';
    for (const Cell& c : cells) {
      if (c.where->terrain != terrain) continue;
      const json& t4 = c.metrics["table4"];
      o << "| " << label(c.where->controller) << " | " << num(t4["mean_abs_dtau_Nm"].get<double>() / dt) << " | "
        << num(t4["mean_abs_tau_Nm"].get<double>()) << " | " << num(t4["max_abs_dtau_dt_Nm_s"].get<double>()) << " |";
      if (trot) {
        const PaperRow& p = paper_004().at(c.where->controller);
        o << ' ' << paper_cell(p.dtau) << " | " << paper_cell(p.tau) << " |";
      }
      o << '\n';
    }
    o << "\nTable 5 (Σ normal force, controller's prediction against the simulator's, over the steps with contact; "
         "PID predicts nothing: its relative error is \"—\"; the reference at rest is 47.088 N):\n\n"
      << "| controller | Σ f_N simulated (N) | predicted (N) | abs error (N) | rel error |"
      << (trot && (low || high) ? " paper abs | paper rel |" : "") << "\n|---|---|---|---|---|"
      << (trot && (low || high) ? "---|---|" : "") << '\n';
    for (const Cell& c : cells) {
      if (c.where->terrain != terrain) continue;
      const json& t5 = c.metrics["table5"];
      const bool predicts = c.where->controller != "pid";
      o << "| " << label(c.where->controller) << " | " << num(t5["normal_force_simulated_N"].get<double>()) << " | "
        << (predicts ? num(t5["normal_force_predicted_N"].get<double>()) : "—") << " | "
        << (predicts ? num(t5["normal_force_abs_error_N"].get<double>()) : "—") << " | "
        << (predicts ? num(100 * t5["normal_force_rel_error"].get<double>(), 3) + " %" : "—") << " |";
      if (trot && (low || high)) {
        const PaperRow& p = column.rows->at(c.where->controller);
        const double rel = low ? p.f_rel_low : p.f_rel_high;
        o << ' ' << paper_cell(low ? p.f_abs_low : p.f_abs_high) << " | "
          << (std::isfinite(rel) ? num(100 * rel, 4) + " %" : paper_cell(rel)) << " |";
      }
      o << '\n';
    }
    if (trot) {
      o << "\nFig. 17 (horizontal distance of the centre of mass from the waypoint segments):\n\n"
        << "| controller | mean (m) | max (m) |\n|---|---|---|\n";
      for (const Cell& c : cells)
        if (c.where->terrain == terrain)
          o << "| " << label(c.where->controller) << " | " << num(c.metrics["fig17"]["com_path_mean_distance_m"].get<double>())
            << " | " << num(c.metrics["fig17"]["com_path_max_distance_m"].get<double>()) << " |\n";
    }
    if (trot && terrain == "height_map") {
      std::optional<double> qp, pid;
      for (const auto& [e, name] : by_position) {
        if (name == "id_qp_coulomb") qp = e;
        if (name == "pid") pid = e;
      }
      if (qp && pid)
        o << "\n§8.3 (Fig. 16): ID(t_i)_QP,μ's positional error over that of error feedback alone (PID): ours "
          << num(*qp / *pid, 3) << "; the paper's 0.81 (19 % lower; its PID is joint PID with operational-space "
          << "and VIIP feedback, ours joint PD only).\n";
    }
    if (trot && low && terrain == "flat")
      o << "\nRanking by positional error here — the paper's (rigid, low friction): LCP,μ < QP,μ ≈ sensed < QP,∞ < PID "
           "(LCP,∞ fell); ours (fallen runs included, their error is that of a fallen robot): "
        << ranking(by_position) << ".\n";
    if (trot)
      o << "\nRanking by smoothness (E|Δτ|) — the paper's: QP,μ < PID < QP,∞ < LCP,∞ < LCP,μ < sensed; ours on `" << terrain
        << "`: " << ranking(by_dtau) << ".\n";
  }
  if (trot)
    o << "\nNot matched: the compliant ground's stiffness and damping (the paper gives only its 1 mm sink at rest; "
         "ours: K = m g / 4 mm per foot, critically damped for a quarter of the robot, contact/compliance.hpp's "
         "implicit spring–damper, not the authors' penalty method); our trot is closed loop as the paper's planner "
         "(Pacer), but its touchdowns are not impact-free, which the ID controllers (for non-impacting contact) do "
         "not survive with four feet down; the paper's controller gains are not given (ours: "
         "ID kp 1000 1/s², kd 63 1/s in the trot, 100 and 20 standing; PID kp 20 N·m/rad, kd 0.2 N·m·s/rad).\n";
}

void arm_report(std::ostream& o, const std::vector<Cell>& cells) {
  o << "\nTable 6 and Fig. 18 (the paper gives plots and PASS/FAIL only): box dropped and when (its origin 2 cm "
       "from where it started in the hand), tracking of the 7 arm joints.\n\n"
    << "| friction | controller | dropped | max slip (mm) | e_pos (rad) | e_vel (rad/s) | E|τ| (N·m) | paper |\n"
    << "|---|---|---|---|---|---|---|---|\n";
  const std::map<std::string, std::string> paper_mu1 = {
      {"id_qp_coulomb", "dropped at ≈ 1.5 s; Table 6 PASS †"}, {"pid", "dropped at ≈ 1.5 s"},
      {"id_sensed", "held 3 s"}, {"id_qp_noslip", "Table 6 FAIL (slip and fall)"},
      {"id_lcp_noslip", "Table 6 FAIL (slip and fall)"}, {"id_lcp_coulomb", "Table 6 FAIL (torque chatter)"}};
  const std::map<std::string, std::string> paper_inf = {
      {"id_qp_coulomb", "Table 6 PASS"}, {"id_qp_noslip", "Table 6 PASS †"}, {"id_lcp_noslip", "Table 6 PASS"},
      {"id_lcp_coulomb", "Table 6 FAIL (torque chatter)"}, {"pid", "large errors while grasping"},
      {"id_sensed", "large errors, excessive forces"}};
  for (const Cell& c : cells) {
    const json& m = c.metrics;
    const auto& paper = c.where->terrain == "box_mu1" ? paper_mu1 : paper_inf;
    const auto it = paper.find(c.where->controller);
    o << "| " << (c.where->terrain == "box_mu1" ? "μ = 1" : "μ = ∞") << " | " << label(c.where->controller) << " | "
      << event(m["table6"], "dropped", "drop_time_s") << " | " << num(1000 * m["table6"]["max_slip_m"].get<double>()) << " | "
      << num(m["table3"]["position_error_rad"].get<double>()) << " | " << num(m["table3"]["velocity_error_rad_s"].get<double>())
      << " | " << num(m["table4"]["mean_abs_tau_Nm"].get<double>()) << " | " << (it == paper.end() ? "not reported" : it->second)
      << " |\n";
  }
  o << "\nNot matched: the paper's arm and box are not published (ours: models/arm7_hand, the box 0.02 × 0.06 × 0.0507 m), "
       "nor its gains; the paper's runs are in its simulator with its own compliance of the fingers.\n";
}

double contact_time(const Cell& c) { return c.timing["contact_stage_s"]["total"].get<double>(); }

void seed000_grasp_report(std::ostream& o, const std::vector<Cell>& cells) {
  o << "\nTable I: the grasp under each contact model (1000 steps of 0.01 s); held = neither box moved 2 cm in its "
       "finger's frame; times are the contact stage's (assembly excluded) on one core.\n\n"
    << "| model | steps | lost at | max slip (mm) | contact stage (s) | per step (ms) | mean contacts |\n"
    << "|---|---|---|---|---|---|---|\n";
  std::optional<double> ppm;
  for (const Cell& c : cells) {
    const json& t6 = c.metrics["table6"];
    const long steps = c.metrics["steps"].get<long>();
    o << "| " << c.where->model << " | " << steps << " | "
      << (t6["dropped"].get<bool>() ? num(t6["drop_time_s"].get<double>()) + " s" : "held") << " | "
      << num(1000 * t6["max_slip_m"].get<double>()) << " | " << num(contact_time(c)) << " | "
      << num(1000 * contact_time(c) / std::max(1L, steps)) << " | " << num(c.timing["mean_contacts"].get<double>()) << " |\n";
    if (c.where->model == "no_slip") ppm = contact_time(c) / std::max(1L, steps);
  }
  if (ppm) {
    o << "\nSolve-time ratios per step against no_slip (principal pivoting):\n\n| model | ours | paper |\n|---|---|---|\n";
    for (const Cell& c : cells) {
      const double per_step = contact_time(c) / std::max(1L, c.metrics["steps"].get<long>());
      const std::string paper = c.where->model == "stewart_trinkle" ? "6.58 (10.9681 s / 1.6680 s)"
                                : c.where->model == "no_slip"       ? "1"
                                                                    : "1.19 (quadprog active set / PPM; we have Lemke)";
      o << "| " << c.where->model << " | " << num(per_step / *ppm, 3) << " | " << paper << " |\n";
    }
  }
  o << "\nThe paper: no-slip held the grasp for at least 100 iterations, Stewart–Trinkle's boxes \"would tend to fall "
       "from the gripper after ten iterations\" (Lemke's numerics in MATLAB). Not matched: the paper's masses, sizes and "
       "squeeze are not given (ours: scenes/grasp_no_slip.xml), its times include collision detection in MATLAB.\n";
}

void seed000_walk_report(std::ostream& o, const std::vector<Cell>& cells) {
  o << "\nTables II–III: LINKS trotting on the height map (pid), each model solved by principal pivoting and by Lemke; "
       "contact-stage time on one core.\n\n"
    << "| model:solver | status | fell | steps | mean contacts | contact stage (s) | wall (s) |\n|---|---|---|---|---|---|---|\n";
  std::map<std::string, std::map<std::string, double>> time;
  for (const Cell& c : cells) {
    o << "| " << c.where->model << " | " << c.timing["status"].get<std::string>() << " | "
      << event(c.metrics["table6"], "fell", "fall_time_s") << " | " << c.metrics["steps"].get<long>() << " | "
      << num(c.timing["mean_contacts"].get<double>()) << " | " << num(contact_time(c)) << " | "
      << num(c.timing["wall_s"].get<double>()) << " |\n";
    const size_t colon = c.where->model.find(':');
    time[c.where->model.substr(0, colon)][c.where->model.substr(colon + 1)] = contact_time(c);
  }
  o << "\n| model | time saved by principal pivoting vs Lemke (ours) | paper |\n|---|---|---|\n";
  for (const auto& [model, t] : time) {
    if (!t.count("lemke") || !t.count("principal_pivoting")) continue;
    const double saved = 1 - t.at("principal_pivoting") / t.at("lemke");
    o << "| " << model << " | " << num(100 * saved, 3) << " % | "
      << (model == "no_slip" ? "27.5 % (Table II; its baseline is Drumwright–Shell, μ = 100, not Lemke on no-slip)"
                             : "27.1 % (Table III)")
      << " |\n";
  }
  o << "\nNot matched: the paper's timings are whole simulations in Moby (event-driven, collision detection "
       "included) on its own quadruped and terrain; ours are the contact stage of a time-stepping run.\n";
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return in ? a + " " + b + " " + c : "unknown";
}

}  // namespace

void write_replay_report(const ReplayInfo& info, const std::vector<ReplayCell>& where, const std::string& command,
                         const std::string& dir) {
  std::vector<Cell> cells;
  std::vector<const ReplayCell*> unfinished;
  for (const ReplayCell& w : where) {
    // A run that stopped with a status (diverged, unsolved) still wrote its files; a crash did not.
    if (!std::ifstream(w.dir + "/metrics.json") || !std::ifstream(w.dir + "/timing.json")) {
      unfinished.push_back(&w);
      continue;
    }
    cells.push_back({&w, read_json(w.dir + "/metrics.json"), read_json(w.dir + "/timing.json")});
  }
  std::ostringstream o;
  o << "# Replay `" << info.name << "` (version " << info.version << ")\n\n" << info.what << ".\n\nMade by `" << command
    << "`; load average when written: " << load_average() << ".\n";
  if (!unfinished.empty()) {
    o << "\nCells without results (left out of the tables below; their log is the cell's folder name + .log):\n\n";
    for (const ReplayCell* w : unfinished)
      o << "- " << w->terrain << " " << w->controller << (w->model.empty() ? "" : " " + w->model) << ": " << w->status << "\n";
  }
  if (info.name == "arm7_grasp")
    arm_report(o, cells);
  else if (info.name == "seed000_grasp")
    seed000_grasp_report(o, cells);
  else if (info.name == "seed000_walk")
    seed000_walk_report(o, cells);
  else
    links_report(o, info, cells);
  o << "\n## Wall time per cell\n\n| cell | status | steps | wall (s) | ID call median (µs) |\n|---|---|---|---|---|\n";
  double total = 0;
  for (const Cell& c : cells) {
    total += c.timing["wall_s"].get<double>();
    o << "| " << c.where->terrain << " " << c.where->controller << (c.where->model.empty() ? "" : " " + c.where->model) << " | "
      << c.timing["status"].get<std::string>() << " | " << c.timing["steps"].get<long>() << " | "
      << num(c.timing["wall_s"].get<double>()) << " | " << num(1e6 * c.timing["id_call_s"]["median"].get<double>()) << " |\n";
  }
  o << "\nTotal: " << num(total) << " s of wall time for " << cells.size() << " runs.\n";
  const std::string md = dir + "/report.md";
  std::ofstream out(md);
  out << o.str();
  if (!out) throw std::runtime_error("cannot write " + md);
  write_replay_html(info, where, o.str(), dir + "/report.html");
}

}  // namespace impetus
