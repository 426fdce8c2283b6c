#include "batch/manifest.hpp"

#include <fnmatch.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "contact/factory.hpp"
#include "base/load_error.hpp"

namespace impetus::batch {
namespace {

namespace fs = std::filesystem;

/// Reads one manifest, refusing with the file and the line of the node at fault.
class Reader {
 public:
  Reader(std::string path, bool resolve_scenes) : path_(std::move(path)), resolve_scenes_(resolve_scenes) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& what) const {
    throw LoadError(path_, static_cast<int>(at.source().begin.line), what);
  }
  [[noreturn]] void fail_key(const toml::key& at, const std::string& what) const {
    throw LoadError(path_, static_cast<int>(at.source().begin.line), what);
  }

  /// Refuses keys of `table` not in `allowed`.
  void only(const toml::table& table, std::initializer_list<std::string_view> allowed, const std::string& where) const {
    for (auto&& [key, node] : table) {
      bool known = false;
      for (std::string_view a : allowed) known |= key.str() == a;
      if (!known) fail_key(key, "unknown key '" + std::string(key.str()) + "' in " + where);
    }
  }

  /// A scalar as the text a scene attribute or an id holds: numbers in their shortest exact form.
  std::string scalar(const toml::node& node, const std::string& what) const {
    if (auto s = node.as_string()) return s->get();
    if (auto i = node.as_integer()) return std::to_string(i->get());
    if (auto f = node.as_floating_point()) return format_number(f->get());
    if (auto b = node.as_boolean()) return b->get() ? "true" : "false";
    fail(node, what + ": expected a string, number or boolean");
  }

  double number(const toml::node& node, const std::string& what) const {
    if (auto i = node.as_integer()) return static_cast<double>(i->get());
    if (auto f = node.as_floating_point()) return f->get();
    fail(node, what + ": expected a number");
  }

  double positive(const toml::node& node, const std::string& what) const {
    const double x = number(node, what);
    if (!(x > 0) || !std::isfinite(x)) fail(node, what + ": expected a positive number, got " + format_number(x));
    return x;
  }

  /// A value or an array of values (an axis); each element converted by `one`.
  template <class T, class F>
  std::vector<T> axis(const toml::node& node, const std::string& what, F one) const {
    std::vector<T> values;
    if (auto array = node.as_array()) {
      if (array->empty()) fail(node, what + ": an empty list (leave the key out for the scene's own)");
      for (const toml::node& element : *array) values.push_back(one(element, what));
    } else {
      values.push_back(one(node, what));
    }
    return values;
  }

  std::vector<std::string> strings(const toml::node& node, const std::string& what) const {
    return axis<std::string>(node, what, [this](const toml::node& n, const std::string& w) {
      if (!n.is_string()) fail(n, w + ": expected a string");
      return std::string(n.as_string()->get());
    });
  }
  std::vector<std::string> scalars(const toml::node& node, const std::string& what) const {
    return axis<std::string>(node, what, [this](const toml::node& n, const std::string& w) { return scalar(n, w); });
  }
  std::vector<double> positives(const toml::node& node, const std::string& what) const {
    return axis<double>(node, what, [this](const toml::node& n, const std::string& w) { return positive(n, w); });
  }

  std::string model_name(const toml::node& node, const std::string& name) const {
    if (!is_contact_model(name)) fail(node, "unknown contact model '" + name + "' (see `impetus models`)");
    return name;
  }

