// StewartTrinkleModel::solve: assemble (ST6), Lemke with retries, recover the impulses and v⁺ (ST8).
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/free_motion.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/problem_into.hpp"
#include "contact/stewart_trinkle/approaching_groups.hpp"
#include "contact/stewart_trinkle/single_contact.hpp"
#include "contact/stewart_trinkle/sparse_newton.hpp"
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

/// Whether the previous step left an impulse on a contact or limit of the island (the guesses ST10 starts from).
bool has_guess(const ContactProblem& p) {
  return p.p_N_guess.any() || p.p_S_guess.any() || p.p_T_guess.any() || p.p_L_guess.any();
}

}  // namespace

StewartTrinkleModel::StewartTrinkleModel(StewartTrinkleOptions options)
    : options_(options), fallback_(std::make_unique<MaxDissipationModel>()) {}

StewartTrinkleModel::~StewartTrinkleModel() = default;

std::unique_ptr<ContactModel> StewartTrinkleModel::create(const ModelOptions& options) {
  return std::make_unique<StewartTrinkleModel>(StewartTrinkleOptions::parse(options));
}

StewartTrinkleModel::Workspace::Workspace(const StewartTrinkleOptions& options)
    : lemke_(options.lemke()),
      warm_(std::make_unique<StewartTrinkleWarmStart>()),
      approaching_(std::make_unique<ApproachingGroups>()),
      sparse_(std::make_unique<StewartTrinkleSparseNewton>()),
      single_(std::make_unique<StewartTrinkleSingleContact>()) {}

StewartTrinkleModel::Workspace::~Workspace() = default;

std::unique_ptr<ContactWorkspace> StewartTrinkleModel::make_workspace() const {
  auto ws = std::make_unique<Workspace>(options_);
  ws->fallback_ = fallback_->make_workspace();
  return ws;
}

void StewartTrinkleModel::fall_back(const ContactProblem& problem, ContactResult& result, Workspace& ws,
                                    const std::string& why) const {
  fallback_->solve(problem, result, *ws.fallback_);
  SolverStatistics& stats = result.stats;
  const std::string outcome = stats.status == SolveStatus::Failed ? "failed: " + stats.message
                              : stats.message.empty()            ? std::string("its certificate met")
                                                                 : stats.message;
  if (stats.status != SolveStatus::Failed) stats.status = SolveStatus::Fallback;
  stats.message = "stewart_trinkle: " + why + "; the island solved by max_dissipation (" + outcome + ")";
}

bool StewartTrinkleModel::solve_sparse(const ContactProblem& problem, ContactResult& result, Workspace& ws,
                                       LemkeResult& lemke) const {
  const int n = ws.lcp_.size, max_size = options_.max_lemke_size;
  // (ST13): the sparse LCP by semismooth Newton, kept only when it meets the certificate.
  const std::string why = "LCP of " + std::to_string(n) + " unknowns above max_lemke_size " + std::to_string(max_size);
  if (options_.sparse_iterations == 0) {
    fall_back(problem, result, ws, why);
    return false;
  }
  const SparseNewtonReport newton =
      ws.sparse_->solve(problem, ws.lcp_, options_.tolerance, options_.sparse_iterations, options_.newton_size, ws.z_);
  if (!newton.certified) {
    const std::string basis = *newton.basis_stop ? std::string("active sets ended on ") + newton.basis_stop + "; " : "";
    fall_back(problem, result, ws,
              why + "; sparse Newton (ST13) not certified: " + basis + newton.stop + " after " +
                  std::to_string(newton.iterations) + " iterations, ρ = " + format_residual(newton.residual));
    return false;
  }
  lemke.residual = newton.residual;
  lemke.attempts = 1;
  lemke.pivots = newton.iterations;   // Newton steps (SolverStatistics::iterations)
  return true;
}

