// Controllers (controller.hpp).
#include "control/controller.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "control/inverse_dynamics/id_baselines.hpp"
#include "control/inverse_dynamics/id_lcp_coulomb.hpp"
#include "control/inverse_dynamics/id_lcp_noslip.hpp"
#include "control/inverse_dynamics/id_qp.hpp"
#include "control/sticking_target.hpp"

namespace impetus {
namespace {

double parse_real(const std::string& key, const std::string& value) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(x))
    throw std::invalid_argument("attribute " + key + ": expected a finite number, got \"" + value + "\"");
  return x;
}

int parse_int(const std::string& key, const std::string& value, int lo, int hi) {
  const double x = parse_real(key, value);
  if (x != std::floor(x) || x < lo || x > hi)
    throw std::invalid_argument("attribute " + key + ": expected an integer in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "], got \"" + value + "\"");
  return static_cast<int>(x);
}

bool parse_bool(const std::string& key, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  throw std::invalid_argument("attribute " + key + ": expected true, false, 1 or 0, got \"" + value + "\"");
}

std::unique_ptr<InverseDynamicsSolver> make_solver(const ControllerSettings& s) {
  if (s.type == "id_no_contact") return std::make_unique<IdNoContact>();
  if (s.type == "id_sensed") return std::make_unique<IdSensed>();
  if (s.type == "id_lcp_noslip") {
    IdLcpNoSlipOptions options;
    options.projection.warm_start = s.warm_start;
    options.stage_two = s.stage_two;
    return std::make_unique<IdLcpNoSlip>(options);
  }
  if (s.type == "id_lcp_coulomb") {
    IdLcpCoulombOptions options;
    options.friction_edges = s.friction_edges;
    return std::make_unique<IdLcpCoulomb>(options);
  }
  if (s.type == "id_qp_coulomb" || s.type == "id_qp_noslip") {
    IdQpOptions options;
    options.unbounded_friction = s.type == "id_qp_noslip";
    options.friction_edges = s.friction_edges;
    options.stage_two = s.stage_two;
    options.mu_infinity = s.mu_infinity;
    options.warm_start = s.warm_start;
    return std::make_unique<IdQp>(options);
  }
  return nullptr;   // pid
}

}  // namespace

const std::vector<std::string>& controller_names() {
  static const std::vector<std::string> names{"id_lcp_noslip", "id_lcp_coulomb", "id_qp_coulomb", "id_qp_noslip",
                                              "pid",           "id_sensed",      "id_no_contact"};
  return names;
}

ControllerSettings parse_controller_settings(const std::string& type, const std::map<std::string, std::string>& attributes) {
  ControllerSettings s;
  bool known = false;
  for (const std::string& name : controller_names()) known = known || name == type;
  if (!known) {
    std::string list;
    for (const std::string& name : controller_names()) list += (list.empty() ? "" : ", ") + name;
    throw std::invalid_argument("attribute type: unknown controller \"" + type + "\" (known: " + list + ")");
  }
  s.type = type;
  for (const auto& [key, value] : attributes) {
    if (key == "kp" || key == "kd" || key == "ki") {
      const double x = parse_real(key, value);
      if (x < 0) throw std::invalid_argument("attribute " + key + ": expected a gain ≥ 0, got \"" + value + "\"");
      (key == "kp" ? s.kp : key == "kd" ? s.kd : s.ki) = x;
    } else if (key == "rate") {
      s.rate = parse_int(key, value, 1, 1000000);
    } else if (key == "lag") {
      s.lag = parse_int(key, value, 0, 2);
    } else if (key == "sensed_lag" && type == "id_sensed") {
      s.sensed_lag = parse_int(key, value, 1, 2);
    } else if (key == "friction_edges" && (type == "id_lcp_coulomb" || type == "id_qp_coulomb")) {
      s.friction_edges = type == "id_lcp_coulomb" ? parse_int(key, value, 4, 64) : parse_int(key, value, 3, 16);
      if (type == "id_lcp_coulomb" && s.friction_edges % 2 != 0)
        throw std::invalid_argument("attribute friction_edges: expected an even number (as stewart_trinkle), got \"" +
                                    value + "\"");
    } else if (key == "stage_two" && (type == "id_qp_coulomb" || type == "id_qp_noslip" || type == "id_lcp_noslip")) {
      s.stage_two = parse_bool(key, value);
    } else if (key == "mu_infinity" && type == "id_qp_noslip") {
      s.mu_infinity = parse_real(key, value);
      if (!(s.mu_infinity > 0)) throw std::invalid_argument("attribute mu_infinity: expected a number > 0, got \"" + value + "\"");
    } else if (key == "warm_start" && (type == "id_lcp_noslip" || type == "id_qp_coulomb" || type == "id_qp_noslip")) {
      s.warm_start = parse_bool(key, value);
    } else {
      throw std::invalid_argument("attribute " + key + " is not an option of controller " + type);
    }
  }
  return s;
}

