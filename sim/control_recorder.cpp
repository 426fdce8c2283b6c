#include "sim/control_recorder.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace impetus {
ControlRecorder::ControlRecorder(const WorldModel& model, const std::string& out_dir) : model_(model) {
  active_ = !model.controllers.empty();
  if (!active_) return;
  const std::filesystem::path path = std::filesystem::path(out_dir) / "control.csv";
  out_.open(path);
  if (!out_) throw std::runtime_error(path.string() + ":0: error: cannot write this file");
  out_ << "t";
  for (const ControllerSpec& c : model.controllers) {
    for (const std::string& j : c.joints) out_ << ',' << j << ".q_des," << j << ".qd_des," << j << ".tau";
    out_ << ',' << c.model << ".normal_force," << c.model << ".saturated," << c.model << ".status";
  }
  out_ << '\n';
}

void ControlRecorder::accumulate(const StepData& step) {
  bool clamped = false;
  for (const ControlStepRecord& r : step.control) {
    clamped = clamped || r.clamped;
    if (!r.called) continue;
    ++totals_.calls;
    if (r.call.stats.status == SolveStatus::Failed) ++totals_.failures;
    if (r.call.saturated > 0) ++totals_.saturated_calls;
    totals_.fallbacks += r.call.fallbacks;
    totals_.time_sum += r.call.seconds;
    totals_.time_max = std::max(totals_.time_max, r.call.seconds);
  }
  if (clamped) ++totals_.clamped_steps;
}

void ControlRecorder::write_row(double t, const StepData& step) {
  if (!active_) return;
  row_.number(t);
  for (std::size_t c = 0; c < model_.controllers.size(); ++c) {
    const std::size_t na = model_.controllers[c].joints.size();
    const ControlStepRecord* r = c < step.control.size() ? &step.control[c] : nullptr;
    for (std::size_t a = 0; a < na; ++a) {
      const bool has = r && r->call.q_des.size() == static_cast<long>(na);
      for (double x : {has ? r->call.q_des[a] : 0.0, has ? r->call.qd_des[a] : 0.0,
                       r && r->tau.size() == static_cast<long>(na) ? r->tau[a] : 0.0}) {
        row_.comma();
        row_.number(x);
      }
    }
    row_.comma();
    if (!r) row_.number(0.0);
    else if (std::isfinite(r->normal_force)) row_.number(r->normal_force);   // empty: no prediction (failed call)
    row_.comma();
    row_.integer(r ? r->call.saturated : 0);
    row_.comma();
    row_.text(r ? std::string_view(r->status) : std::string_view("none"));
  }
  row_.end_row();
  row_.write_to(out_);
  out_.flush();
}

}  // namespace impetus
