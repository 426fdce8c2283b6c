#include "batch/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "batch/run_data.hpp"

namespace impetus::batch {

namespace fs = std::filesystem;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// |a − b|, infinite when either is not finite and they are not the same non-finite value.
double gap(double a, double b) {
  if (std::isfinite(a) && std::isfinite(b)) return std::abs(a - b);
  return (std::isnan(a) && std::isnan(b)) || a == b ? 0 : kInf;
}

std::string time_text(double t) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "t = %.4g s", t);
  return buffer;
}

Metric metric(std::string name, std::string unit, double tolerance) {
  Metric m;
  m.name = std::move(name);
  m.unit = std::move(unit);
  m.tolerance = tolerance;
  return m;
}

/// A difference beyond tolerance regresses; `better` marks the direction that is an improvement.
void judge(Metric& m, bool better) {
  const bool beyond = !(m.size <= m.tolerance);
  m.improved = beyond && better;
  m.regressed = beyond && !better;
}

using Vec = std::vector<double>;

Vec vec(const nlohmann::json& j) {
  Vec v;
  if (j.is_array())
    for (const auto& x : j) v.push_back(x.is_number() ? x.get<double>() : std::numeric_limits<double>::quiet_NaN());
  return v;
}

double distance(const Vec& a, const Vec& b) {
  if (a.size() != b.size()) return kInf;
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = gap(a[i], b[i]);
    s += d * d;
  }
  return std::sqrt(s);
}

void compare_final_state(const nlohmann::json& b, const nlohmann::json& c, const Tolerances& tol,
                         std::vector<Metric>& out) {
  Metric p = metric("final_position", "m", tol.final_position), q = metric("final_orientation", "rad", tol.final_orientation),
         v = metric("final_velocity", "m/s", tol.final_velocity);
  const nlohmann::json& fb = b.contains("final_state") ? b["final_state"] : nlohmann::json::object();
  const nlohmann::json& fc = c.contains("final_state") ? c["final_state"] : nlohmann::json::object();
  for (auto it = fb.begin(); it != fb.end(); ++it) {
    if (!fc.contains(it.key())) {
      p.size = kInf;
      p.detail = "body " + it.key() + " missing from the candidate";
      continue;
    }
    const nlohmann::json& sb = it.value();
    const nlohmann::json& sc = fc[it.key()];
    auto field = [](const nlohmann::json& s, const char* k) { return s.contains(k) ? vec(s[k]) : Vec{}; };
    const double dp = distance(field(sb, "p"), field(sc, "p"));
    if (dp > p.size || std::isnan(dp)) p.size = dp, p.detail = it.key();
    const Vec qb = field(sb, "q"), qc = field(sc, "q");
    // The angle of q_b⁻¹ q_c, 2·atan2(‖vector part‖, |w|): exact near zero, where 2·acos(q_b·q_c)
    // cannot resolve angles below ~3e-8 rad.
    double angle = kInf;
    if (qb.size() == 4 && qc.size() == 4) {
      const double w = qb[0] * qc[0] + qb[1] * qc[1] + qb[2] * qc[2] + qb[3] * qc[3];
      const double x = qb[0] * qc[1] - qb[1] * qc[0] - qb[2] * qc[3] + qb[3] * qc[2];
      const double y = qb[0] * qc[2] + qb[1] * qc[3] - qb[2] * qc[0] - qb[3] * qc[1];
      const double z = qb[0] * qc[3] - qb[1] * qc[2] + qb[2] * qc[1] - qb[3] * qc[0];
      const double a = 2 * std::atan2(std::sqrt(x * x + y * y + z * z), std::abs(w));
      if (std::isfinite(a)) angle = a;
    }
    if (angle > q.size) q.size = angle, q.detail = it.key();
    const double dv = std::max(distance(field(sb, "v"), field(sc, "v")), distance(field(sb, "w"), field(sc, "w")));
    if (dv > v.size) v.size = dv, v.detail = it.key();
  }
  for (Metric* m : {&p, &q, &v}) {
    judge(*m, false);
    out.push_back(*m);
  }
}

bool is_position_column(const std::string& name) {
  auto ends = [&](const char* s) { return name.size() > std::strlen(s) && name.compare(name.size() - std::strlen(s), std::string::npos, s) == 0; };
  return ends(".px") || ends(".py") || ends(".pz") || ends(".q");
}
bool is_velocity_column(const std::string& name) {
  auto ends = [&](const char* s) { return name.size() > std::strlen(s) && name.compare(name.size() - std::strlen(s), std::string::npos, s) == 0; };
  return ends(".vx") || ends(".vy") || ends(".vz");
}

