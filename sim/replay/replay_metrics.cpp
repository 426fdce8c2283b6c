// Seed 004's table metrics of a run (replay_metrics.hpp).
#include "sim/replay/replay_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dynamics/kinematics.hpp"

namespace impetus {

namespace {

/// Distance from p to the segment [a, b].
double segment_distance(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d d = b - a;
  const double s = d.squaredNorm() > 0 ? std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
  return (p - (a + s * d)).norm();
}

}  // namespace

ReplayMetricsAccumulator::ReplayMetricsAccumulator(const WorldModel& model, int controller, std::vector<int> joints,
                                                   ReplayWatch watch)
    : model_(model), spec_(controller >= 0 ? &model.controllers.at(controller) : nullptr), controller_(controller),
      watch_(std::move(watch)), kinematics_(model.multibody), joints_(std::move(joints)) {
  if (!spec_) return;
  const int na = static_cast<int>(spec_->links.size());
  if (joints_.empty())
    for (int j = 0; j < na; ++j) joints_.push_back(j);
  for (int j : joints_)
    if (j < 0 || j >= na) throw std::out_of_range("replay metrics: joint index " + std::to_string(j) + " of " + std::to_string(na));
  for (int link : spec_->links) {
    q_index_.push_back(model.multibody.links[link].joint.q_index);
    v_index_.push_back(model.multibody.links[link].joint.v_index);
  }
}

void ReplayMetricsAccumulator::watch(const State& state) {
  if (watch_.held.empty() && watch_.base < 0) return;
  forward_kinematics(model_.multibody, kinematics_, state.q, state.v);
  const std::vector<Eigen::Isometry3d>& X = kinematics_.X_WL;
  if (!watch_.held.empty()) slip_now_ = 0;
  for (size_t i = 0; i < watch_.held.size(); ++i) {
    const auto [body, holder] = watch_.held[i];
    const Eigen::Vector3d p_HB = X[holder].inverse() * X[body].translation();
    if (held_start_.size() <= i) {
      held_start_.push_back(p_HB);
      continue;
    }
    const double slip = (p_HB - held_start_[i]).norm();
    max_slip_ = std::max(max_slip_, slip);
    slip_now_ = std::max(slip_now_, slip);
    if (slip > watch_.lost_distance && !drop_time_) drop_time_ = state.t;
  }
  if (watch_.base >= 0) {
    const Eigen::Isometry3d& X_WB = X[watch_.base];
    const double z = X_WB.translation().z();
    min_base_height_ = std::min(min_base_height_, z);
    const double tilt = std::acos(std::clamp(X_WB.linear()(2, 2), -1.0, 1.0));
    sample_.com_x = kinematics_.p_WC[watch_.base].x();
    sample_.com_y = kinematics_.p_WC[watch_.base].y();
    if ((z < watch_.fall_height || tilt > watch_.fall_tilt) && !fall_time_) fall_time_ = state.t;
    if (watch_.waypoints.size() >= 2 && steps_ > 0) {
      const Eigen::Vector2d p = kinematics_.p_WC[watch_.base].head<2>();
      double d = std::numeric_limits<double>::infinity();
      for (size_t k = 0; k + 1 < watch_.waypoints.size(); ++k)
        d = std::min(d, segment_distance(p, watch_.waypoints[k], watch_.waypoints[k + 1]));
      sum_path_ += d;
      max_path_ = std::max(max_path_, d);
    }
  }
}

void ReplayMetricsAccumulator::start(const State& state) { watch(state); }

void ReplayMetricsAccumulator::observe(const State& state, const StepData& data, double dt) {
  ++steps_;
  watch(state);
  if (spec_) observe_controller(state, data, dt);
  sample(state, dt);
}

void ReplayMetricsAccumulator::sample(const State& state, double dt) {
  ++window_steps_;
  if (window_steps_ < std::max(1L, std::lround(kSeriesWindow / dt))) return;
  sample_.t = state.t;
  sample_.slip = slip_now_;
  if (spec_) sample_.max_abs_dtau_dt = window_dtau_dt_;
  if (window_contact_steps_ > 0) {
    sample_.normal_force_predicted = window_predicted_ / window_contact_steps_;
    sample_.normal_force_simulated = window_simulated_ / window_contact_steps_;
  }
  samples_.push_back(sample_);
  sample_ = ReplaySample();
  window_steps_ = window_contact_steps_ = 0;
  window_predicted_ = window_simulated_ = window_dtau_dt_ = 0;
}

void ReplayMetricsAccumulator::observe_controller(const State& state, const StepData& data, double dt) {
  spec_->trajectory.evaluate(state.t, q_des_, qd_des_, qdd_des_);
  double e_pos = 0, e_vel = 0;
  for (int j : joints_) {
    e_pos += std::abs(state.q[q_index_[j]] - q_des_[j]);
    e_vel += std::abs(state.v[v_index_[j]] - qd_des_[j]);
  }
  sum_position_ += e_pos / joints_.size();
  sum_velocity_ += e_vel / joints_.size();
  sample_.position_error = e_pos / joints_.size();
  sample_.velocity_error = e_vel / joints_.size();

  const ControlStepRecord& record = data.control.at(controller_);
  const Eigen::VectorXd& tau = record.tau;
  sum_tau_ += tau.cwiseAbs().mean();
  if (has_last_tau_) {
    const Eigen::VectorXd dtau = (tau - last_tau_).cwiseAbs();
    sum_dtau_ += dtau.mean();
    max_dtau_dt_ = std::max(max_dtau_dt_, dtau.maxCoeff() / dt);
    window_dtau_dt_ = std::max(window_dtau_dt_, dtau.maxCoeff() / dt);
    ++tau_differences_;
  }
  last_tau_ = tau;
  has_last_tau_ = true;

  // Table 5: the controller's island (the one holding its tree).
  double simulated = 0;
  bool in_contact = false;
  for (const Island& island : data.islands)
    for (int t : island.trees)
      if (t == spec_->tree)
        for (int c : island.contacts) {
          simulated += data.impulse[c][0] / dt;
          in_contact = true;
        }
  // A failed call predicts nothing (its normal_force is NaN): such steps are left out of Table 5.
  if (in_contact && simulated > 0 && std::isfinite(record.normal_force)) {
    const double predicted = record.normal_force;
    ++contact_steps_;
    sum_predicted_ += predicted;
    sum_simulated_ += simulated;
    sum_abs_error_ += std::abs(predicted - simulated);
    sum_rel_error_ += std::abs(predicted - simulated) / simulated;
    ++window_contact_steps_;
    window_predicted_ += predicted;
    window_simulated_ += simulated;
  }
}

ReplayMetrics ReplayMetricsAccumulator::result() const {
  ReplayMetrics m;
  m.steps = steps_;
  m.has_controller = spec_ != nullptr;
  m.watches_held = !watch_.held.empty();
  m.watches_base = watch_.base >= 0;
  m.watches_path = watch_.waypoints.size() >= 2;
  m.drop_time = drop_time_;
  m.max_slip = max_slip_;
  m.fall_time = fall_time_;
  m.min_base_height = watch_.base >= 0 ? min_base_height_ : 0;
  if (steps_ > 0) m.path_mean_distance = sum_path_ / steps_;
  m.path_max_distance = max_path_;
  if (steps_ > 0) {
    m.position_error = sum_position_ / steps_;
    m.velocity_error = sum_velocity_ / steps_;
    m.mean_abs_tau = sum_tau_ / steps_;
  }
  if (tau_differences_ > 0) m.mean_abs_dtau = sum_dtau_ / tau_differences_;
  m.max_abs_dtau_dt = max_dtau_dt_;
  m.contact_steps = contact_steps_;
  if (contact_steps_ > 0) {
    m.normal_force_predicted = sum_predicted_ / contact_steps_;
    m.normal_force_simulated = sum_simulated_ / contact_steps_;
    m.normal_force_abs_error = sum_abs_error_ / contact_steps_;
    m.normal_force_rel_error = sum_rel_error_ / contact_steps_;
  }
  return m;
}

void write_replay_metrics(const std::string& path, const std::string& controller, const ReplayMetrics& m) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["metrics_version"] = 2;
  j["controller"] = controller;
  j["steps"] = m.steps;
  const auto time_or_null = [](const std::optional<double>& t) { return t ? ordered_json(*t) : ordered_json(nullptr); };
  if (m.watches_held || m.watches_base) {
    ordered_json t6;
    if (m.watches_held) {
      t6["dropped"] = m.drop_time.has_value();
      t6["drop_time_s"] = time_or_null(m.drop_time);
      t6["max_slip_m"] = m.max_slip;
    }
    if (m.watches_base) {
      t6["fell"] = m.fall_time.has_value();
      t6["fall_time_s"] = time_or_null(m.fall_time);
      t6["min_base_height_m"] = m.min_base_height;
    }
    j["table6"] = t6;
  }
  if (m.watches_path)
    j["fig17"] = {{"com_path_mean_distance_m", m.path_mean_distance}, {"com_path_max_distance_m", m.path_max_distance}};
  if (!m.has_controller) {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path);
    out << j.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + path);
    return;
  }
  j["table3"] = {{"position_error_rad", m.position_error}, {"velocity_error_rad_s", m.velocity_error}};
  j["table4"] = {{"mean_abs_dtau_Nm", m.mean_abs_dtau}, {"mean_abs_tau_Nm", m.mean_abs_tau},
                 {"max_abs_dtau_dt_Nm_s", m.max_abs_dtau_dt}};
  j["table5"] = {{"contact_steps", m.contact_steps},
                 {"normal_force_predicted_N", m.normal_force_predicted},
                 {"normal_force_simulated_N", m.normal_force_simulated},
                 {"normal_force_abs_error_N", m.normal_force_abs_error},
                 {"normal_force_rel_error", m.normal_force_rel_error}};
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << j.dump(2) << '\n';
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace impetus
