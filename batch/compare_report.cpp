#include "batch/compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "batch/html.hpp"

namespace impetus::batch {

namespace {

std::string g(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

std::string verdict(const RunComparison& r) { return r.regressed() ? "REGRESSED" : r.improved() ? "improved" : "clean"; }

/// "trajectory_position 3.2e-02 m > 1e-05 (box.px at t = 0.45 s)"
std::string describe(const Metric& m) {
  if (m.name == "status") return "status " + m.detail;
  std::string text = m.name + " " + format_size(m) + (m.regressed || m.improved ? " > " : " ≤ ") + g(m.tolerance);
  if (m.name == "wall_time" && m.tolerance == 0) text = m.name + " " + format_size(m);
  if (!m.detail.empty()) text += " (" + m.detail + ")";
  if (m.name != "status" && m.baseline != 0 && m.candidate != 0 && m.name.find("final") == std::string::npos &&
      m.name.find("trajectory") == std::string::npos)
    text += " [" + g(m.baseline) + " → " + g(m.candidate) + "]";
  return text;
}

}  // namespace

std::string format_size(const Metric& m) {
  if (std::isinf(m.size)) return "∞";
  return g(m.size) + (m.unit.empty() ? "" : " " + m.unit);
}

void print_comparison(const Comparison& c, std::ostream& out) {
  std::size_t improved = 0;
  for (const RunComparison& r : c.runs) {
    if (r.improved()) ++improved;
    if (!r.regressed() && !r.improved()) continue;
    out << (r.regressed() ? "REGRESSION " : "improved   ") << r.id << ":";
    for (const Metric& m : r.metrics)
      if (m.regressed || m.improved) out << "\n    " << (m.regressed ? "" : "(better) ") << describe(m);
    out << '\n';
  }
  out << "compare: " << c.runs.size() << " runs, " << c.regressions() << " regressed, " << improved << " improved, "
      << (c.runs.size() - c.regressions() - improved) << " within tolerance (tolerances: " << c.tolerance_source
      << ")\n";
}

void write_compare_md(const Comparison& c, const std::filesystem::path& file) {
  std::ofstream out(file);
  out << "# impetus compare\n\n" << c.runs.size() << " runs, " << c.regressions() << " regressed. Tolerances: `"
      << c.tolerance_source << "`.\n\n";
  out << "| run | verdict | baseline | candidate | metrics beyond tolerance | largest differences |\n"
      << "|---|---|---|---|---|---|\n";
  for (const RunComparison& r : c.runs) {
    std::string beyond, sizes;
    for (const Metric& m : r.metrics) {
      if (m.regressed || m.improved) beyond += (beyond.empty() ? "" : "; ") + describe(m);
      else if (m.name != "status" && m.size > 0 && m.name != "wall_time")
        sizes += (sizes.empty() ? "" : ", ") + m.name + " " + format_size(m);
    }
    out << "| " << r.id << " | " << verdict(r) << " | " << r.baseline_status << " | " << r.candidate_status << " | "
        << beyond << " | " << sizes << " |\n";
  }
}

void write_compare_html(const Comparison& c, const std::filesystem::path& file, const std::string& baseline,
                        const std::string& candidate) {
  // The metric columns: the union over runs, in the order compare evaluates them.
  std::vector<std::string> names;
  for (const RunComparison& r : c.runs)
    for (const Metric& m : r.metrics)
      if (m.name != "status" && std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
  std::string body = "<h1>impetus compare</h1><p>baseline <code>" + html_escape(baseline) + "</code>, candidate <code>" +
                     html_escape(candidate) + "</code>: " + std::to_string(c.runs.size()) + " runs, <b>" +
                     std::to_string(c.regressions()) + " regressed</b>. Tolerances: <code>" +
                     html_escape(c.tolerance_source) + "</code>. Click a header to sort; red cells are beyond tolerance.</p>";
  body += "<table><thead><tr><th class=text>run</th><th class=text>verdict</th><th class=text>baseline</th><th class=text>candidate</th>";
  for (const std::string& n : names) body += "<th>" + html_escape(n) + "</th>";
  body += "</tr></thead><tbody>";
  nlohmann::json plots = nlohmann::json::array();
  for (const RunComparison& r : c.runs) {
    const std::string v = verdict(r);
    body += "<tr class=\"" + std::string(r.regressed() ? "regressed" : r.improved() ? "improved" : "") +
            "\"><td class=text><a href=\"#" + html_escape(r.id) + "\">" + html_escape(r.id) + "</a></td><td class=text>" + v +
            "</td><td class=text>" + html_escape(r.baseline_status) + "</td><td class=text>" +
            html_escape(r.candidate_status) + "</td>";
    for (const std::string& n : names) {
      const Metric* m = nullptr;
      for (const Metric& x : r.metrics)
        if (x.name == n) m = &x;
      if (!m) {
        body += "<td data-v=\"-1\"></td>";
        continue;
      }
      const std::string sort = std::isinf(m->size) ? "1e308" : g(m->size);
      body += "<td data-v=\"" + sort + "\"" + (m->regressed ? " class=bad" : "") + " title=\"" +
              html_escape(describe(*m)) + "\">" + html_escape(format_size(*m)) + "</td>";
    }
    body += "</tr>";
    if (r.regressed() && r.worst) {
      auto finite = [](const std::vector<double>& v) {
        nlohmann::json a = nlohmann::json::array();
        for (double x : v) a.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr));
        return a;
      };
      plots.push_back({{"id", r.id}, {"column", r.worst->column}, {"t", r.worst->t},
                       {"baseline", finite(r.worst->baseline)}, {"candidate", finite(r.worst->candidate)}});
    }
  }
  body += "</tbody></table>";
  if (!plots.empty()) body += "<h2>Regressed runs: the worst trajectory column</h2><div id=plots></div>";
  const std::string script = R"JS(
const holder = document.getElementById('plots');
for (const p of DATA) {
  const box = document.createElement('div'); box.className = 'plot'; box.id = p.id;
  const fix = a => a.map(x => x === null ? NaN : x);
  holder.appendChild(box);
  plot(box, [{name: 'baseline', t: p.t, y: fix(p.baseline), color: '#1f77b4'},
             {name: 'candidate', t: p.t, y: fix(p.candidate), color: '#d62728', dash: true}], p.column, p.id);
})JS";
  std::ofstream(file) << html_page("impetus compare", body, plots.dump(), script);
}

}  // namespace impetus::batch
