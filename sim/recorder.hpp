// Stage 8, recording: trajectory.csv, contacts.csv, stats.csv, control.csv and summary.json of DESIGN.md.
//
// Rows are written every record_dt of simulated time (and the first and last step); the summary's maxima
// and means are over every step, recorded or not. Files are flushed as the run goes and closed, with
// the summary, whatever way the run ends, so nothing recorded is lost when a run fails.
#pragma once

#include <fstream>
#include <string>

#include "dynamics/data.hpp"
#include "sim/control_recorder.hpp"
#include "sim/output/csv_text.hpp"
#include "sim/step_data.hpp"
#include "sim/world.hpp"

namespace impetus {

/// Totals over a run, for summary.json.
struct RunTotals {
  long steps = 0;
  StageTimes times;
  double max_penetration = 0;
  long contacts_sum = 0;
  int contacts_max = 0;
  long solver_calls = 0, solver_failures = 0, solver_fallbacks = 0, solver_iterations = 0;
  long unsolved_steps = 0;                        // steps with a solver failure (no fallback held)
  int solver_max_iterations = 0;
  double energy_initial = 0, energy_final = 0;
  double energy_max_gain = -std::numeric_limits<double>::infinity();
  double contact_max_gain = -std::numeric_limits<double>::infinity();
};

/// How a run ended, for summary.json.
struct RunVerdict {
  std::string status;                             // "ok", "unsolved", "diverged", or why the run stopped
  std::string detail;                             // what diverged and when; empty otherwise
  double energy_max_rise = 0;                     // J: max of E − E₀ − W (sim/divergence.hpp)
};

class Recorder {
 public:
  /// Opens the files in out_dir (created if missing). record_dt ≤ 0 or < dt: every step.
  Recorder(const WorldModel& model, const std::string& out_dir, double dt, double record_dt);

  /// The initial state: at t = 0, or at a restart point's t.
  void record_initial(const State& state);
  /// After a step: accumulates the totals from `step`, and writes rows when due (always when `last`).
  void record_step(const State& state, const StepData& step, bool last);
  /// Writes summary.json and closes the files.
  void finish(const RunVerdict& verdict, const std::string& contact_model, double dt);

  const RunTotals& totals() const { return totals_; }

 private:
  /// The kinematics of `state`: the step's own pass when it ended there (sim/step_kinematics.hpp), else
  /// computed into data_.
  const MultibodyData& kinematics_of(const State& state, const StepData* step);
  double energy(const MultibodyData& kin);      // T + U (into last_kinetic_, last_potential_)
  void write_trajectory_row(const State& state, const MultibodyData& kin);
  void write_contact_rows(double t, const StepData& step);
  void write_stats_row(double t, const StepData& step);

  const WorldModel& model_;
  std::string out_dir_;
  double dt_, record_dt_;
  double next_record_t_ = 0;
  MultibodyData data_;
  std::ofstream trajectory_, contacts_, stats_;
  CsvText row_;                                 // the rows being written (its storage kept between records)
  ControlRecorder control_;                     // control.csv and the "control" totals (stage 3)
  RunTotals totals_;
  double last_energy_ = 0;
  double last_kinetic_ = 0, last_potential_ = 0;
  State last_state_;
};

}  // namespace impetus