  /// Reads the axes of one product (the top level or an [[include]]) into `m`.
  void read_matrix(const toml::table& t, Matrix& m, const fs::path& base) const {
    if (auto n = t.get("scenes")) {
      m.scenes = strings(*n, "scenes");
      for (const std::string& s : m.scenes) {
        const fs::path p = fs::weakly_canonical(base / s);
        if (resolve_scenes_ && !fs::is_regular_file(p)) fail(*n, "scenes: no scene file '" + s + "' (" + p.string() + ")");
        m.scene_paths.push_back(p.string());
      }
    }
    if (auto n = t.get("models")) {
      for (const std::string& name : strings(*n, "models")) {
        if (name == "all")
          for (const ContactModelInfo& info : contact_models()) m.models.push_back(info.name);
        else
          m.models.push_back(model_name(*n, name));
      }
    }
    if (auto n = t.get("dt")) m.dt = positives(*n, "dt");
    if (auto n = t.get("duration")) m.duration = positives(*n, "duration");
    if (auto n = t.get("options")) {
      const toml::table* models = n->as_table();
      if (!models) fail(*n, "options: expected a table of tables [options.MODEL]");
      for (auto&& [model, options] : *models) {
        model_name(options, std::string(model.str()));
        const toml::table* table = options.as_table();
        if (!table) fail(options, "options." + std::string(model.str()) + ": expected a table of option = values");
        for (auto&& [option, values] : *table)
          m.options[std::string(model.str())][std::string(option.str())] =
              scalars(values, "options." + std::string(model.str()) + "." + std::string(option.str()));
      }
    }
    if (auto n = t.get("params")) {
      const toml::table* params = n->as_table();
      if (!params) fail(*n, "params: expected a table of \"ELEMENT/@ATTRIBUTE\" = values");
      for (auto&& [path, values] : *params) {
        const std::string p(path.str());
        if (p.find('@') == std::string::npos) fail_key(path, "params: '" + p + "' names no attribute (ELEMENT/@ATTRIBUTE)");
        m.params[p] = scalars(values, "params." + p);
      }
    }
    if (m.scenes.empty()) fail(t, "a run matrix without scenes");
  }

  Exclude read_exclude(const toml::table& t) const {
    only(t, {"scene", "model", "dt", "duration", "params"}, "[[exclude]]");
    Exclude e;
    if (auto n = t.get("scene")) e.scene_glob = scalar(*n, "exclude.scene");
    if (auto n = t.get("model")) e.model = model_name(*n, scalar(*n, "exclude.model"));
    if (auto n = t.get("dt")) e.dt = positives(*n, "exclude.dt");
    if (auto n = t.get("duration")) e.duration = positives(*n, "exclude.duration");
    if (auto n = t.get("params")) {
      const toml::table* params = n->as_table();
      if (!params) fail(*n, "exclude.params: expected a table");
      for (auto&& [path, value] : *params) e.params[std::string(path.str())] = scalar(value, "exclude.params");
    }
    if (t.empty()) fail(t, "an empty [[exclude]] would remove every run");
    return e;
  }

  void read_tolerances(const toml::table& t, Tolerances& tol, const std::string& where) const {
    only(t, {"final_position", "final_orientation", "final_velocity", "trajectory_position", "trajectory_velocity",
             "penetration", "energy_gain", "solver_failures", "solver_fallbacks", "contacts_mean", "wall_time_ratio",
             "runs"},
         where);
    auto nonneg = [&](const char* key, double& x) {
      if (auto n = t.get(key)) {
        x = number(*n, where + "." + key);
        if (!(x >= 0) || !std::isfinite(x)) fail(*n, where + "." + key + ": expected a finite number ≥ 0");
      }
    };
    auto count = [&](const char* key, long& x) {
      if (auto n = t.get(key)) {
        if (!n->is_integer() || n->as_integer()->get() < 0) fail(*n, where + "." + key + ": expected an integer ≥ 0");
        x = static_cast<long>(n->as_integer()->get());
      }
    };
    nonneg("final_position", tol.final_position);
    nonneg("final_orientation", tol.final_orientation);
    nonneg("final_velocity", tol.final_velocity);
    nonneg("trajectory_position", tol.trajectory_position);
    nonneg("trajectory_velocity", tol.trajectory_velocity);
    nonneg("penetration", tol.penetration);
    nonneg("energy_gain", tol.energy_gain);
    count("solver_failures", tol.solver_failures);
    count("solver_fallbacks", tol.solver_fallbacks);
    nonneg("contacts_mean", tol.contacts_mean);
    nonneg("wall_time_ratio", tol.wall_time_ratio);
  }

  const toml::table& table(const toml::node& n, const std::string& what) const {
    if (!n.is_table()) fail(n, what + ": expected a table");
    return *n.as_table();
  }

