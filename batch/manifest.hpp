// A batch manifest (TOML): runs as products of axes, explicit include/exclude, per-run limits,
// scheduler settings, and the tolerances `impetus compare` judges runs by. README "Batch runs" shows
// a full example; every key is checked, an unknown one is refused with file and line.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace impetus::batch {

/// One product of axes: every combination of its values is a run. An empty axis means "the
/// scene's own" (one value, left out of the run id).
struct Matrix {
  std::vector<std::string> scenes;       // as written (relative to the manifest); ids and hashes use this
  std::vector<std::string> scene_paths;  // the same, resolved
  std::vector<std::string> models;       // contact model names; empty: the scene's
  std::vector<double> dt, duration;      // s; empty: the scene's
  std::map<std::string, std::map<std::string, std::vector<std::string>>> options;  // model → option → values
  std::map<std::string, std::vector<std::string>> params;  // scene override path → values
};

/// A pattern that removes runs: every key given must match (scene: file stem or glob; others exact).
struct Exclude {
  std::string scene_glob, model;
  std::vector<double> dt, duration;
  std::map<std::string, std::string> params;  // override path → value (options as MODEL.OPTION)
};

/// Limits per run, enforced by the supervisor (setrlimit, and a kill at the wall-time limit).
struct Limits {
  double wall_time_s = 600;   // a run still going after this is killed and recorded as "timeout"
  double memory_mb = 4096;    // address-space limit of the run's process (RLIMIT_AS)
};

/// How `impetus compare` judges a run: absolute tolerances in the units of each metric.
/// Defaults are bit-level strict enough to catch any physical change yet above the last-bit spread
/// of one build across x86-64 CPUs for smooth scenes (see README "Tolerances").
struct Tolerances {
  double final_position = 1e-6;        // m, |Δp| of any body's final position
  double final_orientation = 1e-6;     // rad, angle between final orientations
  double final_velocity = 1e-5;        // m/s and rad/s, |Δv|, |Δω| at the end
  double trajectory_position = 1e-5;   // m, L∞ over time of recorded positions (moby-compare-trajs)
  double trajectory_velocity = 1e-4;   // m/s, L∞ over time of recorded linear velocities
  double penetration = 1e-6;           // m, rise of max_penetration
  double energy_gain = 1e-6;           // J, rise of energy.max_gain
  long solver_failures = 0;            // rise of solver.failures
  long solver_fallbacks = 0;           // rise of solver.fallbacks
  double contacts_mean = 0.05;         // relative change of contacts.mean_per_step
  double wall_time_ratio = 0;          // candidate/baseline wall time above it regresses; 0: report only
};

struct Manifest {
  std::string path;                     // the file, absolute
  std::string name;                     // `name`, default the file's stem
  double record_dt = 0.01;              // s, as `impetus run --record-dt`
  std::vector<Matrix> matrices;         // the top-level axes (if any) and each [[include]]
  std::vector<Exclude> excludes;
  Limits limits;
  Tolerances tolerances;                                   // [tolerances]
  std::vector<std::pair<std::string, Tolerances>> tolerance_overrides;  // [tolerances.runs."GLOB"], in file order
  int slurm_max_parallel = 0;           // [slurm] max_parallel: the array's %K; 0: no throttle
  std::vector<std::string> slurm_options;  // [slurm] options: extra #SBATCH lines, e.g. "--partition=short"
  int parallel_jobs = 0;                // [parallel] jobs; 0: GNU parallel's default (one per core)

  /// The tolerances for a run id: the last [tolerances.runs."GLOB"] whose glob matches, else [tolerances].
  const Tolerances& tolerances_for(const std::string& run_id) const;
};

/// Reads and checks a manifest; throws LoadError (file, line, what) for bad input. Without
/// resolve_scenes, scene files need not exist (compare reads the copy a batch keeps beside its runs,
/// for its tolerances).
Manifest load_manifest(const std::string& path, bool resolve_scenes = true);

/// The same from text; `path` names it in messages and anchors its relative paths.
Manifest load_manifest_string(const std::string& text, const std::string& path, bool resolve_scenes = true);

}  // namespace impetus::batch

namespace impetus::batch {
/// A number in its shortest form that reads back exactly (0.001, 1e-05): the same on every machine.
std::string format_number(double x);
}  // namespace impetus::batch
