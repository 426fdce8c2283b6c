// Principal pivoting, certificate and Lemke fallback (unilateral_projection.hpp, UP1–UP2).
#include "contact/solvers/unilateral_projection.hpp"

#include <algorithm>
#include <cassert>
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

double projection_residual(const Eigen::Ref<const Eigen::VectorXd>& z, const Eigen::Ref<const Eigen::VectorXd>& w,
                           double velocity_scale) {
  if (!z.allFinite() || !w.allFinite()) return std::numeric_limits<double>::infinity();
  const double z_ref = std::max(z.size() > 0 ? z.cwiseAbs().maxCoeff() : 0.0, std::numeric_limits<double>::min());
  const double w_ref = velocity_scale;
  double rho = 0;
  for (int u = 0; u < z.size(); ++u)
    rho = std::max({rho, -z[u] / z_ref, -w[u] / w_ref, std::abs(z[u] * w[u]) / (z_ref * w_ref)});
  return rho;
}

void solved_without_pivot(double residual, double velocity_scale, int active, SolverStatistics& stats,
                        ProjectionReport& report) {
  stats.status = SolveStatus::Solved;
  stats.iterations = 0;
  stats.attempts = 1;
  stats.regularization = 0;
  stats.residual = residual;
  stats.message.clear();
  report = {};
  report.pivoting.iterations = 1;
  report.pivoting.active = active;
  report.pivoting.velocity_scale = velocity_scale;
  report.residual = residual;
}

void solved_by_free_motion(double velocity_scale, SolverStatistics& stats, ProjectionReport& report) {
  solved_without_pivot(0, velocity_scale, 0, stats, report);
  report.pivoting.iterations = 0;
  report.free_motion = true;
}

void UnilateralProjection::solve(const InertiaOperator& W, DelassusFactor& factor, const UnilateralRows& U,
                                 const Eigen::Ref<const Eigen::VectorXd>& v_f, const Eigen::VectorXd* guess,
                                 const ProjectionOptions& options, Eigen::VectorXd& z, Eigen::VectorXd& v_plus,
                                 Eigen::VectorXd& lambda_G, SolverStatistics& stats) {
  z.resize(U.size());
  lambda_G.resize(factor.size());
  const Eigen::Map<const Eigen::VectorXd> none(nullptr, 0);
  solve(W, factor, U, v_f, guess != nullptr ? Eigen::Ref<const Eigen::VectorXd>(*guess) : Eigen::Ref<const Eigen::VectorXd>(none),
        options, Eigen::Ref<Eigen::VectorXd>(z), v_plus, Eigen::Ref<Eigen::VectorXd>(lambda_G), stats);
}

void UnilateralProjection::solve(const InertiaOperator& W, DelassusFactor& factor, const UnilateralRows& U,
                                 const Eigen::Ref<const Eigen::VectorXd>& v_f, const Eigen::Ref<const Eigen::VectorXd>& guess,
                                 const ProjectionOptions& options, Eigen::Ref<Eigen::VectorXd> z,
                                 Eigen::VectorXd& v_plus, Eigen::Ref<Eigen::VectorXd> lambda_G,
                                 SolverStatistics& stats) {
  report_ = {};
  stats = {};
  const int k_G = factor.size();
  assert(z.size() == U.size() && lambda_G.size() == k_G);
  grow(w_, w_storage_, U.size());
  w_.setZero();   // a pivoting that stops before its first w (non-finite v⁺) leaves zeros, not another island's
  lemke_.options() = options.lemke;

  auto run_lemke = [&](Eigen::VectorXd& zl, Eigen::VectorXd& wl, Eigen::VectorXd& vl, Eigen::VectorXd& ll) {
    factor.truncate(k_G);
    report_.lemke = dense_.solve(W, factor, U, v_f, lemke_, zl, wl, vl, ll);
    report_.lemke_run = true;
  };

  if (options.solver == ProjectionSolver::Lemke) {
    const double s_v = projection_velocity_scale(factor, U, v_f);
    run_lemke(z_lemke_, w_lemke_, v_plus, lambda_lemke_);
    z = z_lemke_;
    lambda_G = lambda_lemke_;
    report_.residual = projection_residual(z, w_lemke_, s_v);
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

  const Eigen::Map<const Eigen::VectorXd> none(nullptr, 0);
  report_.pivoting = pivoting_.solve(factor, U, v_f, options.warm_start ? guess : Eigen::Ref<const Eigen::VectorXd>(none),
                                     options.pivoting, z, w_, v_plus);
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
