// ID(t_i)_LCP,∞ (id_lcp_noslip.hpp, NS-ID1–NS-ID3).
#include "control/inverse_dynamics/id_lcp_noslip.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace impetus {
namespace {

// (NS-ID4): a dropped tangent row is met when its velocity is below this fraction of the problem's
// velocity scale. Kept rows hold to principal pivoting's certificate (1e-9 relative) and a dropped row
// is a combination of kept rows with coefficients of order one (FIND-INDICES keeps a row only when
// sin²θ > τ_dep), so a consistent q̇_des leaves ~1e-9; an inconsistent one leaves the inconsistency
// itself, orders above. 1e-6 separates the two.
constexpr double kSlipTolerance = 1e-6;

}  // namespace

bool IdLcpNoSlip::solve_projection(const ContactProblem& cp, bool with_p_rows, double tau_G,
                                   const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const int na = static_cast<int>(problem.actuated.size()), nc = cp.nc, nl = cp.nl;
  slipped_ = false;
  M_inverse_.reset(cp);
  factor_.reset(M_inverse_, v_f_);
  const double tol = tau_G;
  if (with_p_rows) {
    // 1. P rows, targets q̇_des: independent by construction, so a rejection means a driven coordinate
    //    without inertia (or numerically so).
    for (int a = 0; a < na; ++a)
      if (!factor_.try_append(RowRef{&P_, a}, problem.qd_des[a], tol)) {
        solution.stats.status = SolveStatus::Failed;
        solution.stats.message = "driven coordinate " + std::to_string(a) + " is dependent on the others";
        return false;
      }
  }
  // 2. FIND-INDICES on the S, T rows of the contacts the forward no_slip model (stick_gap = inf) locks:
  //    those within the collision margin (cp.touch_margin).
  sticks_.clear();
  if (std::isfinite(cp.touch_margin)) {
    sticks_.resize(cp.nc);
    for (int i = 0; i < cp.nc; ++i) sticks_[i] = cp.phi[i] <= cp.touch_margin;
  }
  find_indices(cp.S, cp.T, sticks_, tol, factor_, indices_);
  // 3. The normal (and joint-limit) LCP, warm-started.
  U_.set(cp);
  guess_.setZero(nc + nl);
  if (options_.projection.warm_start) {
    Eigen::VectorXd g;
    memory_.guess(cp, g);
    guess_.head(nc) = g;
  }
  projection_.solve(M_inverse_, factor_, U_, v_f_, &guess_, options_.projection, z_, solution.v_plus, lambda_G_,
                    solution.stats);
  // 4. Impulses from the multipliers.
  solution.p_N = z_.head(nc);
  solution.p_S.setZero(nc);
  solution.p_T.setZero(nc);
  for (int i = 0; i < nc; ++i) {
    if (indices_.s_position[i] >= 0) solution.p_S[i] = lambda_G_[indices_.s_position[i]];
    if (indices_.t_position[i] >= 0) solution.p_T[i] = lambda_G_[indices_.t_position[i]];
  }
  if (with_p_rows) solution.tau = lambda_G_.head(na);
  if (solution.stats.status == SolveStatus::Failed) return false;
  // (NS-ID4): the tangent rows FIND-INDICES dropped must hold too. With the P rows in the factor a
  // dropped row is a combination of kept rows whose targets include q̇_des, so it holds only when
  // q̇_des is consistent with the sticking contacts (seed 004 App. E assumes homogeneous targets).
  if (with_p_rows) {
    double scale = problem.qd_des.size() > 0 ? problem.qd_des.cwiseAbs().maxCoeff() : 0.0;
    scale = std::max({scale, v_f_.cwiseAbs().maxCoeff(), solution.v_plus.cwiseAbs().maxCoeff()});
    double worst = 0;
    for (int i = 0; i < nc; ++i)
      if (sticks_.empty() || sticks_[i])
        worst = std::max({worst, std::abs(row_dot({&cp.S, i}, solution.v_plus)),
                          std::abs(row_dot({&cp.T, i}, solution.v_plus))});
    if (worst > kSlipTolerance * scale) {
      slipped_ = true;
      solution.stats.status = SolveStatus::Failed;
      solution.stats.message = "a sticking contact slips at " + std::to_string(worst) +
                               " m/s under q̇_des (dependent tangent row not met)";
      return false;
    }
  }
  return true;
}

