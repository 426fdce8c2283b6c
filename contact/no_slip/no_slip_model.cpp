// No-slip model (no_slip_model.hpp, NS1–NS4).
#include "contact/no_slip/no_slip_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "contact/free_motion.hpp"

namespace impetus {
namespace {

/// τ of (NS6): a dropped row that slips joins G when sin²θ > this (θ > 1e-7 rad). Its δ = cW⁻¹cᵀ − ‖l‖²
/// (D3) is a difference that cancels to ~1e-16·cW⁻¹cᵀ, so below ~1e-15 a row's independence is roundoff;
/// 1e-14 keeps a decade of margin. arm7_grasp's slipping rows sat at sin²θ = 6e-13 to 1.3e-10.
constexpr double kHoldDependence = 1e-14;
/// (NS6) rounds: a row held moves v⁺, which may let another dropped row slip.
constexpr int kHoldRounds = 2;
/// (NS7) The resolution of (NS6)'s test in sinθ: √kHoldDependence. A dropped row whose relative backward error
/// e_W is within it is met exactly by a row FIND-INDICES cannot tell from one dependent on the rows held.
constexpr double kDroppedRowResolution = 1e-7;

}  // namespace

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
  if (options_.single_contact_closed_form &&
      options_.projection.solver == ProjectionSolver::PrincipalPivoting && problem.nc == 1 && problem.nl == 0 &&
      ws.single_.solve(problem, std::min(options_.stick_gap, problem.touch_margin), tau_G, options_.projection,
                       result.v_plus)) {
    take_single_contact(ws.single_, result);
    return;
  }
  if (options_.free_motion && options_.projection.solver == ProjectionSolver::PrincipalPivoting &&
      take_free_motion(problem, result, ws))
    return;
  attempt(problem, tau_G, result, ws);
  // A result certified on every row needs no retry; one that (NS7) certified through a dropped row's backward
  // error is retried too, and gives way only to a retry certified on every row.
  auto exact = [](const ContactResult& r) {
    return r.stats.status == SolveStatus::Solved && r.report_as<NoSlipReport>().dropped_row_backward_error == 0;
  };
  if (exact(result) || !(kNoSlipRetryDependence > tau_G)) return;
  // (NS5) A near-dependent no-slip row kept at sin²θ just above τ_G can leave G so ill-conditioned
  // that v⁺ is wrong although G v⁺ = 0 holds to roundoff (jaco with its fingers on the floor: G of
  // rank nv = 10, a row at sin²θ = 2e-10, N v⁺ off by 0.02 m/s). Once more with the rank decided at
  // kNoSlipRetryDependence; kept only when it meets the certificate on every row (dropped ones included,
  // by (NS7) where the first attempt was not Solved at all).
  ws.first_ = result;
  attempt(problem, kNoSlipRetryDependence, result, ws);
  const bool first_solved = ws.first_.stats.status == SolveStatus::Solved;
  if (result.stats.status == SolveStatus::Solved && result.stats.residual <= options_.projection.certificate_tolerance &&
      (exact(result) || !first_solved)) {
    result.stats.attempts += ws.first_.stats.attempts;
    result.stats.iterations += ws.first_.stats.iterations;
    return;
  }
  result = ws.first_;
}

void NoSlipModel::take_single_contact(const NoSlipSingleContact& single, ContactResult& result) const {
  // The result and report attempt() would give for the same answer: G = [S; T] at positions 0, 1 when the contact
  // sticks, N active when p_N > 0, no pivot.
  result.p_N.resize(1);
  result.p_S.resize(1);
  result.p_T.resize(1);
  result.p_N[0] = single.p[0];
  result.p_S[0] = single.p[1];
  result.p_T[0] = single.p[2];
  result.p_L.resize(0);
  result.clear_implicit();
  NoSlipReport& report = result.report_slot<NoSlipReport>();
  solved_without_pivot(single.residual, single.velocity_scale, single.p[0] > 0 ? 1 : 0, result.stats, report.projection);
  result.stats.residual = std::max(single.residual, single.equality_residual / single.velocity_scale);
  report.indices.s_position.assign(1, single.sticks ? 0 : -1);
  report.indices.t_position.assign(1, single.sticks ? 1 : -1);
  report.indices.rank = single.sticks ? 2 : 0;
  report.indices.tried = single.sticks ? 2 : 0;
  report.equality_residual = single.equality_residual;
  report.dropped_row_backward_error = 0;
}

