#include "sim/control_recorder.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace impetus {
namespace {

void put(std::ofstream& out, double x) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  out.write(buffer, end - buffer);
}

}  // namespace

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
  put(out_, t);
  for (std::size_t c = 0; c < model_.controllers.size(); ++c) {
    const std::size_t na = model_.controllers[c].joints.size();
    const ControlStepRecord* r = c < step.control.size() ? &step.control[c] : nullptr;
    for (std::size_t a = 0; a < na; ++a) {
      const bool has = r && r->call.q_des.size() == static_cast<long>(na);
      out_ << ',';
      put(out_, has ? r->call.q_des[a] : 0.0);
      out_ << ',';
      put(out_, has ? r->call.qd_des[a] : 0.0);
      out_ << ',';
      put(out_, r && r->tau.size() == static_cast<long>(na) ? r->tau[a] : 0.0);
    }
    out_ << ',';
    if (!r) put(out_, 0.0);
    else if (std::isfinite(r->normal_force)) put(out_, r->normal_force);   // empty: no prediction (failed call)
    out_ << ',' << (r ? r->call.saturated : 0);
    out_ << ',' << (r ? r->status : std::string("none"));
  }
  out_ << '\n';
  out_.flush();
}

}  // namespace impetus
