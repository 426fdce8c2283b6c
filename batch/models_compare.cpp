#include "batch/models_compare.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "batch/batch_runner.hpp"
#include "batch/emit.hpp"
#include "batch/html.hpp"
#include "batch/run_data.hpp"
#include "contact/factory.hpp"

namespace impetus::batch {

namespace fs = std::filesystem;

namespace {

std::string toml_string(const std::string& s) {
  nlohmann::json j = s;  // JSON string escapes are valid TOML basic-string escapes
  return j.dump();
}

nlohmann::json series(const Table& t, const std::string& column) {
  const std::vector<double>* x = t.column(column);
  const std::vector<double>* time = t.column("t");
  if (!x || !time) return nullptr;
  nlohmann::json y = nlohmann::json::array();
  for (double v : *x) y.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
  return {{"t", *time}, {"y", y}};
}

/// Bodies (by the ID of their px column) ordered by how far they travel in the first readable run.
std::vector<std::string> moving_bodies(const Table& t) {
  std::vector<std::pair<double, std::string>> bodies;
  for (const std::string& name : t.names) {
    if (name.size() < 4 || name.compare(name.size() - 3, 3, ".px") != 0) continue;
    const std::string id = name.substr(0, name.size() - 3);
    double travel = 0;
    for (const char* axis : {".px", ".py", ".pz"}) {
      const std::vector<double>* x = t.column(id + axis);
      if (!x || x->empty()) continue;
      const auto [lo, hi] = std::minmax_element(x->begin(), x->end());
      travel = std::max(travel, *hi - *lo);
    }
    bodies.push_back({-travel, id});
  }
  std::stable_sort(bodies.begin(), bodies.end());
  std::vector<std::string> out;
  for (std::size_t k = 0; k < bodies.size() && k < kModelsCompareBodies; ++k) out.push_back(bodies[k].second);
  return out;
}

std::string cell(const nlohmann::json& summary, const std::string& path) {
  const auto x = json_number(summary, path);
  if (!x) return "<td></td>";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", *x);
  return "<td>" + std::string(buffer) + "</td>";
}

}  // namespace

int models_compare(const std::string& scene, ModelsCompareOptions options, std::ostream& out) {
  if (!fs::is_regular_file(scene)) throw std::invalid_argument("models-compare: no scene file " + scene);
  if (options.models.empty())
    for (const ContactModelInfo& m : contact_models()) options.models.push_back(m.name);
  if (options.out.empty()) options.out = fs::path("runs") / (fs::path(scene).stem().string() + "-models");
  fs::create_directories(options.out);
  options.out = fs::absolute(options.out);

  // A manifest of this comparison, kept beside the runs: `impetus batch` can rerun it as it is.
  std::string toml = "name = " + toml_string(fs::path(scene).stem().string() + "-models") + "\n";
  toml += "record_dt = " + format_number(options.record_dt) + "\nscenes = [" +
          toml_string(fs::absolute(scene).lexically_normal().string()) + "]\nmodels = [";
  for (std::size_t k = 0; k < options.models.size(); ++k) toml += (k ? ", " : "") + toml_string(options.models[k]);
  toml += "]\n";
  if (options.dt > 0) toml += "dt = " + format_number(options.dt) + "\n";
  if (options.duration >= 0) toml += "duration = " + format_number(options.duration) + "\n";
  const fs::path manifest_path = options.out / "models.toml";
  std::ofstream(manifest_path) << toml;
  const Manifest manifest = load_manifest(manifest_path.string());
  const std::vector<Run> runs = expand(manifest);
  for (const Run& r : runs) fs::remove_all(options.out / r.id);  // a fresh comparison, never a stale run

  BatchOptions batch;
  batch.out = options.out;
  batch.jobs = options.jobs;
  batch.progress = options.progress;
  batch.resume = true;
  const int code = run_batch(manifest, runs, batch, out);

  // The page.
  nlohmann::json data = {{"models", nlohmann::json::array()}, {"bodies", nlohmann::json::array()}};
  std::string table =
      "<table><thead><tr><th class=text>model</th><th class=text>status</th><th>steps</th><th>wall time (s)</th>"
      "<th>max penetration (m)</th><th>energy max gain (J)</th><th>contact max gain (J)</th><th>contacts mean</th>"
      "<th>contacts max</th><th>solver calls</th><th>mean iterations</th><th>max iterations</th><th>failures</th>"
      "<th>fallbacks</th><th>final energy (J)</th></tr></thead><tbody>";
  std::vector<std::string> bodies;
  for (const Run& r : runs) {
    const RunData d = read_run(options.out / r.id);
    const std::optional<Table> stats = read_table(options.out / r.id / "stats.csv");
    if (bodies.empty() && d.trajectory && d.trajectory->rows() > 0) bodies = moving_bodies(*d.trajectory);
    table += "<tr" + std::string(d.status == "ok" ? "" : " class=regressed") + "><td class=text>" + html_escape(r.model) +
             "</td><td class=text>" + html_escape(d.status) + "</td>" + cell(d.summary, "steps") +
             cell(d.summary, "wall_time_s") + cell(d.summary, "max_penetration") + cell(d.summary, "energy/max_gain") +
             cell(d.summary, "energy/contact_max_gain") + cell(d.summary, "contacts/mean_per_step") +
             cell(d.summary, "contacts/max_per_step") + cell(d.summary, "solver/calls") +
             cell(d.summary, "solver/mean_iterations") + cell(d.summary, "solver/max_iterations") +
             cell(d.summary, "solver/failures") + cell(d.summary, "solver/fallbacks") + cell(d.summary, "energy/final") +
             "</tr>";
    nlohmann::json m = {{"model", r.model}, {"status", d.status}, {"columns", nlohmann::json::object()}};
    if (d.trajectory) {
      for (const std::string& name : d.trajectory->names)
        if (name != "t") m["columns"][name] = series(*d.trajectory, name);
      // Total energy, the sum the summary's energy gain is measured on.
      const auto* k = d.trajectory->column("kinetic_energy");
      const auto* u = d.trajectory->column("potential_energy");
      if (k && u) {
        nlohmann::json e = {{"t", *d.trajectory->column("t")}, {"y", nlohmann::json::array()}};
        for (std::size_t i = 0; i < k->size(); ++i) {
          const double total = (*k)[i] + (*u)[i];
          e["y"].push_back(std::isfinite(total) ? nlohmann::json(total) : nlohmann::json(nullptr));
        }
        m["columns"]["energy"] = e;
      }
    }
    if (stats)
      for (const char* name : {"max_penetration", "contacts", "solver_iterations"})
        m["columns"][std::string("stats.") + name] = series(*stats, name);
    data["models"].push_back(m);
  }
  table += "</tbody></table>";
  data["bodies"] = bodies;
  const std::string title = "impetus models-compare " + fs::path(scene).filename().string();
  const std::string body = "<h1>" + html_escape(title) + "</h1><p>One scene under each contact model (runs in <code>" +
                           html_escape(options.out.string()) +
                           "</code>). Click a header to sort.</p>" + table +
                           "<h2>Bodies that move most</h2><div id=bodies></div><h2>Energy, penetration, contacts, "
                           "solver work</h2><div id=totals></div>";
  const std::string script = R"JS(
function overlay(holder, column, label, title) {
  const series = DATA.models.filter(m => m.columns[column]).map(m => ({name: m.model + (m.status === 'ok' ? '' : ' (' + m.status + ')'),
      t: m.columns[column].t, y: m.columns[column].y.map(x => x === null ? NaN : x)}));
  // Models that agree draw the same curve: a dash pattern per model keeps each one visible.
  const DASHES = ['', '7,3', '2,3', '9,3,2,3', '4,5', '1,2'];
  series.forEach((s, k) => { if (k) s.dash = DASHES[k % DASHES.length]; });
  if (!series.length) return;
  const box = document.createElement('div'); box.className = 'plot'; holder.appendChild(box);
  plot(box, series, label, title);
}
const bodies = document.getElementById('bodies'), totals = document.getElementById('totals');
for (const b of DATA.bodies) for (const a of ['px', 'py', 'pz']) overlay(bodies, b + '.' + a, a + ' (m)', b + '.' + a);
overlay(totals, 'energy', 'kinetic + potential (J)', 'energy');
overlay(totals, 'stats.max_penetration', 'max penetration (m)', 'penetration');
overlay(totals, 'stats.contacts', 'contacts', 'contacts');
overlay(totals, 'stats.solver_iterations', 'iterations', 'solver iterations per step');
)JS";
  std::ofstream(options.out / "models.html") << html_page(title, body, data.dump(), script);
  out << "models-compare: " << (options.out / "models.html").string() << std::endl;
  return code;
}

}  // namespace impetus::batch