void NoSlipModel::mark_sticking(const ContactProblem& problem, std::vector<char>& sticks) const {
  // The paper's lock holds every contact within the collision margin, not the speculative ones beyond
  // it (problem.touch_margin): a lock on a contact that cannot touch within the step pins its link
  // tangentially at a distance (the jaco arm's wrist 5.7 mm above the ground made principal pivoting and
  // Lemke fail on a feasible problem); such a contact sticks from the step it comes within the margin.
  sticks.clear();
  const double stick_gap = std::min(options_.stick_gap, problem.touch_margin);
  if (std::isfinite(stick_gap)) {
    sticks.resize(problem.nc);
    for (int i = 0; i < problem.nc; ++i) sticks[i] = problem.phi[i] <= stick_gap;
  }
}

bool NoSlipModel::take_free_motion(const ContactProblem& problem, ContactResult& result, Workspace& ws) const {
  // (FM1), and (FM2) on the sticking contacts: v⁺ = v*, p = 0 meets the normal LCP exactly and (NS2) within the
  // certificate, FIND-INDICES trying no row (every position −1).
  if (!every_row_separates(problem)) return false;
  mark_sticking(problem, ws.sticks_);
  const double s_v = free_motion_velocity_scale(problem), slip = largest_free_slip(problem, ws.sticks_);
  if (!(slip <= options_.projection.certificate_tolerance * s_v)) return false;
  const int nc = problem.nc;
  result.v_plus = problem.v_star;
  result.p_N.setZero(nc);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.p_L.setZero(problem.nl);
  result.clear_implicit();
  NoSlipReport& report = result.report_slot<NoSlipReport>();
  solved_by_free_motion(s_v, result.stats, report.projection);
  result.stats.residual = slip / s_v;   // (NS2)'s share of the residual, as attempt() reports it
  report.indices.s_position.assign(nc, -1);
  report.indices.t_position.assign(nc, -1);
  report.indices.rank = 0;
  report.indices.tried = 0;
  report.equality_residual = slip;
  report.dropped_row_backward_error = 0;
  return true;
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
  mark_sticking(problem, ws.sticks_);
  find_indices(problem.S, problem.T, ws.sticks_, tau_G, ws.factor_,
               report.indices);

  // 2. The normal and joint-limit LCP.
  ws.U_.set(problem);
  grow(ws.guess_, ws.guess_storage_, nc + nl);
  unilateral_guess(problem, ws.guess_);
  grow(ws.z_, ws.z_storage_, nc + nl);
  grow(ws.w_, ws.w_storage_, nc + nl);
  grow(ws.lambda_G_, ws.lambda_G_storage_, ws.factor_.size());
  ws.projection_.solve(ws.M_inverse_, ws.factor_, ws.U_, problem.v_star, ws.guess_, options_.projection, ws.z_,
                       result.v_plus, ws.lambda_G_, result.stats);
  report.projection = ws.projection_.report();
  // The certificate's velocity scale s_v (UP2): the projection's, or the problem's when pivoting did not run.
  auto velocity_scale = [&] {
    const double s_v = report.projection.pivoting.velocity_scale;
    return s_v > 0 ? s_v : projection_velocity_scale(ws.factor_, ws.U_, problem.v_star);
  };
  const double tolerance = options_.projection.certificate_tolerance;

  // (NS6) The dropped rows that v⁺ lets slip beyond the certificate join G, after the rows kept, and (NS4)
  // is solved again from the active set just found. The unilateral rows pivoting made active leave the
  // factor (G must lead it) and come back by the warm start.
  for (int round = 0; round < kHoldRounds; ++round) {
    const double s_v = velocity_scale();
    const int k_G = report.indices.rank;
    ws.factor_.truncate(k_G);
    for (int i = 0; i < nc && ws.factor_.size() < ws.factor_.capacity(); ++i) {
      if (!ws.sticks_.empty() && !ws.sticks_[i]) continue;
      for (auto [R, position] : {std::pair{&problem.S, &report.indices.s_position[i]},
                                 std::pair{&problem.T, &report.indices.t_position[i]}}) {
        if (*position >= 0 || !(std::abs(row_dot({R, i}, result.v_plus)) > tolerance * s_v)) continue;
        if (ws.factor_.try_append({R, i}, 0.0, kHoldDependence)) *position = ws.factor_.size() - 1;
      }
    }
    if (ws.factor_.size() == k_G) break;   // none slips, or those that do are dependent within roundoff
    const int k_held = ws.factor_.size();
    report.indices.rank = k_held;
    ws.guess_ = ws.z_;   // the active set just found (a copy: z is overwritten below)
    grow(ws.lambda_G_, ws.lambda_G_storage_, k_held);
    // First the correction of v⁺ with that active set kept (D2 on G, the rows held and the active rows): it
    // moves v⁺ by |c v⁺|/‖c_⊥‖_{W⁻¹} along W⁻¹c_⊥ᵀ, small as the slip is; it stands when (UP2) still holds.
    const int n = ws.U_.size();
    ws.z_.setZero();
    for (int u = 0; u < n && ws.factor_.size() < ws.factor_.capacity(); ++u)
      if (ws.guess_[u] > 0 && ws.factor_.try_append(ws.U_.row(u), -ws.U_.b[u], options_.projection.pivoting.dependence_tolerance))
        ws.z_[u] = ws.factor_.size();   // position + 1, replaced by the impulse below
    ws.factor_.solve(result.v_plus);
    const auto lambda = ws.factor_.lambda();
    for (int u = 0; u < n; ++u) {
      if (ws.z_[u] > 0) ws.z_[u] = lambda[static_cast<int>(ws.z_[u]) - 1];
      ws.w_[u] = row_dot(ws.U_.row(u), result.v_plus) + ws.U_.b[u];
    }
    ws.lambda_G_ = lambda.head(k_held);
    const double rho = projection_residual(ws.z_, ws.w_, s_v);
    if (result.v_plus.allFinite() && rho <= tolerance) {
      result.stats.residual = rho;
      report.projection.residual = rho;
      continue;
    }
    // Otherwise (NS4) again with the larger G, pivoting from that active set.
    ws.factor_.truncate(k_held);
    const int iterations = result.stats.iterations, attempts = result.stats.attempts;
    ws.projection_.solve(ws.M_inverse_, ws.factor_, ws.U_, problem.v_star, ws.guess_, options_.projection, ws.z_,
                         result.v_plus, ws.lambda_G_, result.stats);
    result.stats.iterations += iterations;
    result.stats.attempts += attempts;
    report.projection = ws.projection_.report();
  }

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

  // (NS2) on every sticking contact, dropped rows included: the certificate of step 1, and (NS7) for a dropped
  // row that slips beyond it.
  const double s_v = velocity_scale();
  double eq = 0, eq_uncertified = 0, backward = 0;
  for (int i = 0; i < nc; ++i) {
    if (!ws.sticks_.empty() && !ws.sticks_[i]) continue;
    for (auto [R, position] : {std::pair{&problem.S, report.indices.s_position[i]},
                               std::pair{&problem.T, report.indices.t_position[i]}}) {
      const double slip = std::abs(row_dot({R, i}, result.v_plus));
      eq = std::max(eq, slip);
      if (slip > tolerance * s_v && position < 0) {
        const double e_W = dropped_row_backward_error({R, i}, slip, problem, result.v_plus, ws);
        if (e_W <= kDroppedRowResolution) {
          backward = std::max(backward, e_W);
          continue;
        }
      }
      eq_uncertified = std::max(eq_uncertified, slip);
    }
  }
  report.equality_residual = eq;
  report.dropped_row_backward_error = backward;
  result.stats.residual = std::max(result.stats.residual, eq_uncertified / s_v);
  // Solved (or Fallback) means every sticking row met the certificate, or (NS7) for a dropped one.
  if (eq_uncertified > tolerance * s_v && result.stats.status != SolveStatus::Failed) {
    result.stats.status = SolveStatus::Failed;
    char slip[32];   // %g: the slips at stake are 1e-9 m/s and below, which std::to_string prints as 0.000000
    std::snprintf(slip, sizeof slip, "%.3g", eq_uncertified);
    result.stats.message = std::string("no-slip row slips at ") + slip +
                           " m/s: beyond the certificate, and for a dropped row beyond e_W = 1e-7 (NS7)";
  }
}

double NoSlipModel::dropped_row_backward_error(RowRef c, double slip, const ContactProblem& problem,
                                               const Eigen::VectorXd& v_plus, Workspace& ws) const {
  grow(ws.row_scratch_, ws.row_scratch_storage_, problem.nv);
  ws.M_inverse_.solve_row(c, ws.row_scratch_);
  const double c_norm = std::sqrt(row_dot(c, ws.row_scratch_));         // ‖c‖_{W⁻¹}, W = M
  const double v_norm = std::sqrt(2 * problem.kinetic_energy(v_plus));   // ‖v⁺‖_W
  return slip / (c_norm * v_norm);
}

}  // namespace impetus
