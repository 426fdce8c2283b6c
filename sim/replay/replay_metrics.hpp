// The metrics of seed 004's tables (§8, notes 004 §5.2) over a run with one controller, accumulated step by
// step (RunOptions::after_step) and written as metrics.json:
//   Table 3  tracking: e_pos = mean over steps of mean_j |q_j − q_des,j| (rad or m), e_vel likewise with q̇,
//            at the end of every step against the controller's trajectory at that time
//   Table 4  smoothness: mean over steps and joints of |τ_i − τ_{i−1}| and of |τ_i| (N·m), and
//            max |dτ/dt| = max |τ_i − τ_{i−1}| / Δt (N·m/s), τ as applied (after the effort clamp)
//   Table 5  contact-force prediction: per step with contact, Σ p_N predicted by the controller's last call
//            and Σ p_N the simulator applied to the controller's island, both over Δt (N); their means,
//            the mean absolute error and the mean relative error |pred − sim| / sim
//   Table 6  success (ReplayWatch, at the end of every step): a held body is dropped at the first step its
//            origin is more than `lost_distance` from where it started in its holder's frame (the paper gives
//            no definition; 2 cm takes the box past the r = 1 cm fingertips that sit 1 cm inside its faces,
//            and a box still held moves by mm); max_slip is that distance's maximum over the run (seed 000's
//            "< 1 mm relative motion"). A floating base fell at the first step its origin is below
//            fall_height or its z axis is tilted more than fall_tilt from the world's.
//   Fig. 17  COM path: the mean and largest horizontal distance of the base's centre of mass from the
//            polyline of the waypoint segments.
// `joints` restricts the tracking errors to some driven joints (the manipulator's arm: the paper's
// process_data.m averages the arm joints only); empty: all of them. Without a controller (controller < 0:
// seed 000's grasp, driven by constant actuators) only Table 6 is kept.
// Clock readings (ID time per call, contact-stage time) are not metrics: metrics.json stays the same from
// run to run; the replay command writes them to timing.json.
#pragma once

#include <string>
#include <vector>

#include <limits>
#include <optional>

#include "dynamics/data.hpp"
#include "sim/replay/replay_series.hpp"
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
  bool has_controller = true;
  bool watches_held = false, watches_base = false, watches_path = false;
  std::optional<double> drop_time;     // s: Table 6, the first held body lost
  double max_slip = 0;                 // m: largest displacement of a held body in its holder's frame
  std::optional<double> fall_time;     // s: Table 6, the base fell
  double min_base_height = 0;          // m
  double path_mean_distance = 0;       // m: Fig. 17
  double path_max_distance = 0;        // m
};

/// What a run watches beyond the controller's tables, by link index.
struct ReplayWatch {
  std::vector<std::pair<int, int>> held;     // (body link, holder link)
  double lost_distance = 0.02;               // m (above)
  int base = -1;                             // floating base link; −1: none
  double fall_height = 0.08;                 // m: half LINKS's 16 cm
  double fall_tilt = 0.7853981633974483;     // rad: π/4
  std::vector<Eigen::Vector2d> waypoints;    // polyline of the COM path; empty: none
};

class ReplayMetricsAccumulator {
 public:
  /// Metrics of controller `controller` of the model; `joints`: indices into its driven joints for the
  /// tracking errors (empty: all). Throws std::out_of_range for a bad index.
  ReplayMetricsAccumulator(const WorldModel& model, int controller, std::vector<int> joints = {}, ReplayWatch watch = {});
  /// The initial state: where the held bodies sit in their holders (without it, the state after the first
  /// step).
  void start(const State& initial);
  /// After a step: the new state and what the step computed.
  void observe(const State& state, const StepData& data, double dt);
  ReplayMetrics result() const;
  /// The run in time, one sample per kSeriesWindow (series.csv).
  const std::vector<ReplaySample>& series() const { return samples_; }

 private:
  const WorldModel& model_;
  const ControllerSpec* spec_;         // null without a controller
  int controller_;
  ReplayWatch watch_;
  MultibodyData kinematics_;            // poses at the state after each step
  std::vector<Eigen::Vector3d> held_start_;   // each held body's origin in its holder's frame at the start
  std::optional<double> drop_time_, fall_time_;
  double max_slip_ = 0, min_base_height_ = std::numeric_limits<double>::infinity(), sum_path_ = 0, max_path_ = 0;
  void watch(const State& state);
  std::vector<int> joints_;
  std::vector<int> q_index_, v_index_;   // (na) in State::q, State::v
  Eigen::VectorXd q_des_, qd_des_, qdd_des_, last_tau_;
  bool has_last_tau_ = false;
  long steps_ = 0, tau_differences_ = 0, contact_steps_ = 0;
  double sum_position_ = 0, sum_velocity_ = 0, sum_dtau_ = 0, sum_tau_ = 0, max_dtau_dt_ = 0;
  double sum_predicted_ = 0, sum_simulated_ = 0, sum_abs_error_ = 0, sum_rel_error_ = 0;
  // The open sample window (series.csv).
  ReplaySample sample_;
  double slip_now_ = ReplaySample::kNone, window_predicted_ = 0, window_simulated_ = 0, window_dtau_dt_ = 0;
  long window_steps_ = 0, window_contact_steps_ = 0;
  std::vector<ReplaySample> samples_;
  void observe_controller(const State& state, const StepData& data, double dt);
  void sample(const State& state, double dt);
};

/// metrics.json: {"metrics_version": 2, "controller": NAME, "steps", "table3": {…}, "table4": {…}, "table5":
/// {…}, "table6": {…}, "fig17": {…}} (tables 3–5 with a controller, table6 and fig17 when watched).
void write_replay_metrics(const std::string& path, const std::string& controller, const ReplayMetrics& m);

}  // namespace impetus
