#include "sim/recorder.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "dynamics/energy.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/step_kinematics.hpp"

namespace impetus {

namespace {

std::ofstream open_csv(const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path.string() + ":0: error: cannot write this file");
  return out;
}

/// Recording instants are compared with this slack so that t = k·record_dt is not missed by round-off.
constexpr double kRecordTimeSlack = 1e-9;

}  // namespace

Recorder::Recorder(const WorldModel& model, const std::string& out_dir, double dt, double record_dt)
    : model_(model),
      out_dir_(out_dir),
      dt_(dt),
      record_dt_(record_dt < dt ? 0 : record_dt),
      data_(model.multibody),
      control_(model, (std::filesystem::create_directories(out_dir), out_dir)) {
  const std::filesystem::path dir(out_dir_);
  trajectory_ = open_csv(dir / "trajectory.csv");
  contacts_ = open_csv(dir / "contacts.csv");
  stats_ = open_csv(dir / "stats.csv");

  trajectory_ << "t";
  for (const Link& link : model_.multibody.links)
    for (const char* c : {"px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"})
      trajectory_ << ',' << link.name << '.' << c;
  for (const RecordedJoint& j : model_.recorded_joints) trajectory_ << ',' << j.column << ".q," << j.column << ".qd";
  trajectory_ << ",kinetic_energy,potential_energy\n";
  contacts_ << "t,a,b,px,py,pz,nx,ny,nz,gap,impulse_n,impulse_t1,impulse_t2\n";
  stats_ << "t,contacts,solver_calls,solver_iterations,solver_fallbacks,solver_failures,kinetic_energy,"
            "potential_energy,max_penetration\n";
}

const MultibodyData& Recorder::kinematics_of(const State& state, const StepData* step) {
  if (step != nullptr && holds_kinematics_of(*step, state.q, state.v)) return step->multibody;
  forward_kinematics(model_.multibody, data_, state.q, state.v);
  return data_;
}

double Recorder::energy(const MultibodyData& kin) {
  last_kinetic_ = kinetic_energy(model_.multibody, kin);
  last_potential_ = potential_energy(model_.multibody, kin);
  return last_kinetic_ + last_potential_;
}

void Recorder::record_initial(const State& state) {
  const MultibodyData& kin = kinematics_of(state, nullptr);
  last_energy_ = totals_.energy_initial = totals_.energy_final = energy(kin);
  last_state_ = state;
  write_trajectory_row(state, kin);
  row_.number(state.t);   // 0, or the time of a restart point
  row_.text(",0,0,0,0,0,");
  row_.number(last_kinetic_);
  row_.comma();
  row_.number(last_potential_);
  row_.text(",0\n");
  row_.write_to(stats_);
  next_record_t_ = state.t + record_dt_;
}

