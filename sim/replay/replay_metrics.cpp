// Seed 004's table metrics of a run (replay_metrics.hpp).
#include "sim/replay/replay_metrics.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace impetus {

ReplayMetricsAccumulator::ReplayMetricsAccumulator(const WorldModel& model, int controller, std::vector<int> joints)
    : model_(model), spec_(model.controllers.at(controller)), controller_(controller), joints_(std::move(joints)) {
  const int na = static_cast<int>(spec_.links.size());
  if (joints_.empty())
    for (int j = 0; j < na; ++j) joints_.push_back(j);
  for (int j : joints_)
    if (j < 0 || j >= na) throw std::out_of_range("replay metrics: joint index " + std::to_string(j) + " of " + std::to_string(na));
  for (int link : spec_.links) {
    q_index_.push_back(model.multibody.links[link].joint.q_index);
    v_index_.push_back(model.multibody.links[link].joint.v_index);
  }
}

void ReplayMetricsAccumulator::observe(const State& state, const StepData& data, double dt) {
  ++steps_;
  spec_.trajectory.evaluate(state.t, q_des_, qd_des_, qdd_des_);
  double e_pos = 0, e_vel = 0;
  for (int j : joints_) {
    e_pos += std::abs(state.q[q_index_[j]] - q_des_[j]);
    e_vel += std::abs(state.v[v_index_[j]] - qd_des_[j]);
  }
  sum_position_ += e_pos / joints_.size();
  sum_velocity_ += e_vel / joints_.size();

  const ControlStepRecord& record = data.control.at(controller_);
  const Eigen::VectorXd& tau = record.tau;
  sum_tau_ += tau.cwiseAbs().mean();
  if (has_last_tau_) {
    const Eigen::VectorXd dtau = (tau - last_tau_).cwiseAbs();
    sum_dtau_ += dtau.mean();
    max_dtau_dt_ = std::max(max_dtau_dt_, dtau.maxCoeff() / dt);
    ++tau_differences_;
  }
  last_tau_ = tau;
  has_last_tau_ = true;

  // Table 5: the controller's island (the one holding its tree).
  double simulated = 0;
  bool in_contact = false;
  for (const Island& island : data.islands)
    for (int t : island.trees)
      if (t == spec_.tree)
        for (int c : island.contacts) {
          simulated += data.impulse[c][0] / dt;
          in_contact = true;
        }
  if (in_contact && simulated > 0) {
    const double predicted = record.normal_force;
    ++contact_steps_;
    sum_predicted_ += predicted;
    sum_simulated_ += simulated;
    sum_abs_error_ += std::abs(predicted - simulated);
    sum_rel_error_ += std::abs(predicted - simulated) / simulated;
  }
}

ReplayMetrics ReplayMetricsAccumulator::result() const {
  ReplayMetrics m;
  m.steps = steps_;
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
  j["metrics_version"] = 1;
  j["controller"] = controller;
  j["steps"] = m.steps;
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