/// The candidate's column at the baseline's times: the same rows where the times agree, else linear
/// interpolation (NaN outside the candidate's span, which then counts as an infinite difference).
Vec at_times(const Vec& t_c, const Vec& x_c, const Vec& t_b) {
  if (t_c == t_b) return x_c;
  Vec out(t_b.size(), std::numeric_limits<double>::quiet_NaN());
  std::size_t k = 0;
  for (std::size_t i = 0; i < t_b.size(); ++i) {
    while (k + 1 < t_c.size() && t_c[k + 1] < t_b[i]) ++k;
    if (k + 1 < t_c.size() && t_c[k] <= t_b[i]) {
      const double s = (t_b[i] - t_c[k]) / (t_c[k + 1] - t_c[k]);
      out[i] = x_c[k] + s * (x_c[k + 1] - x_c[k]);
    } else if (!t_c.empty() && t_c.back() == t_b[i]) {
      out[i] = x_c.back();
    }
  }
  return out;
}

/// Most points of an overlay plot: long runs are thinned evenly (the extremes may be skipped, the
/// shape is not).
constexpr std::size_t kPlotPoints = 600;

void thin(WorstSeries& s) {
  if (s.t.size() <= kPlotPoints) return;
  WorstSeries out{s.column, {}, {}, {}};
  for (std::size_t k = 0; k < kPlotPoints; ++k) {
    const std::size_t i = k * (s.t.size() - 1) / (kPlotPoints - 1);
    out.t.push_back(s.t[i]);
    out.baseline.push_back(s.baseline[i]);
    out.candidate.push_back(s.candidate[i]);
  }
  s = std::move(out);
}

void compare_trajectories(const Table& b, const Table& c, const Tolerances& tol, RunComparison& rc) {
  Metric pos = metric("trajectory_position", "m", tol.trajectory_position),
         vel = metric("trajectory_velocity", "m/s", tol.trajectory_velocity);
  const Vec* tb = b.column("t");
  const Vec* tc = c.column("t");
  std::string worst_column;
  double worst_relative = -1;
  if (!tb || !tc) {
    pos.size = kInf;
    pos.detail = "no t column";
  } else {
    for (std::size_t k = 0; k < b.names.size(); ++k) {
      const std::string& name = b.names[k];
      Metric* m = is_position_column(name) ? &pos : is_velocity_column(name) ? &vel : nullptr;
      if (!m) continue;
      const Vec* xc = c.column(name);
      if (!xc) {
        m->size = kInf;
        m->detail = name + " missing from the candidate";
        continue;
      }
      const Vec x = at_times(*tc, *xc, *tb);
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double d = gap(b.columns[k][i], x[i]);
        if (d > m->size || (std::isinf(d) && !std::isinf(m->size))) {
          m->size = d;
          m->detail = name + " at " + time_text((*tb)[i]);
        }
        const double relative = m->tolerance > 0 ? d / m->tolerance : d;
        if (relative > worst_relative) worst_relative = relative, worst_column = name;
      }
    }
    if (!worst_column.empty()) {
      WorstSeries s{worst_column, *tb, *b.column(worst_column), at_times(*tc, *c.column(worst_column), *tb)};
      thin(s);
      rc.worst = std::move(s);
    }
  }
  judge(pos, false);
  judge(vel, false);
  rc.metrics.push_back(pos);
  rc.metrics.push_back(vel);
}

/// A number of the summary that regresses when it rises by more than the tolerance.
void compare_rise(const nlohmann::json& b, const nlohmann::json& c, const char* path, const char* name,
                  const char* unit, double tolerance, std::vector<Metric>& out) {
  const auto xb = json_number(b, path), xc = json_number(c, path);
  if (!xb && !xc) return;
  Metric m = metric(name, unit, tolerance);
  m.baseline = xb.value_or(std::numeric_limits<double>::quiet_NaN());
  m.candidate = xc.value_or(std::numeric_limits<double>::quiet_NaN());
  if (!xb || !xc) {
    m.size = kInf;
    m.detail = std::string(path) + (xb ? " missing from the candidate" : " missing from the baseline");
    judge(m, !xb);
  } else {
    m.size = std::abs(*xc - *xb);
    judge(m, *xc < *xb);
  }
  out.push_back(m);
}