bool StewartTrinkleModel::solve_dense(const ContactProblem& problem, ContactResult& result, Workspace& ws,
                                      LemkeResult& lemke) const {
  const int n = ws.lcp_.size, max_size = options_.max_lemke_size;
  const int budget = options_.pivot_budget > 0 ? options_.pivot_budget : 100 * n + 500;
  int pivots_left = budget;
  double warm_residual = 0;
  assemble_stewart_trinkle_products(problem, ws.lcp_);
  if (options_.warm_start && ws.warm_->solve(problem, ws.lcp_, options_.tolerance, max_size, ws.z_, warm_residual)) {
    lemke.residual = warm_residual;   // (ST10): the last active set still solves (ST6); no pivot
    lemke.attempts = 1;
  } else {
    // (ST11): Lemke on the groups that can be loaded; the others meet (ST2)–(ST5) as checked. A round
    // that only a regularised retry solved hands over too (approaching_groups.hpp), but its certified z
    // stays the answer unless the plain attempt on the whole LCP solves.
    LemkeResult restricted;
    const bool by_groups = ws.approaching_->solve(problem, ws.lcp_, ws.lemke_, options_.tolerance, max_size,
                                                  pivots_left, ws.z_, restricted);
    if (by_groups && (restricted.attempts == 1 || pivots_left <= 0)) {
      lemke = restricted;
    } else if (pivots_left <= 0) {
      fall_back(problem, result, ws,
                "the pivot budget of " + std::to_string(budget) + " was spent before the whole LCP (" +
                    std::to_string(n) + " unknowns)");
      return false;
    } else {
      ws.lcp_.need_all_D();
      assemble_stewart_trinkle_matrix(ws.lcp_);
      grow(ws.z_lemke_, ws.z_lemke_storage_, n);
      ws.lemke_.options().pivot_budget = pivots_left;
      lemke = ws.lemke_.solve(ws.lcp_.A, ws.lcp_.q, ws.z_lemke_);
      if (!lemke.solved() && lemke.budget_spent && !by_groups) {
        fall_back(problem, result, ws,
                  "Lemke spent the pivot budget of " + std::to_string(budget) + " (" + std::to_string(n) +
                      " unknowns; best ρ = " + format_residual(lemke.residual) + ")");
        return false;
      }
      if (by_groups) {
        const int pivots = restricted.pivots + lemke.pivots;
        if (!(lemke.solved() && lemke.attempts == 1)) lemke = restricted;   // ws.z_ holds its z
        else ws.z_ = ws.z_lemke_;
        lemke.pivots = pivots;
      } else {
        ws.z_ = ws.z_lemke_;
      }
    }
  }
  return true;
}

void StewartTrinkleModel::solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const {
  Workspace& ws = static_cast<Workspace&>(workspace);
  const int nc = problem.nc, nl = problem.nl;
  result.p_N.setZero(nc);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.p_L.setZero(nl);
  result.clear_implicit();
  result.stats = SolverStatistics{};
  result.v_plus = problem.v_star;
  if (nc + nl == 0) return;

  // One contact (single_contact.hpp): certified like every answer below, else the general path.
  if (options_.single_contact_closed_form && nc == 1 && nl == 0 &&
      ws.single_->solve(problem, options_.friction_edges, options_.tolerance, result.v_plus)) {
    const Eigen::Vector3d& p = ws.single_->p;
    result.p_N[0] = p[0];
    result.p_S[0] = p[1];
    result.p_T[0] = p[2];
    result.stats.attempts = 1;
    result.stats.residual = ws.single_->residual;
    result.stats.status = SolveStatus::Solved;
    return;
  }

  if (options_.free_motion && !has_guess(problem) && every_row_separates(problem)) {
    result.v_plus = problem.v_star.array() + 0.0;   // v* + W Jᵀ0 as the general path computes it: a −0 becomes +0
    result.stats.attempts = 1;
    result.stats.status = SolveStatus::Solved;
    return;
  }

  group_stewart_trinkle_rows(problem, options_.friction_edges, options_.merge_tolerance, ws.lcp_);
  const int n = ws.lcp_.size, max_size = options_.max_lemke_size;
  // (ST12): D = J W Jᵀ is dense over the LCP's rows, as big as A; above the size no dense method runs, and
  // the LCP is solved sparse (ST13).
  grow(ws.z_, ws.z_storage_, n);
  LemkeResult lemke;
  if (!(n > max_size ? solve_sparse(problem, result, ws, lemke) : solve_dense(problem, result, ws, lemke))) return;

  // (ST8) per group, shared among its members (ST9); then v⁺ = v* + W Jᵀ [p_N; p_L; p_S; p_T] over
  // the groups (J holds the leaders' rows, equal to their members').
  const int k = ws.lcp_.k, ng = ws.lcp_.ng;
  const SparseRows& J = *ws.lcp_.J;
  grow(ws.p_J_, ws.p_J_storage_, J.rows());
  ws.p_J_.setZero();
  ws.p_J_.head(ng) = ws.z_.head(ng);
  ws.p_J_.segment(ng, nl) = ws.z_.segment(ws.lcp_.offset_L, nl);
  for (int f = 0; f < ws.lcp_.nf; ++f) {
    const auto p_F = ws.z_.segment(ws.lcp_.offset_F + f * k, k);
    const int g = ws.lcp_.friction_group[f];
    ws.p_J_[ng + nl + g] = ws.lcp_.cos_edge.dot(p_F);        // p_S of the group
    ws.p_J_[2 * ng + nl + g] = ws.lcp_.sin_edge.dot(p_F);    // p_T of the group
  }
  for (int c = 0; c < nc; ++c) {
    const int g = ws.lcp_.group[c];
    const double share = ws.lcp_.share[c];
    result.p_N[c] = share * ws.p_J_[g];
    result.p_S[c] = share * ws.p_J_[ng + nl + g];
    result.p_T[c] = share * ws.p_J_[2 * ng + nl + g];
  }
  result.p_L = ws.p_J_.segment(ng, nl);
  grow(ws.impulse_, ws.impulse_storage_, problem.nv);
  ws.impulse_.noalias() = J.transpose() * ws.p_J_;
  grow(ws.dv_, ws.dv_storage_, problem.nv);
  solve_M_into(problem, ws.impulse_, ws.dv_);
  result.v_plus = problem.v_star + ws.dv_;

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