void IdLcpNoSlip::stage_two(const ContactProblem& cp, const InverseDynamicsProblem& problem,
                            InverseDynamicsSolution& solution) {
  const int nc = cp.nc, nv = cp.nv;
  // Binding normal rows: N v⁺ + φ/dt at the certificate's level (the slip test's scale, NS-ID4).
  double scale = problem.qd_des.size() > 0 ? problem.qd_des.cwiseAbs().maxCoeff() : 0.0;
  scale = std::max({scale, v_f_.cwiseAbs().maxCoeff(), solution.v_plus.cwiseAbs().maxCoeff()});
  columns_.clear();
  nonnegative_.clear();
  for (int i = 0; i < nc; ++i)
    if (solution.p_N[i] > 0 || row_dot({&cp.N, i}, solution.v_plus) + cp.phi[i] / cp.dt <= kSlipTolerance * scale) {
      columns_.push_back(i);
      nonnegative_.push_back(1);
    }
  for (int i = 0; i < nc; ++i) {
    if (indices_.s_position[i] >= 0) columns_.push_back(nc + i), nonnegative_.push_back(0);
    if (indices_.t_position[i] >= 0) columns_.push_back(2 * nc + i), nonnegative_.push_back(0);
  }
  const int m = static_cast<int>(columns_.size());
  Jt_.setZero(nv, m);
  x_.resize(m);
  for (int k = 0; k < m; ++k) {
    const int c = columns_[k];
    const SparseRows& rows = c < nc ? cp.N : c < 2 * nc ? cp.S : cp.T;
    const int i = c % nc;
    for (SparseRows::InnerIterator it(rows, i); it; ++it) Jt_(it.col(), k) = it.value();
    x_[k] = c < nc ? solution.p_N[i] : c < 2 * nc ? solution.p_S[i] : solution.p_T[i];
  }
  LeastTorqueReport report;
  if (!least_torque_.select(Jt_, nonnegative_, problem.actuated, x_, solution.tau, report)) {
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = "Stage II: the least-‖τ‖ active set did not settle; principal pivoting's impulses kept";
    solution.fallbacks += 1;
    return;
  }
  solution.stats.iterations += report.pivots;
  for (int k = 0; k < m; ++k) {
    const int c = columns_[k], i = c % nc;
    (c < nc ? solution.p_N : c < 2 * nc ? solution.p_S : solution.p_T)[i] = x_[k];
  }
}

void IdLcpNoSlip::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const ContactProblem& cp = *problem.contact;
  const int na = static_cast<int>(problem.actuated.size());
  solution.stats = {};
  solution.fallbacks = 0;

  P_.resize(na, cp.nv);
  P_.setZero();
  for (int a = 0; a < na; ++a) P_.insert(a, problem.actuated[a]) = 1.0;
  P_.makeCompressed();

  v_f_ = cp.v_star;
  // τ_G as the twin's FIND-INDICES (no_slip_model.hpp): the rows it keeps are the forward step's, and
  // a row kept at sin²θ ~ 1e-12 makes the impulses ~1e8 (LINKS standing: speculative contacts' points
  // sit φ/2 above the plane, so their tangent rows are independent of the P rows only by that lever).
  // Then the twin's retry (NS5) at kNoSlipRetryDependence.
  bool ok = solve_projection(cp, true, options_.equality_dependence_tolerance, problem, solution);
  if (!ok && kNoSlipRetryDependence > options_.equality_dependence_tolerance) {
    const int iterations = solution.stats.iterations;
    ok = solve_projection(cp, true, kNoSlipRetryDependence, problem, solution);
    solution.stats.iterations += iterations;
  }
  if (ok || slipped_) {
    if (solution.stats.status == SolveStatus::Fallback) solution.fallbacks = 1;
    if (slipped_) {
      // §4.5 with a solved projection: only dropped tangent rows are off (NS-ID4). Its τ holds the
      // robot against the contacts it kept; τ_c would leave every joint to the contact impulses.
      solution.stats.status = SolveStatus::Fallback;
      solution.stats.message = "inconsistent q̇_des (seed 004 §4.5): " + solution.stats.message +
                               "; τ of the projection with the kept rows";
      solution.fallbacks = 1;
    }
    if (options_.stage_two) stage_two(cp, problem, solution);
    memory_.remember(cp, solution.p_N);
    return;
  }

  // §4.5 when the projection itself fails (infeasible: no v⁺ meets P v⁺ = q̇_des and the contacts):
  // τ = τ_c, and the prediction of the forward no-slip step under it.
  const std::string why = solution.stats.message;
  ActuatedElimination elimination;
  if (!elimination.build(problem)) {
    solution.stats.status = SolveStatus::Failed;
    solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
    return;
  }
  v_f_ = elimination.v_c();
  const int iterations = solution.stats.iterations;
  solution.stats = {};
  ok = solve_projection(cp, false, options_.equality_dependence_tolerance, problem, solution);
  solution.tau = elimination.tau_c();
  solution.stats.iterations += iterations;
  solution.fallbacks = 1;
  solution.stats.status = ok ? SolveStatus::Fallback : SolveStatus::Failed;
  solution.stats.message = "inconsistent q̇_des (seed 004 §4.5): " + why + "; τ = contact-free ID";
  if (ok) memory_.remember(cp, solution.p_N);
}

}  // namespace impetus
