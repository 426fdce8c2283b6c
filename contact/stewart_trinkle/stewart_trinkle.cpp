// StewartTrinkleModel::solve: assemble (ST6), Lemke with retries, recover the impulses and v⁺ (ST8).
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/stewart_trinkle/warm_start.hpp"

#include <cstdio>
#include <string>

namespace impetus {
namespace {

std::string format_residual(double rho) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", rho);
  return text;
}

std::string describe_failure(const LemkeResult& r) {
  std::string m = std::string("Lemke: ") + to_string(r.plain_status);
  if (r.attempts > 1) m += "; " + std::to_string(r.attempts - 1) + " regularised retries";
  if (r.solved()) return m + "; solved with Tikhonov ε = " + format_residual(r.relative_regularization) + "·max|A_ii|";
  return m + "; no attempt met the certificate (best ρ = " + format_residual(r.residual) + ")";
}

}  // namespace

StewartTrinkleModel::StewartTrinkleModel(StewartTrinkleOptions options)
    : options_(options), lemke_(options.lemke()), warm_(std::make_unique<StewartTrinkleWarmStart>()) {}

StewartTrinkleModel::~StewartTrinkleModel() = default;

std::unique_ptr<ContactModel> StewartTrinkleModel::create(const ModelOptions& options) {
  return std::make_unique<StewartTrinkleModel>(StewartTrinkleOptions::parse(options));
}

void StewartTrinkleModel::solve(const ContactProblem& problem, ContactResult& result) {
  const int nc = problem.nc, nl = problem.nl;
  result.p_N.setZero(nc);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.p_L.setZero(nl);
  result.clear_implicit();
  result.stats = SolverStatistics{};
  result.v_plus = problem.v_star;
  if (nc + nl == 0) return;

  assemble_stewart_trinkle_rows(problem, options_.friction_edges, options_.merge_tolerance, lcp_);
  LemkeResult lemke;
  double warm_residual = 0;
  if (options_.warm_start && warm_->solve(problem, lcp_, options_.tolerance, z_, warm_residual)) {
    lemke.residual = warm_residual;   // (ST10): the last active set still solves (ST6); no pivot
    lemke.attempts = 1;
  } else {
    assemble_stewart_trinkle_matrix(lcp_);
    lemke = lemke_.solve(lcp_.A, lcp_.q, z_);
  }

  // (ST8) per group, shared among its members (ST9); then v⁺ = v* + W Jᵀ [p_N; p_L; p_S; p_T] over
  // the groups (J holds the leaders' rows, equal to their members').
  const int k = lcp_.k, ng = lcp_.ng;
  p_J_.setZero(lcp_.J.rows());
  p_J_.head(ng) = z_.head(ng);
  p_J_.segment(ng, nl) = z_.segment(lcp_.offset_L, nl);
  for (int f = 0; f < lcp_.nf; ++f) {
    const auto p_F = z_.segment(lcp_.offset_F + f * k, k);
    const int g = lcp_.friction_group[f];
    p_J_[ng + nl + g] = lcp_.cos_edge.dot(p_F);        // p_S of the group
    p_J_[2 * ng + nl + g] = lcp_.sin_edge.dot(p_F);    // p_T of the group
  }
  for (int c = 0; c < nc; ++c) {
    const int g = lcp_.group[c];
    const double share = lcp_.share[c];
    result.p_N[c] = share * p_J_[g];
    result.p_S[c] = share * p_J_[ng + nl + g];
    result.p_T[c] = share * p_J_[2 * ng + nl + g];
  }
  result.p_L = p_J_.segment(ng, nl);
  impulse_.noalias() = lcp_.J.transpose() * p_J_;
  problem.solve_M(impulse_, dv_);
  result.v_plus = problem.v_star + dv_;

  SolverStatistics& stats = result.stats;
  stats.iterations = lemke.pivots;
  stats.attempts = lemke.attempts;
  stats.regularization = lemke.relative_regularization;   // ε / max|A_ii| of (ST6)
  stats.residual = lemke.residual;
  if (lemke.solved() && lemke.attempts == 1) {
    stats.status = SolveStatus::Solved;
  } else if (lemke.solved()) {
    stats.status = SolveStatus::Fallback;   // the regularised retry produced it: counted as a fallback
    stats.message = describe_failure(lemke);
  } else {
    stats.status = SolveStatus::Failed;     // v⁺ from the best iterate
    stats.message = describe_failure(lemke);
  }
}

}  // namespace impetus
