#include "contact/ecp/ecp_model.hpp"

#include <cmath>
#include <sstream>

#include "contact/model_options.hpp"

namespace impetus {

namespace {

/// A converged ECP may still violate a hull face that the face selection left out of (E5), or not be the
/// hull's lowest point. It is accepted when that violation (in units of ℓ, like the rows it stands for)
/// is within this multiple of the Newton tolerance: the faces in the problem are held to 1×, and a face
/// really crossed is violated by far more.
constexpr double kOmittedFaceFactor = 10;

/// Initial smoothing μ₀ (semismooth_newton.hpp S8) of the restarts, in the units of the scaled pairs: a
/// tenth of their O(1) size, so that every pair starts well inside both branches; three reductions by
/// 0.1 and μ is below any tolerance.
constexpr double kSmoothing = 1.0;

std::string validate(const ContactProblem& P, const HullPlaneProblem& H) {
  if (!(P.dt > 0) || !std::isfinite(P.dt)) return "dt is not positive";
  for (const SystemBlock& s : P.systems)
    if (s.size > 0 && s.M == nullptr) return "a system block has no inertia matrix";
  if (!H.replaced_by.empty() && static_cast<int>(H.replaced_by.size()) != P.nc)
    return "replaced_by has " + std::to_string(H.replaced_by.size()) + " entries for " + std::to_string(P.nc) +
           " contact rows";
  for (int r : H.replaced_by)
    if (r < -1 || r >= static_cast<int>(H.pairs.size())) return "replaced_by names a pair that does not exist";
  if (!H.pairs.empty() &&
      (H.q_offsets.size() != P.systems.size() + 1 || H.q_offsets.back() != static_cast<int>(H.q.size())))
    return "the island's configuration q and q_offsets do not match its systems";
  for (std::size_t e = 0; e < H.pairs.size(); ++e) {
    const BodyPlanePair& pair = H.pairs[e];
    const auto invalid = [&](const char* what) {   // the message only for an invalid pair: no allocation otherwise
      std::ostringstream why;
      why << "body–plane pair " << e << " (body " << pair.body << "): " << what;
      return why.str();
    };
    if (pair.system < 0 || pair.system >= static_cast<int>(P.systems.size())) return invalid("no such system");
    if (P.systems[pair.system].size != 6) return invalid("its system is not a free body (6 velocity coordinates)");
    if (H.q_offsets[pair.system + 1] - H.q_offsets[pair.system] != 7)
      return invalid("its system is not a free body (7 configuration coordinates)");
    const BodyHull* hull = pair.hull;
    if (hull == nullptr) return invalid("no hull");
    const auto m = hull->offsets.size();
    if (m < 4 || hull->normals.cols() != static_cast<Eigen::Index>(m) || hull->faces.size() != m ||
        hull->vertices.cols() < 4)
      return invalid("its hull is not a polytope (fewer than 4 faces or vertices, or inconsistent sizes)");
    if (std::abs(pair.n_W.norm() - 1) > 1e-9 || !std::isfinite(pair.d)) return invalid("the plane is not valid");
    if (!(pair.mu >= 0) || !std::isfinite(pair.mu)) return invalid("μ is not a finite non-negative number");
  }
  return {};
}

/// The island's structure (workspace_by_structure.hpp) and its pairs': each pair's system, its hull's
/// faces and vertices, and which contact rows the pairs replace.
std::uint64_t ecp_structure(const ContactProblem& problem, const HullPlaneProblem* pairs) {
  std::uint64_t h = island_structure(problem);
  if (pairs == nullptr) return h;
  h = mix_structure(h, static_cast<std::uint64_t>(pairs->q.size()));
  for (const BodyPlanePair& pair : pairs->pairs) {
    h = mix_structure(h, static_cast<std::uint64_t>(pair.system));
    if (pair.hull == nullptr) continue;
    h = mix_structure(h, static_cast<std::uint64_t>(pair.hull->normals.cols()));
    h = mix_structure(h, static_cast<std::uint64_t>(pair.hull->vertices.cols()));
  }
  for (int r : pairs->replaced_by) h = mix_structure(h, static_cast<std::uint64_t>(r));
  return h;
}

}  // namespace

EcpOptions EcpOptions::parse(const ModelOptions& options) {
  // Ranges: the limit surface's constants are positive and far from over- or underflow; the tolerance
  // between round-off of the scaled rows and a residual that would show in a trajectory.
  OptionReader reader("ecp", options);
  EcpOptions o;
  o.surface.e_t = reader.real("e_t", o.surface.e_t, 1e-6, 1e6);
  o.surface.e_o = reader.real("e_o", o.surface.e_o, 1e-6, 1e6);
  o.surface.e_r = reader.real("e_r", o.surface.e_r, 1e-6, 1e6);
  o.tolerance = reader.real("tolerance", o.tolerance, 1e-14, 1e-4);
  o.max_iterations = reader.integer("max_iterations", o.max_iterations, 1, 100000);
  reader.finish();
  return o;
}

namespace {

/// The point-contact fallback's options: MD12's certified warm start off. With it, grasp_no_slip under ecp
/// went from 2 to 68 fallbacks in the identity run (the fallback's answers, kept from the previous step
/// instead of the interior point's, change the next steps' ECP warm starts; not traced further).
MaxDissipationOptions point_fallback_options() {
  MaxDissipationOptions options;
  options.certify_warm_start = false;
  return options;
}

}  // namespace

EcpModel::EcpModel(EcpOptions options) : options_(options), point_fallback_(point_fallback_options()) {}

SemismoothNewtonResult EcpModel::attempt(Buffers& ws, const ContactProblem& problem, const HullPlaneProblem& pairs,
                                        ecp::EcpSystem::Start start, bool all_faces, double smoothing) const {
  ws.system_.setup(problem, pairs, options_.surface, all_faces);
  ws.system_.initial_guess(start, ws.z_);
  return ws.newton_.solve(ws.system_, ws.z_, smoothing);
}

EcpModel::Buffers::Buffers(const EcpOptions& options) {
  newton_.options().tolerance = options.tolerance;
  newton_.options().max_iterations = options.max_iterations;
}

std::unique_ptr<ContactWorkspace> EcpModel::make_workspace() const {
  auto ws = std::make_unique<Workspace>(options_);
  ws->point_fallback_ = point_fallback_.make_workspace();
  return ws;
}

void EcpModel::solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const {
  Workspace& own = static_cast<Workspace&>(workspace);
  const HullPlaneProblem* found = problem.extension.find<HullPlaneProblem>();
  Buffers& ws = own.by_structure(ecp_structure(problem, found), problem.nc + problem.nl);
  result.stats = {};
  // What clear_implicit() empties, but the storage kept: this model answers q⁺ and the pairs every solve
  // (EcpSystem::extract sets them, each in its buffers of the last solve), and empties them where it does not.
  result.q_plus_systems.clear();
  result.contacts.clear();
  const HullPlaneProblem& pairs = found != nullptr ? *found : ws.no_pairs_;
  if (const std::string error = validate(problem, pairs); !error.empty()) {
    result.v_plus = problem.v_star;
    result.p_N.setZero(problem.nc);
    result.p_S.setZero(problem.nc);
    result.p_T.setZero(problem.nc);
    result.p_L.setZero(problem.nl);
    result.q_plus.resize(0);
    result.extension.slot<HullPlaneResult>().pairs.clear();
    result.stats.status = SolveStatus::Failed;
    result.stats.message = "ecp: invalid problem: " + error;
    return;
  }

  // The starts, in order (ecp_system.hpp): the first one with the faces near the support set, the others
  // with every face. The first converged result that violates no face wins.
  using Start = ecp::EcpSystem::Start;
  struct Plan {
    Start start;
    bool all_faces;
    double smoothing;
    const char* name;
  };
  static constexpr Plan kPlans[kRuns] = {{Start::Warm, false, 0.0, "warm start"},
                                    {Start::Warm, true, kSmoothing, "smoothed warm start"},
                                    {Start::Level, true, kSmoothing, "smoothed level start"},
                                    {Start::Current, true, kSmoothing, "smoothed current start"},
                                    {Start::Free, true, 0.0, "free-motion start"}};
  // The fallback's runs: the same point rows, so the warm start (the previous step's impulses) first.
  static constexpr Plan kFallbackPlans[] = {{Start::Warm, true, 0.0, "warm start"},
                                            {Start::Warm, true, kSmoothing, "smoothed warm start"}};
  SolverStatistics& stats = result.stats;
  std::string failures;
  double best_residual = INFINITY;
  stats.attempts = 0;
  for (const Plan& plan : kPlans) {
    const SemismoothNewtonResult r = attempt(ws, problem, pairs, plan.start, plan.all_faces, plan.smoothing);
    ++stats.attempts;
    stats.iterations += r.iterations;
    stats.regularization = std::max(stats.regularization, r.lm_parameter);
    const bool faces_ok = !r.converged() || !ws.system_.has_face_selection() ||
                          ws.system_.check_all_faces(ws.z_) <= kOmittedFaceFactor * options_.tolerance;
    if (r.converged() && faces_ok) {
      ws.system_.extract(ws.z_, result);
      stats.residual = r.residual;
      return;   // Solved: the model's own method met its certificate
    }
    std::ostringstream why;
    why << plan.name << ": ";
    if (r.converged()) {
      why << "its ECP violates a hull face left out of the problem";
    } else {
      why << to_string(r.status) << " after " << r.iterations << " iterations (" << r.lm_iterations
          << " Levenberg-Marquardt), residual " << r.residual << " at " << ws.system_.describe_row(r.worst_row);
    }
    failures += (failures.empty() ? "" : "; ") + why.str();
    const double residual = r.converged() ? INFINITY : r.residual;   // a face violation ranks last
    if (residual < best_residual || stats.attempts == 1) {
      best_residual = residual;
      ws.system_.extract(ws.z_, result);   // the best so far, returned if every start fails
      stats.residual = r.residual;
    }
  }
  // Fallback: the island with its pairs' point rows (E9)–(E10) in place of the ECPs, when it has pairs.
  if (!pairs.pairs.empty()) {
    for (const Plan& plan : kFallbackPlans) {
      const SemismoothNewtonResult r = attempt(ws, problem, ws.no_pairs_, plan.start, true, plan.smoothing);
      ++stats.attempts;
      stats.iterations += r.iterations;
      stats.regularization = std::max(stats.regularization, r.lm_parameter);
      if (!r.converged()) continue;
      ws.system_.extract(ws.z_, result);
      stats.residual = r.residual;
      stats.status = SolveStatus::Fallback;
      stats.message = "ecp: the pairs solved as their point contacts (" + std::string(plan.name) +
                      "); semismooth Newton failed from every start: " + failures;
      return;
    }
    failures += "; point rows: not converged";
  }
  const SolverStatistics ecp_stats = stats;
  result.q_plus.resize(0);
  result.q_plus_systems.clear();
  result.extension.slot<HullPlaneResult>().pairs.clear();
  point_fallback_.solve(problem, result, *own.point_fallback_);
  stats.attempts += ecp_stats.attempts;
  stats.iterations += ecp_stats.iterations;
  stats.regularization = std::max(stats.regularization, ecp_stats.regularization);
  if (stats.status != SolveStatus::Failed) stats.status = SolveStatus::Fallback;
  stats.message = "ecp: the island solved as point contacts by max_dissipation (" +
                  (stats.message.empty() ? std::string("its certificate met") : stats.message) +
                  "); semismooth Newton failed from every start: " + failures;
}

std::unique_ptr<ContactModel> EcpModel::create(const ModelOptions& options) {
  return std::make_unique<EcpModel>(EcpOptions::parse(options));
}

}  // namespace impetus