RunComparison compare_run(const std::string& id, const fs::path* bdir, const fs::path* cdir, const Tolerances& tol) {
  RunComparison rc;
  rc.id = id;
  const RunData b = bdir ? read_run(*bdir) : RunData{id, "missing", nullptr, std::nullopt};
  const RunData c = cdir ? read_run(*cdir) : RunData{id, "missing", nullptr, std::nullopt};
  rc.baseline_status = b.status;
  rc.candidate_status = c.status;
  Metric status = metric("status", "", 0);
  status.detail = b.status + " → " + c.status;
  if (b.status != c.status) {
    status.size = 1;
    status.improved = c.status == "ok";
    status.regressed = !status.improved && bdir;  // a run new in the candidate is no regression
  }
  rc.metrics.push_back(status);
  if (!bdir || !cdir) return rc;
  const bool summaries = b.summary.is_object() && c.summary.is_object();
  if (summaries) compare_final_state(b.summary, c.summary, tol, rc.metrics);
  if (b.trajectory && c.trajectory) compare_trajectories(*b.trajectory, *c.trajectory, tol, rc);
  if (summaries) {
    compare_rise(b.summary, c.summary, "max_penetration", "penetration", "m", tol.penetration, rc.metrics);
    compare_rise(b.summary, c.summary, "energy/max_gain", "energy_gain", "J", tol.energy_gain, rc.metrics);
    compare_rise(b.summary, c.summary, "solver/failures", "solver_failures", "", double(tol.solver_failures), rc.metrics);
    compare_rise(b.summary, c.summary, "solver/fallbacks", "solver_fallbacks", "", double(tol.solver_fallbacks), rc.metrics);
    if (auto mb = json_number(b.summary, "contacts/mean_per_step"), mc = json_number(c.summary, "contacts/mean_per_step");
        mb && mc) {
      Metric m = metric("contacts_mean", "", tol.contacts_mean);
      m.baseline = *mb;
      m.candidate = *mc;
      m.size = std::abs(*mc - *mb) / std::max(1.0, *mb);
      judge(m, false);
      rc.metrics.push_back(m);
    }
    if (auto wb = json_number(b.summary, "wall_time_s"), wc = json_number(c.summary, "wall_time_s"); wb && wc) {
      Metric m = metric("wall_time", "×", tol.wall_time_ratio);
      m.baseline = *wb;
      m.candidate = *wc;
      m.size = *wb > 0 ? *wc / *wb : (*wc > 0 ? kInf : 1);
      if (tol.wall_time_ratio > 0) judge(m, false);
      m.regressed = m.regressed && m.size > 1;
      rc.metrics.push_back(m);
    }
  }
  return rc;
}

}  // namespace

bool RunComparison::regressed() const {
  return std::any_of(metrics.begin(), metrics.end(), [](const Metric& m) { return m.regressed; });
}
bool RunComparison::improved() const {
  return !regressed() && std::any_of(metrics.begin(), metrics.end(), [](const Metric& m) { return m.improved; });
}
std::size_t Comparison::regressions() const {
  return std::count_if(runs.begin(), runs.end(), [](const RunComparison& r) { return r.regressed(); });
}

Comparison compare_batches(const fs::path& baseline, const fs::path& candidate, const std::optional<fs::path>& manifest) {
  for (const fs::path& dir : {baseline, candidate})
    if (!fs::is_directory(dir)) throw std::invalid_argument("compare: no folder " + dir.string());
  Comparison result;
  Manifest tolerances;
  if (manifest) {
    tolerances = load_manifest(manifest->string(), false);
    result.tolerance_source = manifest->string();
  } else if (fs::exists(candidate / "manifest.toml")) {
    tolerances = load_manifest((candidate / "manifest.toml").string(), false);
    result.tolerance_source = (candidate / "manifest.toml").string();
  } else if (fs::exists(baseline / "manifest.toml")) {
    tolerances = load_manifest((baseline / "manifest.toml").string(), false);
    result.tolerance_source = (baseline / "manifest.toml").string();
  } else {
    result.tolerance_source = "defaults";
  }
  const auto b = list_runs(baseline), c = list_runs(candidate);
  std::set<std::string> ids;
  for (const auto& [id, dir] : b) ids.insert(id);
  for (const auto& [id, dir] : c) ids.insert(id);
  for (const std::string& id : ids) {
    const auto ib = b.find(id), ic = c.find(id);
    result.runs.push_back(compare_run(id, ib == b.end() ? nullptr : &ib->second, ic == c.end() ? nullptr : &ic->second,
                                      tolerances.tolerances_for(id)));
  }
  auto rank = [](const RunComparison& r) { return r.regressed() ? 0 : r.improved() ? 1 : 2; };
  std::stable_sort(result.runs.begin(), result.runs.end(),
                   [&](const RunComparison& x, const RunComparison& y) { return rank(x) < rank(y); });
  return result;
}

}  // namespace impetus::batch
