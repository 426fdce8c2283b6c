// Principal pivoting, certificate and Lemke fallback (unilateral_projection.hpp, UP1–UP2).
#include "contact/solvers/unilateral_projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus {
namespace {

std::string describe(const LemkeResult& r) {
  std::string s = std::string("Lemke: ") + to_string(r.status);
  if (r.attempts > 1) s += " after " + std::to_string(r.attempts) + " attempts";
  return s;
}

}  // namespace

double projection_residual(const Eigen::VectorXd& z, const Eigen::VectorXd& w, double velocity_scale) {
  if (!z.allFinite() || !w.allFinite()) return std::numeric_limits<double>::infinity();
  const double z_ref = std::max(z.size() > 0 ? z.cwiseAbs().maxCoeff() : 0.0, std::numeric_limits<double>::min());
  const double w_ref = velocity_scale;
  double rho = 0;
  for (int u = 0; u < z.size(); ++u)
    rho = std::max({rho, -z[u] / z_ref, -w[u] / w_ref, std::abs(z[u] * w[u]) / (z_ref * w_ref)});
  return rho;
}

void UnilateralProjection::solve(const InertiaOperator& W, DelassusFactor& factor, const UnilateralRows& U,
                                 const Eigen::VectorXd& v_f, const Eigen::VectorXd* guess,
                                 const ProjectionOptions& options, Eigen::VectorXd& z, Eigen::VectorXd& v_plus,
                                 Eigen::VectorXd& lambda_G, SolverStatistics& stats) {
  report_ = {};
  stats = {};
  const int k_G = factor.size();
  lemke_.options() = options.lemke;

  auto run_lemke = [&](Eigen::VectorXd& zl, Eigen::VectorXd& wl, Eigen::VectorXd& vl, Eigen::VectorXd& ll) {
    factor.truncate(k_G);
    report_.lemke = dense_.solve(W, factor, U, v_f, lemke_, zl, wl, vl, ll);
    report_.lemke_run = true;
  };

  if (options.solver == ProjectionSolver::Lemke) {
    const double s_v = projection_velocity_scale(factor, U, v_f);
    run_lemke(z, w_, v_plus, lambda_G);
    report_.residual = projection_residual(z, w_, s_v);
    stats.iterations = report_.lemke.pivots;
    stats.attempts = report_.lemke.attempts;
    stats.regularization = report_.lemke.regularization;
    stats.residual = report_.residual;
    if (!report_.lemke.solved()) {
      stats.status = SolveStatus::Failed;
      stats.message = describe(report_.lemke);
    }
    return;
  }

  report_.pivoting = pivoting_.solve(factor, U, v_f, options.warm_start ? guess : nullptr, options.pivoting, z, w_,
                                     v_plus);
  lambda_G = factor.lambda().head(k_G);
  const double s_v = report_.pivoting.velocity_scale;
  report_.residual = projection_residual(z, w_, s_v);
  stats.iterations = report_.pivoting.pivots;
  stats.residual = report_.residual;
  if (report_.pivoting.status == PivotingStatus::Solved && report_.residual <= options.certificate_tolerance) return;

  std::string why = std::string("principal pivoting: ") + to_string(report_.pivoting.status);
  if (report_.pivoting.status == PivotingStatus::Solved) why += " but certificate " + std::to_string(report_.residual);
  run_lemke(z_lemke_, w_lemke_, v_lemke_, lambda_lemke_);
  const double rho_lemke = projection_residual(z_lemke_, w_lemke_, s_v);
  stats.iterations += report_.lemke.pivots;
  stats.attempts = 1 + report_.lemke.attempts;
  if (report_.lemke.solved() || rho_lemke < report_.residual) {
    z = z_lemke_;
    v_plus = v_lemke_;
    lambda_G = lambda_lemke_;
    report_.residual = rho_lemke;
    stats.regularization = report_.lemke.regularization;
  }
  stats.residual = report_.residual;
  stats.status = report_.lemke.solved() ? SolveStatus::Fallback : SolveStatus::Failed;
  stats.message = why + "; " + describe(report_.lemke);
}

}  // namespace impetus
