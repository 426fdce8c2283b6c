// Recording of stage 3 (control): control.csv and the totals of summary.json's "control" block.
//
// control.csv (only when the scene declares controllers), one row per recorded step, t the end of the
// step: per controller of model MODEL and each driven joint J, MODEL.J.q_des, MODEL.J.qd_des (the desired
// trajectory at the controller's last call, at or before the step's start), MODEL.J.tau (the torque or
// force applied during the step, after the effort clamp, N·m or N); then MODEL.normal_force (Σ predicted
// p_N / dt of the last call, N; 0 for pid and id_no_contact), MODEL.saturated (driven joints the last
// call's ID held at their effort limit, control/inverse_dynamics/effort_limits.hpp; 0 for pid) and
// MODEL.status (ok, fallback, failed — the last τ is held —, or held between calls at a control rate k > 1).
#pragma once

#include <fstream>
#include <string>

#include "sim/output/csv_text.hpp"
#include "sim/step_data.hpp"

namespace impetus {

/// Over every step of a run, all controllers together.
struct ControlTotals {
  long calls = 0, failures = 0, fallbacks = 0;
  long clamped_steps = 0;                 // steps in which some τ met its effort limit
  long saturated_calls = 0;               // calls whose ID held some joint at its effort limit
  double time_sum = 0, time_max = 0;      // s per call
};

class ControlRecorder {
 public:
  /// Opens out_dir/control.csv when the model has controllers.
  ControlRecorder(const WorldModel& model, const std::string& out_dir);
  bool active() const { return active_; }
  void accumulate(const StepData& step);
  void write_row(double t, const StepData& step);
  void close() { out_.close(); }
  const ControlTotals& totals() const { return totals_; }

 private:
  const WorldModel& model_;
  bool active_ = false;
  std::ofstream out_;
  CsvText row_;   // the row being written (its storage kept between rows)
  ControlTotals totals_;
};

}  // namespace impetus
