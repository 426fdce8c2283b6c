// No-slip model (no_slip_model.hpp, NS1–NS4).
#include "contact/no_slip/no_slip_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace impetus {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

NoSlipOptions parse_no_slip_options(const ModelOptions& options) {
  NoSlipOptions parsed;
  for (const auto& [key, value] : options) {
    if (parse_projection_option("no_slip", key, value, parsed.projection)) continue;
    if (key == "stick_gap") {
      if (value == "inf") {
        parsed.stick_gap = std::numeric_limits<double>::infinity();
        continue;
      }
      parsed.stick_gap = parse_double_option("no_slip", key, value);
      continue;
    }
    throw OptionError("contact model 'no_slip': unknown option '" + key +
                      "' (known: solver, warm_start, max_pivots, zero_tolerance, dependence_tolerance, "
                      "certificate_tolerance, stick_gap)");
  }
  return parsed;
}

void NoSlipModel::solve(const ContactProblem& problem, ContactResult& result) {
  const auto start = std::chrono::steady_clock::now();
  // Reset field by field: report_.indices keeps its buffers (no allocation once warm).
  report_.projection = {};
  report_.equality_residual = report_.time_find_indices = report_.time_total = 0;
  const int nc = problem.nc, nl = problem.nl;

  M_inverse_.reset(problem);
  v_f_ = problem.v_star;
  factor_.reset(M_inverse_, v_f_);

  // 1. FIND-INDICES on the rows of the sticking contacts.
  sticks_.clear();
  if (std::isfinite(options_.stick_gap)) {
    sticks_.resize(nc);
    for (int i = 0; i < nc; ++i) sticks_[i] = problem.phi[i] <= options_.stick_gap;
  }
  find_indices(problem.S, problem.T, sticks_, options_.projection.pivoting.dependence_tolerance, factor_,
               report_.indices);
  report_.time_find_indices = seconds_since(start);

  // 2. The normal and joint-limit LCP.
  U_.N = &problem.N;
  U_.L = &problem.L;
  U_.set_offsets(problem);
  guess_.setZero(nc + nl);
  if (problem.p_N_guess.size() == nc) guess_.head(nc) = problem.p_N_guess;
  if (problem.p_L_guess.size() == nl) guess_.tail(nl) = problem.p_L_guess;
  projection_.solve(M_inverse_, factor_, U_, v_f_, &guess_, options_.projection, z_, result.v_plus, lambda_G_,
                    result.stats);
  report_.projection = projection_.report();

  // 3. Impulses: p_N, p_L from z; p_S, p_T from λ_G of the kept rows.
  result.p_N = z_.head(nc);
  result.p_L = z_.tail(nl);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.q_plus.resize(0);
  for (int i = 0; i < nc; ++i) {
    if (report_.indices.s_position[i] >= 0) result.p_S[i] = lambda_G_[report_.indices.s_position[i]];
    if (report_.indices.t_position[i] >= 0) result.p_T[i] = lambda_G_[report_.indices.t_position[i]];
  }

  // (NS2) on every sticking contact, dropped rows included: the certificate of step 1.
  double eq = 0;
  for (int i = 0; i < nc; ++i) {
    if (!sticks_.empty() && !sticks_[i]) continue;
    eq = std::max({eq, std::abs(row_dot({&problem.S, i}, result.v_plus)),
                   std::abs(row_dot({&problem.T, i}, result.v_plus))});
  }
  report_.equality_residual = eq;
  const double s_v = report_.projection.pivoting.velocity_scale > 0
                         ? report_.projection.pivoting.velocity_scale
                         : projection_velocity_scale(factor_, U_, v_f_);
  result.stats.residual = std::max(result.stats.residual, eq / s_v);
  report_.time_total = seconds_since(start);
}

}  // namespace impetus
