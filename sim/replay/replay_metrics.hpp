// The metrics of seed 004's tables (§8, notes 004 §5.2) over a run with one controller, accumulated step by
// step (RunOptions::after_step) and written as metrics.json:
//   Table 3  tracking: e_pos = mean over steps of mean_j |q_j − q_des,j| (rad or m), e_vel likewise with q̇,
//            at the end of every step against the controller's trajectory at that time
//   Table 4  smoothness: mean over steps and joints of |τ_i − τ_{i−1}| and of |τ_i| (N·m), and
//            max |dτ/dt| = max |τ_i − τ_{i−1}| / Δt (N·m/s), τ as applied (after the effort clamp)
//   Table 5  contact-force prediction: per step with contact, Σ p_N predicted by the controller's last call
//            and Σ p_N the simulator applied to the controller's island, both over Δt (N); their means,
//            the mean absolute error and the mean relative error |pred − sim| / sim
// `joints` restricts the tracking errors to some driven joints (the manipulator's arm: the paper's
// process_data.m averages the arm joints only); empty: all of them.
#pragma once

#include <string>
#include <vector>

#include "sim/step_data.hpp"

namespace impetus {

struct ReplayMetrics {
  long steps = 0;
  double position_error = 0;       // rad: Table 3
  double velocity_error = 0;       // rad/s: Table 3
  double mean_abs_dtau = 0;        // N·m: Table 4, mean |Δτ|
  double mean_abs_tau = 0;         // N·m: Table 4, mean |τ|
  double max_abs_dtau_dt = 0;      // N·m/s: Table 4, max |dτ/dt|
  long contact_steps = 0;          // steps whose island had contacts (Table 5's sample)
  double normal_force_predicted = 0;   // N: mean Σ f_N the controller predicted
  double normal_force_simulated = 0;   // N: mean Σ f_N the simulator applied
  double normal_force_abs_error = 0;   // N: mean |pred − sim|
  double normal_force_rel_error = 0;   // mean |pred − sim| / sim
};

class ReplayMetricsAccumulator {
 public:
  /// Metrics of controller `controller` of the model; `joints`: indices into its driven joints for the
  /// tracking errors (empty: all). Throws std::out_of_range for a bad index.
  ReplayMetricsAccumulator(const WorldModel& model, int controller, std::vector<int> joints = {});
  /// After a step: the new state and what the step computed.
  void observe(const State& state, const StepData& data, double dt);
  ReplayMetrics result() const;

 private:
  const WorldModel& model_;
  const ControllerSpec& spec_;
  int controller_;
  std::vector<int> joints_;
  std::vector<int> q_index_, v_index_;   // (na) in State::q, State::v
  Eigen::VectorXd q_des_, qd_des_, qdd_des_, last_tau_;
  bool has_last_tau_ = false;
  long steps_ = 0, tau_differences_ = 0, contact_steps_ = 0;
  double sum_position_ = 0, sum_velocity_ = 0, sum_dtau_ = 0, sum_tau_ = 0, max_dtau_dt_ = 0;
  double sum_predicted_ = 0, sum_simulated_ = 0, sum_abs_error_ = 0, sum_rel_error_ = 0;
};

/// metrics.json: {"metrics_version": 1, "controller": TYPE, "table3": {…}, "table4": {…}, "table5": {…}}.
void write_replay_metrics(const std::string& path, const std::string& controller, const ReplayMetrics& m);

}  // namespace impetus
