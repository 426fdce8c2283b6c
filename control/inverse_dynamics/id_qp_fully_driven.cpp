// ID(t_i)_QP,μ and QP,∞ on a fully driven island (id_qp.hpp QP17): least ‖τ‖ over the right inverses.
#include "control/inverse_dynamics/id_qp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace impetus {
namespace {

// ε of (QP17), relative to ‖T_τ‖²_F/m as (QP3)'s: only pins the components τ does not see (a tangent
// along the joints' axes, copies of one contact); it moves τ by ~1e-10 relative.
constexpr double kTieBreak = 1e-10;
// Σ p_N may exceed phase I's κ(τ) by Lemke's certificate (1e-6 relative, lemke.hpp L6) of the impulses.
constexpr double kBudgetFeasibility = 1e-6;
// Phase I's active sets tried (QP5): the budget is affine only on one; as (QP5)'s kBudgetIterations.
constexpr int kActiveSets = 8;

}  // namespace

void IdQp::solve_fully_driven(const ContactProblem& cp, InverseDynamicsSolution& solution) {
  const int nc = cp.nc, k = edges_.k;
  const Eigen::MatrixXd& J = elimination_.J();
  const Eigen::VectorXd u = J * elimination_.v_c();   // (3nc) contact velocities at v⁺ = v_c, whatever p
  // The velocity scale of the forward LCP's q (lemke.hpp L6): the step's contact velocities without
  // this controller, with it, and the gap rates.
  const double v_bar = std::max({(J * cp.v_star).cwiseAbs().maxCoeff(), u.cwiseAbs().maxCoeff(),
                                 cp.phi.cwiseAbs().maxCoeff() / cp.dt, 1e-300});
  const double tolerance = lemke_.options().tolerance;
  const double eps_v = tolerance * v_bar;

  // Open contacts (s > ε_v) keep p = 0; the others are free in their pyramid: the free components.
  std::vector<char> touching(nc, 0), has_friction(nc, 0);
  for (int f : edges_.friction_contact) has_friction[f] = 1;
  std::vector<int> free;
  for (int c = 0; c < nc; ++c)
    if (u[c] + cp.phi[c] / cp.dt <= eps_v) touching[c] = 1, free.push_back(c);
  for (int c = 0; c < nc; ++c)
    if (touching[c] && has_friction[c]) free.push_back(nc + c), free.push_back(2 * nc + c);
  std::sort(free.begin(), free.end());
  const int m = static_cast<int>(free.size());

  // ½‖τ_c + T_τ p‖² + ½ε‖p‖² = ½‖A_w x − b_w‖² + const over x = p_free.
  const int na = elimination_.na();
  Eigen::MatrixXd T_free(na, m);
  for (int i = 0; i < m; ++i) T_free.col(i) = elimination_.T_tau().col(free[i]);
  const double epsilon = kTieBreak * std::max(T_free.squaredNorm() / std::max(m, 1), 1e-300);
  Eigen::MatrixXd Aw(na + m, m);
  Aw << T_free, std::sqrt(epsilon) * Eigen::MatrixXd::Identity(m, m);
  Eigen::VectorXd bw = Eigen::VectorXd::Zero(na + m);
  bw.head(na) = -elimination_.tau_c();

  // Rows C x + d ≥ 0: p_N ≥ 0 and the facets (FE2) of the touching contacts, and the budget (QP5).
  std::vector<int> facets;
  for (int f = 0; f < edges_.nf; ++f)
    if (touching[edges_.friction_contact[f]])
      for (int j = 0; j < k; ++j) facets.push_back(k * f + j);
  const int n_rows = static_cast<int>(std::count(touching.begin(), touching.end(), 1) + facets.size()) + 1;
  std::vector<char> active = touching, next;
  Eigen::VectorXd x, p = Eigen::VectorXd::Zero(3 * nc), tau;
  bool accepted = false;
  std::string why;
  for (int round = 0; round < kActiveSets && m > 0; ++round) {
    linearize_budget(cp, active);
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(n_rows, m);
    Eigen::VectorXd d = Eigen::VectorXd::Zero(n_rows);
    int r = 0;
    for (int i = 0; i < m; ++i)
      if (free[i] < nc) C(r++, i) = 1;
    for (int f : facets) {
      for (int i = 0; i < m; ++i) C(r, i) = edges_.A_facet(f, free[i]);
      ++r;
    }
    for (int i = 0; i < m; ++i) C(r, i) = gp_[free[i]] - (free[i] < nc ? 1.0 : 0.0);
    d[r] = std::max(kappa_c_, 0.0);   // κ(τ_c) ≥ 0: p = 0 meets it; κ_c < 0 only by round-off of s ≤ ε_v
    for (int i = 0; i < n_rows; ++i) {   // one scale: each row to unit norm (a facet of μ_∞ is 100 p_N rows)
      const double norm = C.row(i).norm();
      if (norm > 0) C.row(i) /= norm, d[i] /= norm;
    }
    const InequalityLeastSquaresResult result = least_squares_.solve(Aw, bw, C, d, x);
    report_.stage_two_pivots += result.iterations;
    report_.stage_two_stationarity = result.stationarity;
    solution.stats.iterations += result.iterations;
    ++report_.budget_iterations;
    if (!result.solved) {
      why = "least squares: " + result.reason;
      break;
    }
    p.setZero();
    for (int i = 0; i < m; ++i) p[free[i]] = x[i];
    p.head(nc) = p.head(nc).cwiseMax(0.0);
    elimination_.torque(p, tau);
    // The budget is affine only on phase I's active set: check it at this τ with phase I itself.
    report_.kappa = phase_one(cp, tau, next);
    if (p.head(nc).sum() <= report_.kappa + kBudgetFeasibility * std::max(p.cwiseAbs().maxCoeff(), 1e-300)) {
      accepted = true;
      break;
    }
    why = "Σ p_N above phase I's budget on every active set tried";
    if (next == active) break;
    active = next;
  }
  if (m == 0) accepted = true;   // every contact open: p = 0

  solution.stats.status = SolveStatus::Solved;
  solution.stats.message.clear();
  if (!accepted) {   // p = 0 is always a right inverse of the face (κ ≥ 0): τ = τ_c, nothing on the contacts
    p.setZero();
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = "fully driven (QP17): " + why + "; p = 0 kept";
    ++solution.fallbacks;
  }
  // Certificate: (QP6) with y = 0 asks the forward program's gradient J v⁺ = u to vanish on the loaded
  // contacts (s = 0, u = 0) and to be non-negative on the open ones' reduced costs (u_N + μ min_j u_t·d_j,
  // with their pyramid multiplier). ρ: the worst, relative to v̄ as Lemke's.
  double rho = 0;
  for (int c = 0; c < nc; ++c) {
    const double s = u[c] + cp.phi[c] / cp.dt;
    double descent = 0;   // min_j u_t·d_j ≤ 0 over the pyramid's edges (μ > 0)
    if (has_friction[c])
      for (int j = 0; j < k; ++j)
        descent = std::min(descent, u[nc + c] * edges_.cos_edge[j] + u[2 * nc + c] * edges_.sin_edge[j]);
    const double mu = has_friction[c] ? edges_.A_mu.col(c).maxCoeff() : 0.0;
    if (p[c] > 0)
      rho = std::max({rho, std::abs(s), std::abs(u[c]), std::abs(u[nc + c]), std::abs(u[2 * nc + c])});
    else
      rho = std::max({rho, -s, -(u[c] + mu * descent)});
  }
  rho /= v_bar;
  report_.stage_one_residual = rho;
  if (accepted && rho > tolerance) {
    char residual[32];
    std::snprintf(residual, sizeof residual, "%.3g", rho * v_bar);
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = std::string("fully driven (QP17): q̇_des moves a contact it loads, or closes one, by ") +
                             residual + " m/s: no right inverse, least-‖τ‖ impulses of the contacts at rest";
    ++solution.fallbacks;
  }
  report_.fully_driven = true;
  report_.stage_two_run = true;
  report_.stage_two_accepted = accepted;
  report_.nullspace_dimension = m;
  report_.tau_norm_stage_one = elimination_.tau_c().norm();
  p_ = p;
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
  split_impulses(p_, nc, solution);
  report_.tau_norm_stage_two = solution.tau.norm();
}

}  // namespace impetus
