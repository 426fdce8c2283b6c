// No-slip model (no_slip_model.hpp, NS1–NS4).
#include "contact/no_slip/no_slip_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus {

NoSlipOptions NoSlipOptions::parse(const ModelOptions& options) {
  OptionReader read("no_slip", options);
  NoSlipOptions o;
  o.projection = ProjectionOptions::parse(read);
  // Any gap, `inf` (the default) included: a negative one keeps rows only on penetrating contacts.
  o.stick_gap = read.real("stick_gap", o.stick_gap, -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::infinity());
  o.equality_dependence_tolerance =
      read.real("equality_dependence_tolerance", o.equality_dependence_tolerance, 0, 0.5, OptionReader::Lower::Open);
  read.finish();
  return o;
}

std::unique_ptr<ContactWorkspace> NoSlipModel::make_workspace() const {
  return std::make_unique<Workspace>();
}

void NoSlipModel::solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const {
  Workspace& ws = static_cast<Workspace&>(workspace);
  const double tau_G = options_.equality_dependence_tolerance;
  attempt(problem, tau_G, result, ws);
  if (result.stats.status == SolveStatus::Solved || !(kNoSlipRetryDependence > tau_G)) return;
  // (NS5) A near-dependent no-slip row kept at sin²θ just above τ_G can leave G so ill-conditioned
  // that v⁺ is wrong although G v⁺ = 0 holds to roundoff (jaco with its fingers on the floor: G of
  // rank nv = 10, a row at sin²θ = 2e-10, N v⁺ off by 0.02 m/s). Once more with the rank decided at
  // kNoSlipRetryDependence; kept only when it meets the certificate on every row, dropped ones included.
  ws.first_ = result;
  attempt(problem, kNoSlipRetryDependence, result, ws);
  if (result.stats.status == SolveStatus::Solved && result.stats.residual <= options_.projection.certificate_tolerance) {
    result.stats.attempts += ws.first_.stats.attempts;
    result.stats.iterations += ws.first_.stats.iterations;
    return;
  }
  result = ws.first_;
}

void NoSlipModel::attempt(const ContactProblem& problem, double tau_G, ContactResult& result, Workspace& ws) const {
  // Reset field by field: report.indices keeps its buffers (no allocation once warm).
  NoSlipReport& report = result.report_slot<NoSlipReport>();
  report.projection = {};
  report.equality_residual = 0;
  const int nc = problem.nc, nl = problem.nl;

  ws.M_inverse_.reset(problem);
  ws.factor_.reset(ws.M_inverse_, problem.v_star);   // v_f = v*: the metric is M

  // 1. FIND-INDICES on the rows of the sticking contacts.
  // The paper's lock holds every contact within the collision margin, not the speculative ones beyond
  // it (problem.touch_margin): a lock on a contact that cannot touch within the step pins its link
  // tangentially at a distance (the jaco arm's wrist 5.7 mm above the ground made principal pivoting and
  // Lemke fail on a feasible problem); such a contact sticks from the step it comes within the margin.
  ws.sticks_.clear();
  const double stick_gap = std::min(options_.stick_gap, problem.touch_margin);
  if (std::isfinite(stick_gap)) {
    ws.sticks_.resize(nc);
    for (int i = 0; i < nc; ++i) ws.sticks_[i] = problem.phi[i] <= stick_gap;
  }
  find_indices(problem.S, problem.T, ws.sticks_, tau_G, ws.factor_,
               report.indices);

  // 2. The normal and joint-limit LCP.
  ws.U_.set(problem);
  grow(ws.guess_, ws.guess_storage_, nc + nl);
  unilateral_guess(problem, ws.guess_);
  grow(ws.z_, ws.z_storage_, nc + nl);
  grow(ws.lambda_G_, ws.lambda_G_storage_, ws.factor_.size());
  ws.projection_.solve(ws.M_inverse_, ws.factor_, ws.U_, problem.v_star, ws.guess_, options_.projection, ws.z_,
                       result.v_plus, ws.lambda_G_, result.stats);
  report.projection = ws.projection_.report();

  // 3. Impulses: p_N, p_L from z; p_S, p_T from λ_G of the kept rows.
  result.p_N = ws.z_.head(nc);
  result.p_L = ws.z_.tail(nl);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.clear_implicit();
  for (int i = 0; i < nc; ++i) {
    if (report.indices.s_position[i] >= 0) result.p_S[i] = ws.lambda_G_[report.indices.s_position[i]];
    if (report.indices.t_position[i] >= 0) result.p_T[i] = ws.lambda_G_[report.indices.t_position[i]];
  }

  // (NS2) on every sticking contact, dropped rows included: the certificate of step 1.
  double eq = 0;
  for (int i = 0; i < nc; ++i) {
    if (!ws.sticks_.empty() && !ws.sticks_[i]) continue;
    eq = std::max({eq, std::abs(row_dot({&problem.S, i}, result.v_plus)),
                   std::abs(row_dot({&problem.T, i}, result.v_plus))});
  }
  report.equality_residual = eq;
  const double s_v = report.projection.pivoting.velocity_scale > 0
                         ? report.projection.pivoting.velocity_scale
                         : projection_velocity_scale(ws.factor_, ws.U_, problem.v_star);
  result.stats.residual = std::max(result.stats.residual, eq / s_v);
}

}  // namespace impetus
