// The maximum-dissipation model: phase I, phase II, acceptance and fallback (max_dissipation.hpp).
#include "contact/max_dissipation/max_dissipation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "contact/free_motion.hpp"
#include "contact/model_options.hpp"
#include "contact/solvers/inertia_operator.hpp"

namespace impetus {
namespace {

constexpr const char* kName = "max_dissipation";

/// ρ of (MD3) in units of tr(M)·v̄: a stack's deepest contact carries at most the island's mass times
/// its velocity scale, and tr(M) ≥ the island's mass, so only an infeasible non-penetration reaches it.
constexpr double kElasticFactor = 1e3;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

MaxDissipationOptions MaxDissipationOptions::parse(const ModelOptions& options) {
  OptionReader read(kName, options);
  MaxDissipationOptions o;
  o.friction = read.choice("friction", o.friction,
                           {{"cone", FrictionCone::SecondOrder}, {"pyramid", FrictionCone::Pyramid},
                            {"viscous", FrictionCone::Viscous}});
  o.friction_edges = read.integer("friction_edges", o.friction_edges, 3, 16);
  o.tolerance = read.real("tolerance", o.tolerance, 1e-13, 1e-4);
  o.gap_tolerance = read.real("gap_tolerance", o.gap_tolerance, 1e-15, 1e-4);
  o.max_iterations = read.integer("max_iterations", o.max_iterations, 5, 1000);
  o.warm_start = read.boolean("warm_start", o.warm_start);
  o.certify_warm_start = read.boolean("certify_warm_start", o.certify_warm_start);
  o.check_tolerance = read.real("check_tolerance", o.check_tolerance, 1e-12, 1e-2);
  o.fallback_sweeps = read.integer("fallback_sweeps", o.fallback_sweeps, 1, 10000000);
  o.screen_contacts_above = read.integer("screen_contacts_above", o.screen_contacts_above, -1, 1000000000);
  read.finish();
  return o;
}

MaxDissipationModel::MaxDissipationModel(MaxDissipationOptions options) : options_(options) {}

std::unique_ptr<ContactModel> MaxDissipationModel::create(const ModelOptions& options) {
  return std::make_unique<MaxDissipationModel>(MaxDissipationOptions::parse(options));
}

void MaxDissipationModel::velocity_of(Buffers& ws, const ContactProblem& problem, const ConeProgram& program, const Eigen::VectorXd& p,
                                 Eigen::VectorXd& v) const {
  ws.impulse_.noalias() = program.J.transpose() * p;   // 𝐉ᵀp (nv)
  problem.solve_M(ws.impulse_, ws.scratch_);
  v = problem.v_star + ws.scratch_;
}

void MaxDissipationModel::keep_free_motion(Buffers& ws, const ContactProblem& problem, SolverStatistics& stats,
                                           MaxDissipationReport& report) const {
  // The interior point's certified p = 0 gives v⁺_I = v* + M⁻¹𝐉ᵀ0 (velocity_of), whose zeros are +0: adding +0
  // keeps those bits (a −0 of v* becomes +0 as there).
  ws.p1_.setZero(problem.nc + problem.nl);
  report.v_phase_one = problem.v_star.array() + 0.0;
  report.p_N_phase_one = ws.p1_.head(problem.nc);
  report.phase_one_certified = true;
  report.phase_one_status = InteriorPointStatus::Solved;
  report.phase_one_iterations = 0;
  stats.residual = 0;   // p = 0 with G v* + φ/dt ≥ 0: the LCP of (MD2) holds exactly
}

bool MaxDissipationModel::phase_one(Buffers& ws, const ContactProblem& problem, double rho, double impulse_scale,
                               SolverStatistics& stats,
                               MaxDissipationReport& report) const {
  std::chrono::steady_clock::time_point start;
  if (options_.timing) start = std::chrono::steady_clock::now();
  const int nc = problem.nc, nl = problem.nl;
  // Warm start from the previous normal impulses, when there are any.
  const bool guess = options_.warm_start &&
                     ((nc > 0 && problem.p_N_guess.size() == nc && problem.p_N_guess.any()) ||
                      (nl > 0 && problem.p_L_guess.size() == nl && problem.p_L_guess.any()));
  // (MD12) The guess is the candidate; without one (the previous step's impulses on these contacts were all
  // 0: a falling pile whose contacts the margin reports before they touch), p = 0 is (MD13).
  if (options_.warm_start && options_.certify_warm_start && !guess && every_row_separates(problem)) {
    keep_free_motion(ws, problem, stats, report);
    if (options_.timing) report.phase_one_seconds = seconds_since(start);
    return true;
  }
  build_phase_one(problem, 0.0, ws.program_one_, ws.layout_, ws.program_scratch_);   // ρ only in the fallback (MD3): in the
                                                       // interior-point method a distant bound
                                                       // only slows the gap down
  if (guess) {
    ws.p1_start_.setZero(nc + nl);
    if (problem.p_N_guess.size() == nc) ws.p1_start_.head(nc) = problem.p_N_guess;
    if (problem.p_L_guess.size() == nl) ws.p1_start_.tail(nl) = problem.p_L_guess;
  }
  const Eigen::VectorXd* candidate = nullptr;
  if (options_.warm_start && options_.certify_warm_start) {
    if (!guess) ws.p1_start_.setZero(nc + nl);
    candidate = &ws.p1_start_;
  }
  ws.ipm_one_.solve(ws.program_one_, guess ? &ws.p1_start_ : nullptr, ws.result_one_, candidate);
  report.phase_one_certified = ws.result_one_.certified;
  report.phase_one_status = ws.result_one_.status;
  report.phase_one_iterations = ws.result_one_.iterations;
  if (options_.trace) report.phase_one_trace = ws.result_one_.trace;
  ws.p1_ = ws.result_one_.p.cwiseMax(0.0).cwiseMin(rho);   // rounding-level excursions out of [0, ρ]

  bool certified = ws.result_one_.usable();
  stats.residual = ws.result_one_.residual();
  if (!certified) {
    // (MD3): projected Gauss–Seidel from the interior-point iterate.
    const PhaseOnePgsResult pgs =
        ws.pgs_.solve(problem, rho, options_.fallback_sweeps, options_.check_tolerance, impulse_scale, ws.p1_, report.v_phase_one);
    report.phase_one_by_fallback = true;
    stats.residual = pgs.residual;
    certified = pgs.converged;
    stats.status = certified ? SolveStatus::Fallback : SolveStatus::Failed;
    stats.message = std::string("phase I: interior point ") + to_string(ws.result_one_.status) + " (" +
                    ws.result_one_.message + "); projected Gauss-Seidel " +
                    (certified ? "converged" : "did not converge") + " in " + std::to_string(pgs.sweeps) +
                    " sweeps, residual " + std::to_string(pgs.residual);
  } else {
    velocity_of(ws, problem, ws.program_one_, ws.p1_, report.v_phase_one);
  }
  report.p_N_phase_one = ws.p1_.head(nc);
  if (options_.timing) report.phase_one_seconds = seconds_since(start);
  return certified;
}

MaxDissipationModel::Buffers::Buffers(const MaxDissipationOptions& options) {
  for (InteriorPointSolver* ipm : {&ipm_one_, &ipm_two_}) {
    ipm->options().trace = options.trace;
    ipm->options().tolerance = options.tolerance;
    ipm->options().gap_tolerance = options.gap_tolerance;
    ipm->options().max_iterations = options.max_iterations;
    ipm->options().kkt_observer = options.kkt_observer;
  }
}

std::unique_ptr<ContactWorkspace> MaxDissipationModel::make_workspace() const {
  return std::make_unique<Workspace>(options_);
}

void MaxDissipationModel::solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const {
  Buffers& ws = static_cast<Workspace&>(workspace).by_structure(island_structure(problem), problem.nc + problem.nl);
  const int nc = problem.nc, nl = problem.nl;
  MaxDissipationReport& report = result.report_slot<MaxDissipationReport>();
  report.phase_one_by_fallback = false;
  report.phase_two_accepted = false;
  report.phase_one_iterations = report.phase_two_iterations = 0;
  report.phase_one_certified = report.phase_two_certified = false;
  report.stop_rounds = 0;
  report.screened_contacts = report.screen_resolves = 0;
  report.phase_one_seconds = report.phase_two_seconds = 0;
  if (options_.trace) report.phase_one_trace = report.phase_two_trace = InteriorPointTrace{};
  report.kappa = 0;
  result.v_plus = problem.v_star;
  result.p_N.setZero(nc);
  result.p_S.setZero(nc);
  result.p_T.setZero(nc);
  result.p_L.setZero(nl);
  result.clear_implicit();
  result.stats = SolverStatistics{};
  SolverStatistics& stats = result.stats;
  report.kinetic_energy_star = problem.kinetic_energy(problem.v_star);
  report.v_phase_one = problem.v_star;
  report.kinetic_energy_phase_one = report.kinetic_energy_phase_two = report.kinetic_energy_star;
  if (nc + nl == 0) return;

  // Scales of the acceptance checks (MD9) and of ρ (MD3).
  double trace = 0;
  for (const SystemBlock& s : problem.systems) trace += s.M->trace();
  const double mass = problem.nv > 0 ? trace / problem.nv : 1.0;   // m̄
  double vbar = problem.v_star.lpNorm<Eigen::Infinity>();
  for (int i = 0; i < nc; ++i)
    vbar = std::max({vbar, std::abs(problem.phi[i]) / problem.dt, std::abs(row_dot({&problem.N, i}, problem.v_star))});
  for (int k = 0; k < nl; ++k) vbar = std::max(vbar, std::abs(problem.phi_L[k]) / problem.dt);
  constexpr double kVelocityFloor = 1e-12;   // m/s: below this every velocity is rounding
  vbar = std::max(vbar, kVelocityFloor);
  const double rho = kElasticFactor * trace * vbar;
  const double impulse_scale = mass * vbar;

  // The small-island path (single_contact.hpp), else phase I by the interior point.
  std::chrono::steady_clock::time_point closed_start;
  if (options_.timing) closed_start = std::chrono::steady_clock::now();
  const bool closed = options_.single_contact_closed_form && !options_.trace && nc == 1 && nl == 0 &&
                      options_.friction == FrictionCone::SecondOrder && solve_single_contact(problem, ws.single_);
  bool phase_one_ok = true;
  if (closed) {
    ws.p1_.resize(1);
    ws.p1_[0] = ws.single_.p_N_one;
    report.phase_one_status = InteriorPointStatus::Solved;
    report.v_phase_one = ws.single_.v_one;
    report.p_N_phase_one = ws.p1_;
    stats.residual = ws.single_.residual;
    if (options_.timing) report.phase_one_seconds = seconds_since(closed_start);
  } else {
    phase_one_ok = phase_one(ws, problem, rho, impulse_scale, stats, report);
  }
  report.kinetic_energy_phase_one = problem.kinetic_energy(report.v_phase_one);
  double kappa = 0;
  for (int i = 0; i < nc; ++i) kappa += ws.p1_[i];
  report.kappa = kappa;
  auto keep_phase_one = [&](const std::string& why) {
    result.v_plus = report.v_phase_one;
    result.p_N = ws.p1_.head(nc);
    result.p_L = ws.p1_.tail(nl);
    if (stats.status == SolveStatus::Solved) stats.status = SolveStatus::Fallback;
    if (!why.empty()) stats.message += (stats.message.empty() ? "" : "; ") + why;
  };
  stats.iterations = report.phase_one_iterations;
  if (!phase_one_ok) return keep_phase_one("");
  // (MD13) κ = 0 with no limit impulse: the cone and the pyramid hold p_N ≥ 0, so Σ p_N ≤ 0 leaves p = 0 the only
  // feasible point of phase II, which is phase I's (v⁺ = v*, its rows certified by phase I's LCP).
  if (!closed && kappa == 0 && options_.friction != FrictionCone::Viscous && (nl == 0 || !ws.p1_.tail(nl).any())) {
    report.phase_two_accepted = true;
    report.phase_two_status = InteriorPointStatus::Solved;
    report.kinetic_energy_phase_two = report.kinetic_energy_phase_one;
    result.v_plus = report.v_phase_one;
    return;
  }

  // Phase II.
  if (closed) {
    ws.layout_.contact_offset.assign(1, 0);
    ws.layout_.normal_index.assign(1, 0);
    ws.layout_.has_friction.assign(1, problem.mu[0] > 0);
    ws.layout_.limit_index.clear();
    ws.p_closed_ = ws.single_.p;
    ws.v2_ = ws.single_.v_two;
    report.phase_two_status = InteriorPointStatus::Solved;
    report.kinetic_energy_phase_two = problem.kinetic_energy(ws.v2_);
  } else {
    phase_two(ws, problem, kappa, vbar, stats, report);
  }
  const Eigen::VectorXd& p = closed ? ws.p_closed_ : ws.result_two_.p;
  const bool usable = closed || ws.result_two_.usable();

  // Acceptance (MD9).
  const double eps = options_.check_tolerance;
  const double pbar = std::max(kappa, impulse_scale);
  const double energy_scale = std::max(report.kinetic_energy_star, 0.5 * mass * vbar * vbar);
  std::string why;
  if (!usable) {
    why = std::string("phase II: interior point ") + to_string(ws.result_two_.status) + " (" + ws.result_two_.message + ")";
  } else if (!p.allFinite() || !ws.v2_.allFinite()) {
    why = "phase II: non-finite result";
  } else {
    double gap_violation = 0, cone_violation = 0, sum_N = 0;
    for (int i = 0; i < nc; ++i) {
      const int o = ws.layout_.contact_offset[i];
      gap_violation = std::max(gap_violation, -(row_dot({&problem.N, i}, ws.v2_) + problem.phi[i] / problem.dt));
      if (o < 0) continue;   // (MD16) left out: no impulse
      sum_N += p[o];
      cone_violation = std::max(cone_violation, -p[o]);
      if (ws.layout_.has_friction[i]) {
        const double viscous = options_.friction == FrictionCone::Viscous && problem.mu_viscous.size() == nc
                                   ? problem.dt * problem.mu_viscous[i] *
                                         std::hypot(row_dot({&problem.S, i}, problem.v_star),
                                                    row_dot({&problem.T, i}, problem.v_star))
                                   : 0.0;
        cone_violation =
            std::max(cone_violation, std::hypot(p[o + 1], p[o + 2]) - std::max(problem.mu[i], 0.0) * p[o] - viscous);
      }
    }
    for (int k = 0; k < nl; ++k) {
      gap_violation = std::max(gap_violation, -(row_dot({&problem.L, k}, ws.v2_) + problem.phi_L[k] / problem.dt));
      if (ws.layout_.limit_index[k] >= 0) cone_violation = std::max(cone_violation, -p[ws.layout_.limit_index[k]]);
    }
    if (gap_violation > eps * vbar)
      why = "phase II: non-penetration violated by " + std::to_string(gap_violation) + " m/s";
    else if (cone_violation > eps * pbar)
      why = "phase II: friction set violated by " + std::to_string(cone_violation) + " N·s";
    else if (sum_N > kappa + eps * pbar)
      why = "phase II: budget exceeded by " + std::to_string(sum_N - kappa) + " N·s";
    else if (report.kinetic_energy_phase_two > report.kinetic_energy_phase_one + eps * energy_scale)
      why = "phase II: kinetic energy above phase I's by " +
            std::to_string(report.kinetic_energy_phase_two - report.kinetic_energy_phase_one) + " J";
  }
  if (!why.empty()) return keep_phase_one(why);

  report.phase_two_accepted = true;
  stats.residual = closed ? ws.single_.residual : ws.result_two_.residual();
  result.v_plus = ws.v2_;
  for (int i = 0; i < nc; ++i) {
    const int o = ws.layout_.contact_offset[i];
    if (o < 0) continue;   // (MD16) left out: no impulse
    result.p_N[i] = p[o];
    if (ws.layout_.has_friction[i]) {
      result.p_S[i] = p[o + 1];
      result.p_T[i] = p[o + 2];
    }
  }
  for (int k = 0; k < nl; ++k) result.p_L[k] = ws.layout_.limit_index[k] >= 0 ? p[ws.layout_.limit_index[k]] : 0.0;
}

int MaxDissipationModel::stop_guess(Buffers& ws, const ContactProblem& problem) const {
  const ConeProgram& P = ws.program_two_;
  const int nv = problem.nv, nc = problem.nc;
  Eigen::VectorXd& p = ws.p2_candidate_;
  p = ws.p2_start_;
  // The rows 𝒜 of the contacts that carry impulse.
  ws.stop_rows_.clear();
  for (int i = 0; i < nc; ++i) {
    const int o = ws.layout_.contact_offset[i];
    if (o < 0 || !(p[o] > 0)) continue;
    const int rows = ws.layout_.has_friction[i] ? 3 : 1;
    for (int k = 0; k < rows; ++k) ws.stop_rows_.push_back(o + k);
  }
  if (ws.stop_rows_.empty()) return 0;
  // 𝐉_𝒜ᵀ𝐉_𝒜 dense, O(nv²) memory and O(nv³) time, up to 192 DoF (32 free bodies: one factorization is
  // ~2.4 Mflop, less than the interior point's ~15 iterations on such an island), when 𝐉_𝒜 has full column
  // rank (else no stop is sought: the projection's analysis, redone whenever 𝒜 changes, would allocate in the
  // step loop of small scenes); beyond, the projection (MD14), whose sparse factor's pattern is the island's
  // contact graph (the granular pile at rest, one island of 6006 DoF, would need 288 MB and ~7e10 flop a step dense).
  constexpr int kStopMaxDenseDofs = 192;
  if (nv <= kStopMaxDenseDofs) {
    velocity_of(ws, problem, P, p, ws.stop_v_);
    ws.stop_x_.resize(nv);
    for (const SystemBlock& s : problem.systems)
      if (s.size > 0) ws.stop_x_.segment(s.offset, s.size).noalias() = -(*s.M) * ws.stop_v_.segment(s.offset, s.size);
    if (stop_solve_dense(ws, problem) && ws.stop_x_.allFinite())
      for (int row : ws.stop_rows_) p[row] += row_dot({&P.J, row}, ws.stop_x_);
    return 0;
  }
  ws.stop_projection_.project(problem, P.J, P.c, ws.stop_rows_, p);
  return ws.stop_projection_.rounds();
}

// Full column rank, well conditioned: the Cholesky factor's diagonal within 1e-6 of its largest (a condition
// number of 𝐉_𝒜ᵀ𝐉_𝒜 below ~1e12), else a free degree of freedom or a near one, and the projection is sought.
constexpr double kStopRank = 1e-6;

bool MaxDissipationModel::stop_solve_dense(Buffers& ws, const ContactProblem& problem) const {
  const ConeProgram& P = ws.program_two_;
  const int nv = problem.nv;
  ws.stop_H_.setZero(nv, nv);
  for (int row : ws.stop_rows_)
    for (SparseRows::InnerIterator a(P.J, row); a; ++a)
      for (SparseRows::InnerIterator b(P.J, row); b; ++b) ws.stop_H_(a.col(), b.col()) += a.value() * b.value();
  ws.stop_llt_.compute(ws.stop_H_);
  if (ws.stop_llt_.info() != Eigen::Success) return false;
  const auto diagonal = ws.stop_llt_.matrixLLT().diagonal();
  if (!(diagonal.minCoeff() > kStopRank * diagonal.maxCoeff())) return false;
  ws.stop_llt_.solveInPlace(ws.stop_x_);
  return true;
}

// (MD16) Screened solves before the whole program is solved.
constexpr int kScreenRounds = 3;

int MaxDissipationModel::screen_contacts(Buffers& ws, const ContactProblem& problem, const Eigen::VectorXd& v_one) const {
  const double tau = 0.25 * (v_one - problem.v_star).lpNorm<Eigen::Infinity>();
  ws.kept_.resize(problem.nc);
  int kept = 0;
  for (int i = 0; i < problem.nc; ++i) {
    ws.kept_[i] = !(row_dot({&problem.N, i}, v_one) + problem.phi[i] / problem.dt > tau);
    kept += ws.kept_[i];
  }
  return kept;
}

int MaxDissipationModel::put_back_contacts(Buffers& ws, const ContactProblem& problem, double slack) const {
  const ConeProgram& P = ws.program_two_;
  const InteriorPointResult& r = ws.result_two_;
  const double z_kappa = r.z[P.nr() + static_cast<int>(P.linear.size())];   // the budget Σ p_N ≤ κ, budgets[0]
  int put_back = 0;
  for (int i = 0; i < problem.nc; ++i) {
    if (ws.kept_[i]) continue;
    const bool row_violated = row_dot({&problem.N, i}, ws.v2_) + problem.phi[i] / problem.dt < -slack;
    const double g_N = -row_dot({&problem.N, i}, r.y) + z_kappa;
    const double g_t = std::hypot(row_dot({&problem.S, i}, r.y), row_dot({&problem.T, i}, r.y));
    const bool outside_dual_cone = g_N < std::max(problem.mu[i], 0.0) * g_t - slack;
    if (row_violated || outside_dual_cone) {
      ws.kept_[i] = 1;
      ++put_back;
    }
  }
  return put_back;
}

void MaxDissipationModel::phase_two(Buffers& ws, const ContactProblem& problem, double kappa, double vbar,
                                    SolverStatistics& stats, MaxDissipationReport& report) const {
  const int nc = problem.nc, nl = problem.nl;
  std::chrono::steady_clock::time_point start;
  if (options_.timing) start = std::chrono::steady_clock::now();
  bool screen = options_.friction == FrictionCone::SecondOrder && options_.screen_contacts_above >= 0 &&
                nc > options_.screen_contacts_above;
  int kept = screen ? screen_contacts(ws, problem, report.v_phase_one) : nc;
  if (kept == 0 || 2 * kept > nc) screen = false;   // nothing to solve, or too little left out to pay for a second solve
  const bool guess = options_.warm_start && nc > 0 && problem.p_N_guess.size() == nc && problem.p_N_guess.any();
  const bool certify = options_.certify_warm_start && guess;   // (MD12): the previous step's answer only
  for (int round = 0;; ++round) {
    build_phase_two(problem, options_.friction, options_.friction_edges, kappa, ws.p1_.tail(nl), ws.program_two_,
                    ws.layout_, ws.program_scratch_, report.kinetic_energy_phase_one, screen ? &ws.kept_ : nullptr);
    {   // the start and the candidate, in this program's layout
      ws.p2_start_.setZero(ws.program_two_.np);
      for (int i = 0; i < nc; ++i) {
        const int o = ws.layout_.contact_offset[i];
        if (o < 0) continue;
        ws.p2_start_[o] = guess ? problem.p_N_guess[i] : ws.p1_[i];
        if (ws.layout_.has_friction[i] && guess) {
          ws.p2_start_[o + 1] = problem.p_S_guess.size() == nc ? problem.p_S_guess[i] : 0.0;
          ws.p2_start_[o + 2] = problem.p_T_guess.size() == nc ? problem.p_T_guess[i] : 0.0;
        }
      }
      for (int k = 0; k < nl; ++k)
        if (ws.layout_.limit_index[k] >= 0)
          ws.p2_start_[ws.layout_.limit_index[k]] =
              guess && problem.p_L_guess.size() == nl ? problem.p_L_guess[k] : ws.p1_[nc + k];
      if (certify) report.stop_rounds = stop_guess(ws, problem);
    }
    ws.ipm_two_.solve(ws.program_two_, options_.warm_start ? &ws.p2_start_ : nullptr, ws.result_two_,
                      certify ? &ws.p2_candidate_ : nullptr);
    report.phase_two_iterations += ws.result_two_.iterations;
    stats.iterations += ws.result_two_.iterations;
    velocity_of(ws, problem, ws.program_two_, ws.result_two_.p, ws.v2_);
    // (MD16) The screened optimum is phase II's when no contact left out is violated or priced below its dissipation
    // (to the solver's tolerance); an unusable solve goes to the acceptance checks as it is.
    if (!screen || !ws.result_two_.usable()) break;
    const int put_back = put_back_contacts(ws, problem, options_.tolerance * vbar);
    if (put_back == 0) break;
    ++report.screen_resolves;
    kept += put_back;
    if (round + 1 == kScreenRounds || 2 * kept > nc) screen = false;   // the whole program next
  }
  if (screen) report.screened_contacts = nc - kept;
  report.phase_two_certified = ws.result_two_.certified;
  report.phase_two_status = ws.result_two_.status;
  if (options_.trace) report.phase_two_trace = ws.result_two_.trace;
  report.kinetic_energy_phase_two = problem.kinetic_energy(ws.v2_);
  if (options_.timing) report.phase_two_seconds = seconds_since(start);
}

}  // namespace impetus