Controller::Controller(ControllerSettings settings, DesiredTrajectory trajectory,
                       std::shared_ptr<const TrajectorySource> source)
    : settings_(std::move(settings)), trajectory_(std::move(trajectory)), source_(std::move(source)),
      solver_(make_solver(settings_)) {
  integral_.setZero(size());
  if (source_) source_memory_ = source_->initial_memory();
}

ControllerMemory Controller::memory() const {
  ControllerMemory memory{integral_, {}, source_memory_};
  if (solver_ && solver_->memory()) memory.prediction = *solver_->memory();
  return memory;
}

void Controller::restore(const ControllerMemory& memory) {
  integral_ = memory.integral;
  if (source_) source_memory_ = memory.source.size() ? memory.source : source_->initial_memory();
  if (solver_) solver_->restore_memory(memory.prediction);
}

void Controller::reserve(int nv, int most_contacts) {
  if (!solver_) return;
  solution_.reserve_impulses(most_contacts);
  effort_limits_.reserve(size(), nv, most_contacts);
  sticking_.reserve(nv, most_contacts);
}

void Controller::compute(double t, double dt, const Measurement& measured, InverseDynamicsProblem* problem,
                         ContactProblem* contact, ControlCall& call) {
  const auto start = std::chrono::steady_clock::now();
  const Eigen::VectorXd& q = measured.q;
  const Eigen::VectorXd& qd = measured.qd;
  if (source_)
    source_->evaluate(t, measured, source_memory_, call.q_des, call.qd_des, call.qdd_des);
  else
    trajectory_.evaluate(t, call.q_des, call.qd_des, call.qdd_des);
  e_ = call.q_des - q;
  e_dot_ = call.qd_des - qd;
  integral_ += dt * settings_.rate * e_;
  feedback_ = settings_.kp * e_ + settings_.kd * e_dot_ + settings_.ki * integral_;
  call.stats = {};
  call.fallbacks = 0;
  call.saturated = 0;
  call.effort_rounds = 0;
  if (!solver_) {   // pid: the feedback alone (seed 004 Fig. 10)
    call.tau = feedback_;
    call.qd_target = call.qd_des;
    call.p_N.resize(0);
    call.p_S.resize(0);
    call.p_T.resize(0);
  } else {
    problem->qd_des = qd + dt * (call.qdd_des + feedback_);   // Eqs. 38–39
    // QP,∞ holds every touching contact sticking: a target its contacts forbid (a grasp's feedback closing
    // the fingers onto the rigid box) leaves Stage I a Lemke ray or a μ_∞ squeeze the simulator never
    // applies (arm7_grasp box_noslip: 260 of 800 calls failed, Σ f_N predicted 706 N against 26 N, box
    // dropped at 0.74 s). Seed 004 §4.5: the nearest target they allow, contacts free to open
    // (sticking_target.hpp). A gait's target holds its stance feet (sticking and closed).
    if (source_)
      make_sticking_consistent(*problem, problem->qd_des, sticking_);
    else if (settings_.type == "id_qp_noslip")
      make_contacts_consistent(*problem, problem->qd_des, sticking_);
    call.qd_target = problem->qd_des;
    effort_limits_.solve(*solver_, *problem, *contact, solution_);
    call.stats = solution_.stats;
    call.fallbacks = solution_.fallbacks;
    call_p_N_parked_.fit(call.p_N, solution_.p_N.size(), 1);
    call_p_S_parked_.fit(call.p_S, solution_.p_S.size(), 1);
    call_p_T_parked_.fit(call.p_T, solution_.p_T.size(), 1);
    call.p_N = solution_.p_N;
    call.p_S = solution_.p_S;
    call.p_T = solution_.p_T;
    call.tau = solution_.tau / dt;
    call.effort_rounds = solution_.effort_rounds;
    for (int a = 0; a < solution_.saturated.size(); ++a)
      if (solution_.saturated[a] != 0) {   // exactly the limit, which the stage's clamp then leaves alone
        call.tau[a] = solution_.saturated[a] * problem->effort[a];
        ++call.saturated;
      }
    if (call.stats.status != SolveStatus::Failed && !call.tau.allFinite()) {
      call.stats.status = SolveStatus::Failed;
      call.stats.message = "non-finite τ";
    }
  }
  call.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace impetus