void Recorder::record_step(const State& state, const StepData& step, bool last) {
  const auto start = std::chrono::steady_clock::now();
  RunTotals& r = totals_;
  const StepStatistics& s = step.stats;
  ++r.steps;
  r.times += step.times;
  r.max_penetration = std::max(r.max_penetration, s.max_penetration);
  r.contacts_sum += s.contacts;
  r.contacts_max = std::max(r.contacts_max, s.contacts);
  r.solver_calls += s.solver_calls;
  r.solver_failures += s.solver_failures;
  r.solver_fallbacks += s.solver_fallbacks;
  if (s.solver_failures > 0) ++r.unsolved_steps;
  r.solver_iterations += s.solver_iterations;
  r.solver_max_iterations = std::max(r.solver_max_iterations, s.solver_max_iterations);
  if (s.solver_calls > 0) r.contact_max_gain = std::max(r.contact_max_gain, s.contact_energy_change);
  control_.accumulate(step);

  const MultibodyData& kin = kinematics_of(state, &step);
  const double E = energy(kin);
  r.energy_max_gain = std::max(r.energy_max_gain, E - last_energy_);
  r.energy_final = last_energy_ = E;
  last_state_ = state;

  if (last || state.t >= next_record_t_ - kRecordTimeSlack) {
    write_trajectory_row(state, kin);
    write_contact_rows(state.t, step);
    write_stats_row(state.t, step);
    control_.write_row(state.t, step);
    // Rows reach the files as they are recorded: a run killed mid-way keeps what it recorded.
    trajectory_.flush();
    contacts_.flush();
    stats_.flush();
    while (next_record_t_ <= state.t + kRecordTimeSlack) next_record_t_ += record_dt_ > 0 ? record_dt_ : dt_;
  }
  r.times.recording += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Recorder::write_trajectory_row(const State& state, const MultibodyData& kin) {
  row_.number(state.t);
  for (std::size_t i = 0; i < model_.multibody.links.size(); ++i) {
    const Eigen::Isometry3d& X = kin.X_WL[i];
    const Eigen::Quaterniond quat(X.linear());
    const Vec3 p = X.translation(), v = point_velocity(kin.V[i], p), w = kin.V[i].head<3>();
    for (double x : {p.x(), p.y(), p.z(), quat.w(), quat.x(), quat.y(), quat.z(), v.x(), v.y(), v.z(), w.x(), w.y(), w.z()}) {
      row_.comma();
      row_.number(x);
    }
  }
  for (const RecordedJoint& j : model_.recorded_joints) {
    row_.comma();
    row_.number(state.q[j.q_index]);
    row_.comma();
    row_.number(state.v[j.v_index]);
  }
  row_.comma();
  row_.number(last_kinetic_);
  row_.comma();
  row_.number(last_potential_);
  row_.end_row();
  row_.write_to(trajectory_);
}

void Recorder::write_contact_rows(double t, const StepData& step) {
  // The contacts of the step that ended at t: detected at its start, impulses over the step.
  auto id = [&](int link) {
    return link < 0 ? std::string_view("ground") : std::string_view(model_.multibody.links[link].name);
  };
  for (const ContactReport& c : step.reported) {   // one path for every model (StepData::reported)
    row_.number(t);
    row_.comma();
    row_.text(id(c.body_a));
    row_.comma();
    row_.text(id(c.body_b));
    for (double x : {c.p_W.x(), c.p_W.y(), c.p_W.z(), c.n_W.x(), c.n_W.y(), c.n_W.z(), c.gap, c.impulse[0],
                     c.impulse[1], c.impulse[2]}) {
      row_.comma();
      row_.number(x);
    }
    row_.end_row();
  }
  row_.write_to(contacts_);
}

void Recorder::write_stats_row(double t, const StepData& step) {
  const StepStatistics& s = step.stats;
  row_.number(t);
  for (int count : {s.contacts, s.solver_calls, s.solver_iterations, s.solver_fallbacks, s.solver_failures}) {
    row_.comma();
    row_.integer(count);
  }
  for (double x : {last_kinetic_, last_potential_, s.max_penetration}) {
    row_.comma();
    row_.number(x);
  }
  row_.end_row();
  row_.write_to(stats_);
}

void Recorder::finish(const RunVerdict& verdict, const std::string& contact_model, double dt) {
  trajectory_.close();
  contacts_.close();
  stats_.close();
  control_.close();
  const RunTotals& r = totals_;
  using nlohmann::json;
  auto finite_or_zero = [](double x) { return std::isfinite(x) ? x : 0.0; };
  json timing = {{"kinematics", r.times.kinematics}, {"collision", r.times.collision},   {"control", r.times.control},
                 {"dynamics", r.times.dynamics},
                 {"assembly", r.times.assembly},     {"contact", r.times.contact},       {"integration", r.times.integration},
                 {"recording", r.times.recording}};
  json final_state = json::object();
  forward_kinematics(model_.multibody, data_, last_state_.q, last_state_.v);
  for (std::size_t i = 0; i < model_.multibody.links.size(); ++i) {
    const Eigen::Isometry3d& X = data_.X_WL[i];
    const Eigen::Quaterniond quat(X.linear());
    const Vec3 p = X.translation(), v = point_velocity(data_.V[i], p), w = data_.V[i].head<3>();
    final_state[model_.multibody.links[i].name] = {{"p", {p.x(), p.y(), p.z()}},
                                                   {"q", {quat.w(), quat.x(), quat.y(), quat.z()}},
                                                   {"v", {v.x(), v.y(), v.z()}},
                                                   {"w", {w.x(), w.y(), w.z()}}};
  }
  json warnings = json::array();
  for (const LoadWarning& w : model_.warnings) warnings.push_back({{"file", w.file}, {"line", w.line}, {"message", w.message}});
  json summary = {
      {"scene", model_.name},
      {"contact_model", contact_model},
      {"dt", dt},
      {"steps", r.steps},
      {"sim_time", last_state_.t},
      {"wall_time_s", r.times.stepping()},
      {"timing", timing},
      {"status", verdict.status},
      {"status_detail", verdict.detail},
      {"warnings", warnings},
      {"max_penetration", r.max_penetration},
      {"contacts", {{"max_per_step", r.contacts_max}, {"mean_per_step", r.steps ? double(r.contacts_sum) / r.steps : 0.0}}},
      {"solver",
       {{"calls", r.solver_calls},
        {"failures", r.solver_failures},
        {"fallbacks", r.solver_fallbacks},
        {"unsolved_steps", r.unsolved_steps},
        {"mean_iterations", r.solver_calls ? double(r.solver_iterations) / r.solver_calls : 0.0},
        {"max_iterations", r.solver_max_iterations}}},
      {"energy",
       {{"initial", r.energy_initial},
        {"final", finite_or_zero(r.energy_final)},
        {"max_gain", r.steps ? finite_or_zero(r.energy_max_gain) : 0.0},
        {"max_rise", verdict.energy_max_rise},
        {"contact_max_gain", r.solver_calls ? finite_or_zero(r.contact_max_gain) : 0.0}}},
      {"final_state", final_state}};
  if (control_.active()) {
    const ControlTotals& c = control_.totals();
    summary["control"] = {{"calls", c.calls},
                          {"failures", c.failures},
                          {"fallbacks", c.fallbacks},
                          {"clamped_steps", c.clamped_steps},
                          {"saturated_calls", c.saturated_calls},
                          {"mean_time_s", c.calls ? c.time_sum / c.calls : 0.0},
                          {"max_time_s", c.time_max}};
  }
  std::ofstream out(std::filesystem::path(out_dir_) / "summary.json");
  out << summary.dump(2) << '\n';
}

}  // namespace impetus
