// `impetus compare BASELINE CANDIDATE`: every run of the baseline against the candidate's run of the
// same id, metric by metric, against the manifest's tolerances.
//
// Metrics (Δ = candidate − baseline; units of the files):
//   status               a run that is not "ok" where the baseline's was, or that failed differently
//   final_position       max over bodies |Δp| of final_state (m)
//   final_orientation    max over bodies of the angle of q_b⁻¹q_c, the rotation between the final orientations (rad)
//   final_velocity       max over bodies of |Δv| and |Δω| at the end (m/s, rad/s)
//   trajectory_position  L∞ over the recorded rows of every position column (ID.px/py/pz and joints'
//                        .q), the candidate interpolated linearly at the baseline's times where
//                        they differ (as moby-compare-trajs does)
//   trajectory_velocity  the same over ID.vx/vy/vz
//   penetration          rise of max_penetration (m)
//   energy_gain          rise of energy.max_gain (J)
//   solver_failures, solver_fallbacks   rise of the counts
//   contacts_mean        |Δ contacts.mean_per_step| / max(1, baseline's)
//   wall_time            wall_time_s candidate/baseline (a regression only with a tolerance set)
// A metric beyond its tolerance is a regression, except where the candidate is better (less
// penetration, energy gain, failures; a status that became "ok"), which is reported as improved.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/manifest.hpp"

namespace impetus::batch {

struct Metric {
  std::string name;
  double baseline = 0, candidate = 0;
  double size = 0;          // the difference judged against the tolerance (see above)
  double tolerance = 0;
  std::string unit;
  std::string detail;       // e.g. the worst column and time
  bool regressed = false, improved = false;
};

/// The worst trajectory column of a run, baseline and candidate, for the overlay plot.
struct WorstSeries {
  std::string column;
  std::vector<double> t, baseline, candidate;
};

struct RunComparison {
  std::string id;
  std::string baseline_status, candidate_status;  // "missing" when the run is absent
  std::vector<Metric> metrics;
  std::optional<WorstSeries> worst;
  bool regressed() const;
  bool improved() const;
};

struct Comparison {
  std::vector<RunComparison> runs;  // regressions first, then improved, then the rest; by id within
  std::size_t regressions() const;
  std::string tolerance_source;     // which manifest's tolerances were used
};

/// Compares two batch output folders. `manifest` (optional) supplies the tolerances, else the
/// candidate's manifest.toml, else the baseline's, else the defaults of Tolerances.
Comparison compare_batches(const std::filesystem::path& baseline, const std::filesystem::path& candidate,
                           const std::optional<std::filesystem::path>& manifest);

}  // namespace impetus::batch