  Manifest read(const std::string& text) const {
    toml::table root;
    try {
      root = toml::parse(text, path_);
    } catch (const toml::parse_error& e) {
      throw LoadError(path_, static_cast<int>(e.source().begin.line), std::string(e.description()));
    }
    only(root, {"name", "record_dt", "scenes", "models", "dt", "duration", "options", "params", "include", "exclude",
                "limits", "tolerances", "slurm", "parallel"},
         "the manifest");
    Manifest m;
    m.path = fs::absolute(path_).lexically_normal().string();
    const fs::path base = fs::path(m.path).parent_path();
    m.name = fs::path(path_).stem().string();
    if (auto n = root.get("name")) m.name = scalar(*n, "name");
    if (auto n = root.get("record_dt")) {
      m.record_dt = number(*n, "record_dt");
      if (!(m.record_dt >= 0)) fail(*n, "record_dt: expected a number ≥ 0");
    }
    const bool top_level = root.contains("scenes");
    if (top_level) {
      m.matrices.emplace_back();
      read_matrix(root, m.matrices.back(), base);
    } else {
      for (const char* axis : {"models", "dt", "duration", "options", "params"})
        if (auto n = root.get(axis)) fail(*n, std::string(axis) + " without scenes at the top level (put it in an [[include]])");
    }
    if (auto n = root.get("include")) {
      const toml::array* includes = n->as_array();
      if (!includes || !includes->is_array_of_tables()) fail(*n, "include: expected [[include]] tables");
      for (const toml::node& inc : *includes) {
        only(*inc.as_table(), {"scenes", "models", "dt", "duration", "options", "params"}, "[[include]]");
        m.matrices.emplace_back();
        read_matrix(*inc.as_table(), m.matrices.back(), base);
      }
    }
    if (m.matrices.empty()) fail(root, "no runs: give scenes = [...] or [[include]] tables");
    if (auto n = root.get("exclude")) {
      const toml::array* excludes = n->as_array();
      if (!excludes || !excludes->is_array_of_tables()) fail(*n, "exclude: expected [[exclude]] tables");
      for (const toml::node& ex : *excludes) m.excludes.push_back(read_exclude(*ex.as_table()));
    }
    if (auto n = root.get("limits")) {
      const toml::table& t = table(*n, "limits");
      only(t, {"wall_time_s", "memory_mb"}, "[limits]");
      if (auto x = t.get("wall_time_s")) m.limits.wall_time_s = positive(*x, "limits.wall_time_s");
      if (auto x = t.get("memory_mb")) m.limits.memory_mb = positive(*x, "limits.memory_mb");
    }
    if (auto n = root.get("tolerances")) {
      const toml::table& t = table(*n, "tolerances");
      read_tolerances(t, m.tolerances, "[tolerances]");
      if (auto runs = t.get("runs")) {
        for (auto&& [glob, tol] : table(*runs, "tolerances.runs")) {
          Tolerances override = m.tolerances;
          const std::string g(glob.str());
          read_tolerances(table(tol, "tolerances.runs." + g), override, "[tolerances.runs.\"" + g + "\"]");
          m.tolerance_overrides.emplace_back(g, override);
        }
      }
    }
    if (auto n = root.get("slurm")) {
      const toml::table& t = table(*n, "slurm");
      only(t, {"max_parallel", "options"}, "[slurm]");
      if (auto x = t.get("max_parallel")) m.slurm_max_parallel = static_cast<int>(positive(*x, "slurm.max_parallel"));
      if (auto x = t.get("options")) m.slurm_options = strings(*x, "slurm.options");
    }
    if (auto n = root.get("parallel")) {
      const toml::table& t = table(*n, "parallel");
      only(t, {"jobs"}, "[parallel]");
      if (auto x = t.get("jobs")) m.parallel_jobs = static_cast<int>(positive(*x, "parallel.jobs"));
    }
    return m;
  }

 private:
  std::string path_;
  bool resolve_scenes_;
};

}  // namespace

std::string format_number(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

const Tolerances& Manifest::tolerances_for(const std::string& run_id) const {
  const Tolerances* chosen = &tolerances;
  for (const auto& [glob, tol] : tolerance_overrides)
    if (fnmatch(glob.c_str(), run_id.c_str(), 0) == 0) chosen = &tol;
  return *chosen;
}

Manifest load_manifest_string(const std::string& text, const std::string& path, bool resolve_scenes) {
  return Reader(path, resolve_scenes).read(text);
}

Manifest load_manifest(const std::string& path, bool resolve_scenes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot read the manifest");
  std::stringstream text;
  text << in.rdbuf();
  return load_manifest_string(text.str(), path, resolve_scenes);
}

}  // namespace impetus::batch
