// ID(t_i)_QP,μ and QP,∞ (id_qp.hpp, QP1–QP7).
#include "control/inverse_dynamics/id_qp.hpp"
#include "control/inverse_dynamics/least_torque.hpp"

#include <cmath>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

namespace impetus {
namespace {

// ε of (QP3), relative to ‖T_τ Z‖²/dim: only breaks ties where τ does not depend on w (J without full
// row rank: duplicated contacts); it moves τ by ~1e-10 relative.
constexpr double kStageTwoRegularization = 1e-10;
// Stage II's p_N and pyramid facets may go negative by roundoff of Lemke's certificate (1e-6 relative by
// default); p is accepted when they are ≥ −this·max|p|, and p_N is then clamped.
constexpr double kStageTwoFeasibility = 1e-6;
// Phase I's active set (QP5): p^I_i above this fraction of the largest. Lemke's certificate leaves
// inactive impulses at ≤ 1e-6 relative (lemke.hpp L6) and exact zeros in practice; active support
// impulses of a robot are within a few orders of each other. 1e-9 separates the two.
constexpr double kActiveFraction = 1e-9;
// Iterations over phase I's active sets (QP5): each is one Stage I and one frictionless LCP; the set
// changes only where τ moves a contact across lift-off, so it settles in one or two.
constexpr int kBudgetIterations = 8;
// Stage II's moves along the face keep the undriven balance U Jᵀp (QP3), so they redistribute the
// impulses of the step rather than grow them (a squeeze would, but costs τ): a row of (QP3) whose
// unit-norm bound exceeds ten times the impulses' size never binds.
constexpr double kReach = 10;
// (QP14) stops at |κ(τ(z)) − κ̄| ≤ this × κ̄: a budget off by 2e-5 N·s of 5e-3 moved the arm's joints by
// 4.5e-3 rad/s (the arm holding its box), so 1e-10 relative leaves ~1e-10 rad/s; h is piecewise affine in κ̄ and
// regula falsi ends on its last piece in a few steps (four sliding feet: 5). A bracket narrower than this
// without |h| this small straddles a jump of h (two solutions of (QP6) at one κ̄), and an h that does not
// move with κ̄ is a squeeze (Σ p_N follows κ̄ and κ(τ) with it): both end the search, as does the cap.
constexpr double kBudgetRoot = 1e-10;
constexpr int kBudgetRootEvaluations = 40;
// QP,∞'s least-torque weight (QP15), relative: w‖T_τ B‖²_F = this × tr H, a perturbation of (QP6)'s H of
// the relative size of Lemke's own certificate (1e-6, lemke.hpp L6). Measured on four stuck feet: 1e-9 …
// 3e-7 leave Stage I on its μ = 100 squeeze vertex (τ clamped, 29–119 rad/s missed); 1e-6 … 1e-3 hold
// the static stance to its 0.1 %.
constexpr double kStageOneTorque = 1e-6;

// X B and Bᵀ X by B's columns (FE1): that of p_N,c is e_c, that of edge j of contact c is cos_j e_S,c +
// sin_j e_T,c, so a column (row) of the product is one of X's or a combination of two — O(nc²) for X of
// size 3nc × 3nc, where the dense products are O(nc³) (the products of Stage I's data, QP1 and QP6).
// [mine] For k = 4 every edge has an exact zero coefficient (friction_edges.cpp), and each entry is then
// the one non-zero product, the dense product's value to the bit.
template <class Matrix>
void times_B(const FrictionEdges& e, const Matrix& X, MatrixView& XB, Eigen::VectorXd& storage) {
  const int nc = e.nc, k = e.k;
  grow(XB, storage, X.rows(), e.nz());
  XB.leftCols(nc) = X.leftCols(nc);
  for (int f = 0; f < e.nf; ++f) {
    const int c = e.friction_contact[f];
    for (int j = 0; j < k; ++j)
      XB.col(nc + k * f + j) = e.cos_edge[j] * X.col(nc + c) + e.sin_edge[j] * X.col(2 * nc + c);
  }
}

void B_transpose_times(const FrictionEdges& e, const MatrixView& X, MatrixView& BtX, Eigen::VectorXd& storage) {
  const int nc = e.nc, k = e.k;
  grow(BtX, storage, e.nz(), X.cols());
  BtX.topRows(nc) = X.topRows(nc);
  for (int f = 0; f < e.nf; ++f) {
    const int c = e.friction_contact[f];
    for (int j = 0; j < k; ++j)
      BtX.row(nc + k * f + j) = e.cos_edge[j] * X.row(nc + c) + e.sin_edge[j] * X.row(2 * nc + c);
  }
}

}  // namespace

void IdQp::linearize_budget(const ContactProblem& cp, const std::vector<char>& active) {
  const int nc = cp.nc, nz = edges_.nz();
  const Eigen::MatrixXd& Y = elimination_.Minv_Jt();
  std::vector<int>& a = set_;
  a.clear();
  for (int i = 0; i < nc; ++i)
    if (active[i]) a.push_back(i);
  const int na = static_cast<int>(a.size());
  budget_set_ = active;
  kappa_c_ = 0;
  g_sizes_.fit(g_, nz, 1);
  g_.setZero();
  gp_sizes_.fit(gp_, 3 * nc, 1);
  gp_.setZero();
  if (na == 0) return;
  // (QP5): p^I_A = −(N_A M⁻¹N_Aᵀ)⁻¹(N_A v*(τ) + φ_A/dt), κ = 1ᵀp^I_A, v*(τ) = v* + M⁻¹Pᵀ(τ_c + T_z z).
  auto& S = S_(na, na), &NMPt = NMPt_(na, elimination_.na());
  auto& r = r_(na);
  const Eigen::VectorXd& v_c = elimination_.v_c();   // v* + M⁻¹Pᵀτ_c
  auto& Ni = Ni_(1, elimination_.nv());
  for (int i = 0; i < na; ++i) {
    Ni = elimination_.J().row(a[i]);
    for (int j = 0; j < na; ++j) S(i, j) = Ni.dot(Y.col(a[j]));
    NMPt.row(i).noalias() = Ni * elimination_.Minv_Pt();
    r[i] = Ni.dot(v_c) + cp.phi[a[i]] / cp.dt;
  }
  Eigen::LDLT<Eigen::MatrixXd>& ldlt = ldlt_(na);
  ldlt.compute(0.5 * (S + S.transpose()));
  auto& u = u_(na);
  u = ldlt.solve(Eigen::VectorXd::Ones(na));
  kappa_c_ = -u.dot(r);
  auto& uN = uN_(1, NMPt.cols());
  uN.noalias() = u.transpose() * NMPt;
  auto& uNT = uNT_(1, elimination_.T_tau().cols());
  uNT.noalias() = uN * elimination_.T_tau();
  gp_ = -uNT.transpose();
  g_.noalias() = edges_.B.transpose() * gp_;
}

void IdQp::phase_one_region(const ContactProblem& cp) {
  const int nc = cp.nc;
  std::vector<int> a;
  for (int i = 0; i < nc; ++i)
    if (budget_set_[i]) a.push_back(i);
  const int na = static_cast<int>(a.size());
  // (QP18): N v*(τ(p)) + φ/dt = r + E p, E = N M⁻¹Pᵀ T_τ (v*(τ) = v_c + M⁻¹Pᵀ T_τ p, ID2–ID3).
  const Eigen::MatrixXd E = elimination_.J().topRows(nc) * elimination_.Minv_Pt() * elimination_.T_tau();
  region_h_ = elimination_.J().topRows(nc) * elimination_.v_c() + cp.phi / cp.dt;
  region_G_ = E;
  if (na == 0) return;
  const Eigen::MatrixXd W = elimination_.J().topRows(nc) * elimination_.Minv_Jt().leftCols(nc);   // N M⁻¹Nᵀ
  Eigen::MatrixXd S(na, na), E_A(na, E.cols()), W_A(nc, na);
  Eigen::VectorXd r_A(na);
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < na; ++j) S(i, j) = 0.5 * (W(a[i], a[j]) + W(a[j], a[i]));
    E_A.row(i) = E.row(a[i]);
    r_A[i] = region_h_[a[i]];
    W_A.col(i) = W.col(a[i]);
  }
  // p^I_A = −S_A⁻¹(r_A + E_A p) ≥ 0 on A, w_i = r_i + E_i p + (N M⁻¹N_Aᵀ)_i p^I_A ≥ 0 off A.
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(S);
  const Eigen::MatrixXd G_A = -ldlt.solve(E_A);
  const Eigen::VectorXd h_A = -ldlt.solve(r_A);
  region_G_.noalias() += W_A * G_A;
  region_h_.noalias() += W_A * h_A;
  for (int i = 0; i < na; ++i) {
    region_G_.row(a[i]) = G_A.row(i);
    region_h_[a[i]] = h_A[i];
  }
}

LemkeResult IdQp::stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, bool convex, Eigen::VectorXd& z) {
  assemble_stage_one(cp, c, convex);
  x_sizes_.fit(x_, A_.rows(), 1);
  // (QP19): the last call's basis first, on (QP6) itself (not its convex stand-in, nor at a constant κ̄).
  if (try_kept_basis_ && !convex && !std::isfinite(fixed_budget_)) {
    try_kept_basis_ = false;
    double residual = 0;
    if (kept_.lcp.size() == A_.rows() && guessed_.solve(A_, q_, kept_.lcp, lemke_.options().tolerance, x_, residual)) {
      report_.warm_start_used = true;
      LemkeResult result;   // Solved, 0 pivots, 0 attempts: no pivoting was needed
      result.residual = residual;
      z = x_.head(edges_.nz());
      return result;
    }
  }
  x_.setZero();
  const LemkeResult result = lemke_.solve(A_, q_, x_);
  z = x_.head(edges_.nz());
  return result;
}

void IdQp::assemble_stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, bool convex) {
  const int nc = cp.nc, nz = edges_.nz(), nm = static_cast<int>(edges_.A_mu.rows());
  const int n = nz + nc + nm + 1;
  double a = nc > 0 ? H_.topLeftCorner(nc, nc).diagonal().mean() : 0;   // velocity per impulse (1/kg)
  if (!(a > 0)) a = std::max(H_.cwiseAbs().maxCoeff(), 1.0);
  A_sizes_.fit(A_, n, n);
  A_.setZero();
  A_.topLeftCorner(nz, nz) = H_;
  A_.block(nz, 0, nc, nz) = DB_.topRows(nc);                  // N v⁺ + φ/dt ≥ 0 at v⁺(z)
  if (convex)
    A_.block(0, nz, nz, nc) = -DB_.topRows(nc).transpose();
  else
    A_.block(0, nz, nz, nc) = -F_N_.transpose();
  if (nm > 0) {                                               // pyramid rows, scaled by a to velocity units
    A_.block(nz + nc, 0, nm, nz) = a * edges_.A_mu;
    A_.block(0, nz + nc, nz, nm) = -a * edges_.A_mu.transpose();
  }
  // The budget (QP5): a(κ_c + gᵀz − Σ p_N) ≥ 0; its gradient at fixed τ is −1 on p_N. (QP14): a(κ̄ − Σ p_N).
  const bool fixed = std::isfinite(fixed_budget_);
  if (fixed)
    A_.block(n - 1, 0, 1, nz).setZero();
  else
    A_.block(n - 1, 0, 1, nz) = a * g_.transpose();
  A_.block(n - 1, 0, 1, nc).array() -= a;
  if (convex)
    A_.block(0, n - 1, nz, 1) = -A_.block(n - 1, 0, 1, nz).transpose();
  else
    A_.block(0, n - 1, nc, 1).setConstant(a);
  q_sizes_.fit(q_, n, 1);
  q_.setZero();
  q_.head(nz) = c;
  if (nc > 0) {
    auto& Nv = Jv_(nc);
    Nv.noalias() = elimination_.J().topRows(nc) * elimination_.v_c();
    q_.segment(nz, nc) = Nv + cp.phi / cp.dt;
  }
  q_[n - 1] = a * (fixed ? fixed_budget_ : kappa_c_);
}

double IdQp::phase_one(const ContactProblem& cp, const Eigen::VectorXd& tau, std::vector<char>& active) {
  const int nc = cp.nc;
  active.assign(nc, 0);
  if (nc == 0) return 0;
  const Eigen::MatrixXd& Y = elimination_.Minv_Jt();
  auto& A = A_phase_(nc, nc);
  A.noalias() = elimination_.J().topRows(nc) * Y.leftCols(nc);
  auto& v_star = v_star_(cp.v_star.size());
  v_star = cp.v_star;
  if (tau.size() > 0) {
    auto& Mt = tmp_q_(v_star.size());
    Mt.noalias() = elimination_.Minv_Pt() * tau;
    v_star += Mt;
  }
  auto& Nv = Jv_(nc);
  Nv.noalias() = elimination_.J().topRows(nc) * v_star;
  auto& q = q_phase_(nc);
  q = Nv + cp.phi / cp.dt;
  auto& p = p_phase_(nc);
  p.setZero();
  auto& A_sym = A_sym_(nc, nc);
  A_sym = 0.5 * (A + A.transpose());
  lemke_.solve(A_sym, q, p);
  const double largest = p.cwiseAbs().maxCoeff();
  for (int i = 0; i < nc; ++i) active[i] = p[i] > kActiveFraction * largest;
  return p.sum();
}

LemkeResult IdQp::solve_stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z) {
  LemkeResult result = stage_one(cp, c, false, z);
  stage_one_convex_ = !result.solved();
  if (stage_one_convex_) result = stage_one(cp, c, true, z);
  report_.stage_one_pivots += result.pivots;
  return result;
}

bool IdQp::solve_budget_root(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z,
                             LemkeResult& result, InverseDynamicsSolution& solution) {
  const int nc = cp.nc, nz = edges_.nz(), nm = static_cast<int>(edges_.A_mu.rows());
  std::vector<char> next;
  LemkeResult r;
  double h = 0, kappa = 0;
  bool slack = false;
  // h(κ̄), with (QP6) at the constant budget κ̄; false on a ray.
  const auto evaluate = [&](double budget) {
    fixed_budget_ = budget;
    r = stage_one(cp, c, false, z);
    fixed_budget_ = std::numeric_limits<double>::quiet_NaN();
    report_.stage_one_pivots += r.pivots;
    ++report_.budget_root_evaluations;
    if (!r.solved()) return false;
    p_ = edges_.B * z;
    elimination_.torque(p_, solution.tau);
    kappa = phase_one(cp, solution.tau, next);
    h = kappa - budget;
    // A right inverse also where the budget does not bind (y_b = 0) and Σ p_N is within κ(τ).
    slack = x_[nz + nc + nm] == 0 && z.head(nc).sum() <= kappa;
    samples_.push_back({budget, h});
    return true;
  };
  const auto accept = [&](double scale) {
    if (!(std::abs(h) <= kBudgetRoot * scale || slack)) return false;
    result = r;
    report_.kappa = kappa;
    report_.budget_mismatch = slack ? 0.0 : std::abs(h);
    linearize_budget(cp, next);   // (QP6) as Stage II reads it: x_ solves it to the mismatch
    assemble_stage_one(cp, c, false);
    return true;
  };
  // The closest pair of samples with h of opposite signs.
  int lo = -1, hi = -1;
  const auto bracket = [&] {
    lo = hi = -1;
    for (int i = 0; i < static_cast<int>(samples_.size()); ++i)
      for (int j = 0; j < static_cast<int>(samples_.size()); ++j)
        if (samples_[i].excess > 0 && samples_[j].excess < 0 &&
            (lo < 0 || std::abs(samples_[i].budget - samples_[j].budget) < std::abs(samples_[lo].budget - samples_[hi].budget)))
          lo = i, hi = j;
    return lo >= 0;
  };
  // No bracket: from the sample of least |h|, steps κ̄ = κ̄₀ + 2ⁿh₀ (n = 0: the fixed-point step κ̄ = κ(τ)),
  // towards the side where h changes sign (h < 0 once κ̄ exceeds what any z of (QP6) can use).
  if (!bracket()) {
    int s = 0;
    for (int i = 1; i < static_cast<int>(samples_.size()); ++i)
      if (std::abs(samples_[i].excess) < std::abs(samples_[s].excess)) s = i;
    const double b0 = samples_[s].budget, h0 = samples_[s].excess;
    double h_last = h0;
    for (int n = 0; n < kBudgetRootEvaluations / 2 && !bracket(); ++n) {
      const double budget = b0 + std::ldexp(h0, n);
      if (!(budget > 0)) break;
      if (!evaluate(budget)) return false;
      if (accept(std::abs(budget))) return true;
      if (std::abs(h - h_last) <= kBudgetRoot * std::abs(budget)) return false;
      h_last = h;
    }
    if (!bracket()) return false;
  }
  double a = samples_[lo].budget, ha = samples_[lo].excess, b = samples_[hi].budget, hb = samples_[hi].excess;
  const double scale = std::max(std::abs(a), std::abs(b));
  int side = 0;
  for (int k = 0; k < kBudgetRootEvaluations; ++k) {
    if (std::abs(b - a) <= kBudgetRoot * scale) return false;
    const double budget = (a * hb - b * ha) / (hb - ha);   // regula falsi: h is piecewise affine in κ̄
    if (!evaluate(budget)) return false;
    if (accept(scale)) return true;
    if (h > 0) {   // Illinois: halve the stale end's weight when the same end moves twice
      a = budget, ha = h;
      if (side == 1) hb *= 0.5;
      side = 1;
    } else {
      b = budget, hb = h;
      if (side == -1) ha *= 0.5;
      side = -1;
    }
  }
  return false;
}

bool IdQp::set_loop(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z, LemkeResult& result,
                    InverseDynamicsSolution& solution) {
  const int nc = cp.nc;
  std::vector<char> &active = active_, &next = next_;
  next.clear();
  visited_count_ = 0;
  samples_.clear();
  std::vector<char>& best = best_;   // the solved set whose iterate has the least budget mismatch (QP8)
  best.clear();
  double best_mismatch = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kBudgetIterations; ++k) {
    linearize_budget(cp, active);
    result = solve_stage_one(cp, c, z);
    report_.budget_iterations = k + 1;
    if (!result.solved()) return false;
    p_sizes_.fit(p_, edges_.B.rows(), 1);
    p_.noalias() = edges_.B * z;
    elimination_.torque(p_, solution.tau);
    report_.kappa = phase_one(cp, solution.tau, next);
    if (next == active) return true;
    const double budget = kappa_c_ + g_.dot(z);
    if (!stage_one_convex_) samples_.push_back({budget, report_.kappa - budget});
    const double mismatch = std::abs(budget - report_.kappa);
    if (mismatch < best_mismatch) best_mismatch = mismatch, best = active;
    if (visited_count_ == visited_.size()) visited_.emplace_back();
    visited_[visited_count_++] = active;
    const auto visited_end = visited_.begin() + static_cast<std::ptrdiff_t>(visited_count_);
    if (std::find(visited_.begin(), visited_end, next) != visited_end) {   // a cycle (QP8)
      for (int i = 0; i < nc; ++i) next[i] = next[i] || active[i];
      if (std::find(visited_.begin(), visited_end, next) != visited_end) return false;
    }
    active = next;
  }
  return false;
}

void IdQp::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  std::string kept_message = std::move(solution.stats.message);   // its storage, for this call's message
  kept_message.clear();
  solution.stats = {};
  solution.stats.message = std::move(kept_message);
  solution.fallbacks = 0;
  report_ = {};
  if (!elimination_.build(problem)) {
    solution.stats.status = SolveStatus::Failed;
    solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
    return;
  }
  const ContactProblem& cp = *problem.contact;
  const int nc = cp.nc;
  // QP,∞: every contact at μ_∞ (id_qp.hpp).
  Eigen::VectorXd& mu = mu_(nc);
  if (options_.unbounded_friction)
    mu.setConstant(options_.mu_infinity);
  else
    mu = cp.mu;
  edges_.build(mu, options_.friction_edges);
  const int nz = edges_.nz();
  // (QP17): P square, K = 0, H = 0: Stage I is a linear program whose optimum is a round-off vertex or a
  // ray; Stage II takes the call over the right inverses themselves.
  if (options_.stage_two && nc > 0 && static_cast<int>(problem.actuated.size()) == elimination_.nv()) {
    solve_fully_driven(cp, solution);
    return;
  }

  times_B(edges_, elimination_.D(), DB_, DB_storage_);
  B_transpose_times(edges_, DB_, H_, H_storage_);
  auto& H_sym = H_sym_(nz, nz);
  H_sym = H_ + H_.transpose();
  H_ = 0.5 * H_sym;
  auto& NY = NY_(nc, elimination_.Minv_Jt().cols());
  NY.noalias() = elimination_.J().topRows(nc) * elimination_.Minv_Jt();
  times_B(edges_, NY, F_N_, F_N_storage_);
  auto& Jv = Jv_(elimination_.J().rows());
  Jv.noalias() = elimination_.J() * elimination_.v_c();
  Eigen::VectorXd& c = c_(nz);
  c.noalias() = edges_.B.transpose() * Jv;
  // QP,∞: the least-torque term of Stage I (QP15), ½w‖τ(z)‖², τ = τ_c + T_τ B z.
  torque_weight_ = 0;
  if (options_.unbounded_friction && nz > 0) {
    times_B(edges_, elimination_.T_tau(), TB_, TB_storage_);
    const double norm = TB_.squaredNorm();
    if (norm > 0) {
      torque_weight_ = kStageOneTorque * H_.trace() / norm;
      H_.noalias() += torque_weight_ * TB_.transpose() * TB_;
      c.noalias() += torque_weight_ * TB_.transpose() * elimination_.tau_c();
    }
  }

  // (QP19): the last call's settled set and (QP6) basis, on the same contacts.
  const bool warm = options_.warm_start && kept_.lcp.size() > 0 && nc > 0 &&
                    kept_.keys.size() == static_cast<std::size_t>(nc) && kept_.set.size() == kept_.keys.size() &&
                    std::equal(kept_.keys.begin(), kept_.keys.end(), cp.keys.begin(), cp.keys.end());
  Eigen::VectorXd& z = z_(nz);
  z.setZero();
  LemkeResult result;
  bool converged = nc == 0;
  if (warm) {
    report_.warm_start_tried = true;
    active_ = kept_.set;
    try_kept_basis_ = true;
    converged = set_loop(cp, c, z, result, solution);
    try_kept_basis_ = false;
    // Only a loop that settled on (QP6) itself stands; anything else is the cold call's business.
    if (!(converged && result.solved() && !stage_one_convex_)) {
      report_.warm_start_discarded = true;
      converged = false;
    }
  }
  if (!warm || report_.warm_start_discarded) {
    // The first active set of phase I: that of the ID's frictionless impulses, LCP(N v_c + φ/dt, N K Nᵀ)
    // (at their τ the forward phase I has the same solution, so the linearised budget admits them).
    std::vector<char>& active = active_;
    active.assign(nc, 0);
    if (nc > 0) {
      auto& pn = pn_(nc);
      pn.setZero();
      auto& Nv = Jv_(nc);
      Nv.noalias() = elimination_.J().topRows(nc) * elimination_.v_c();
      auto& qn = qn_(nc);
      qn = Nv + cp.phi / cp.dt;
      auto& D_N = D_N_(nc, nc);
      D_N = elimination_.D().topLeftCorner(nc, nc);
      const LemkeResult r = lemke_.solve(D_N, qn, pn);
      solution.stats.iterations += r.pivots;
      const double largest = pn.cwiseAbs().maxCoeff();
      for (int i = 0; i < nc; ++i) active[i] = pn[i] > kActiveFraction * largest;
      z.setZero();
      converged = set_loop(cp, c, z, result, solution);
    }
  }
  const bool settled_in_loop = converged && result.solved() && !stage_one_convex_;
  std::vector<char> &active = active_, &next = next_;
  std::vector<char>& best = best_;   // the solved set whose iterate has the least budget mismatch (QP8)
  // (QP14): the set did not settle (QP8) or (QP6) ended on a ray; z solves (QP6) with the constant budget
  // κ̄ = κ_c + gᵀz of its iterate, so the samples bracket a root of κ(τ(z(κ̄))) = κ̄.
  // Also where the loop settled on the convex stand-in's z, which is not the forward model's optimum.
  if ((!converged || stage_one_convex_) && nc > 0 && !samples_.empty()) {
    const Eigen::VectorXd z_kept = z, x_kept = x_, q_kept = q_, g_kept = g_, gp_kept = gp_, tau_kept = solution.tau;
    const Eigen::MatrixXd A_kept = A_;
    const double kappa_c_kept = kappa_c_, kappa_kept = report_.kappa;
    if (solve_budget_root(cp, c, z, result, solution)) {
      converged = true;
      stage_one_convex_ = false;
    } else {   // as if not tried
      z = z_kept, x_ = x_kept, q_ = q_kept, g_ = g_kept, gp_ = gp_kept, solution.tau = tau_kept, A_ = A_kept;
      kappa_c_ = kappa_c_kept, report_.kappa = kappa_kept;
    }
  }
  if (result.solved() && !converged) {
    if (best != active) {   // the last solved set is not the best: solve it again (deterministic)
      active = best;
      linearize_budget(cp, active);
      result = solve_stage_one(cp, c, z);
      p_sizes_.fit(p_, edges_.B.rows(), 1);
      p_.noalias() = edges_.B * z;
      elimination_.torque(p_, solution.tau);
      report_.kappa = phase_one(cp, solution.tau, next);
    }
    report_.budget_mismatch = std::abs(kappa_c_ + g_.dot(z) - report_.kappa);
  }
  set_lemke_statistics(result, solution.stats, solution.fallbacks);
  if (result.solved() && !converged) {
    char mismatch[32];
    std::snprintf(mismatch, sizeof mismatch, "%.3g", report_.budget_mismatch);
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = "phase I's active set did not settle in " + std::to_string(report_.budget_iterations) +
                             " iterations; budget off by " + mismatch + " N·s";
    ++solution.fallbacks;
  }
  // (QP19): what the loop settled on, for the next call on the same contacts.
  if (options_.warm_start && settled_in_loop && nc > 0 && cp.keys.size() == static_cast<std::size_t>(nc)) {
    kept_.keys.assign(cp.keys.begin(), cp.keys.end());
    kept_.set = budget_set_;
    kept_lcp_sizes_.fit(kept_.lcp, x_.size(), 1);
    kept_.lcp = x_;
  } else {
    kept_.keys.clear();
    kept_.set.clear();
    kept_lcp_sizes_.fit(kept_.lcp, 0, 1);
  }

  // (QP15)'s certificate: (QP6) without the least-torque term, at Stage I's point.
  if (torque_weight_ > 0 && result.solved()) {
    // A₀ x = A_ x − w [BᵀT_τᵀT_τ B z; 0] and q₀ = q_ − w [BᵀT_τᵀτ_c; 0], formed in place (no copy of A_).
    tau_z_sizes_.fit(tau_z_, TB_.rows(), 1);
    tau_z_.noalias() = TB_ * x_.head(nz);
    certificate_w_sizes_.fit(certificate_w_, A_.rows(), 1);
    certificate_w_.noalias() = A_ * x_;
    certificate_w_.head(nz).noalias() -= torque_weight_ * TB_.transpose() * tau_z_;
    const double az = certificate_w_.lpNorm<Eigen::Infinity>();
    certificate_q_sizes_.fit(certificate_q_, q_.size(), 1);
    certificate_q_ = q_;
    certificate_q_.head(nz).noalias() -= torque_weight_ * TB_.transpose() * elimination_.tau_c();
    certificate_w_ += certificate_q_;
    report_.stage_one_residual = lcp_certificate(certificate_q_, x_, certificate_w_, az);
    if (!(report_.stage_one_residual <= lemke_.options().tolerance)) {
      char residual[32];
      std::snprintf(residual, sizeof residual, "%.3g", report_.stage_one_residual);
      std::string& message = solution.stats.message;   // appended in place: its storage is kept
      if (!message.empty()) message += "; ";
      message.append("Stage I's least-torque term leaves (QP6) at residual ").append(residual);
      if (solution.stats.status == SolveStatus::Solved) ++solution.fallbacks;
      solution.stats.status = SolveStatus::Fallback;
    }
  }

  p_sizes_.fit(p_, edges_.B.rows(), 1);
  p_.noalias() = edges_.B * z;
  if (options_.stage_two && result.solved() && nz > 0 && !problem.actuated.empty())
    if (!stage_two(problem, cp, solution.stats) && report_.stage_two_run) {
      // (QP18): refused where it left the budget slack; again on phase I's set A, else the refusal stands.
      if (report_.stage_two_left_budget) {
        report_.stage_two_on_set = true;
        if (!stage_two(problem, cp, solution.stats, true)) ++solution.fallbacks;
      } else {
        ++solution.fallbacks;
      }
    }

  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
  // (QP16): Stage I is not the forward model's answer; Newton on the twin from this τ.
  if (options_.forward_twin && !options_.unbounded_friction && nc > 0 && (!converged || stage_one_convex_) &&
      solution.stats.status != SolveStatus::Failed && solution.tau.allFinite()) {
    report_.twin_run = true;
    const ForwardTwinReport& twin = twin_.last_report();
    const auto keep_twin = [&](const char* what, const char* error) {
      const std::string message = std::string("τ from the forward twin (QP16)") + what + ": |P v⁺ − q̇_des| = " + error;
      solution.stats.message = solution.stats.message.empty() ? message : solution.stats.message + "; " + message;
      solution.stats.iterations += twin.iterations;
    };
    char error[64];
    if (twin_.correct(problem, elimination_, solution.tau, p_, solution.v_plus)) {
      report_.twin_accepted = true;
      std::snprintf(error, sizeof error, "%.3g", twin.velocity_error);
      keep_twin("", error);
    } else if (twin.improved) {
      // Above the twin's stop, yet nearer q̇_des than this τ by the forward model's own measure: a fallback.
      std::snprintf(error, sizeof error, "%.3g (%.3g at the ID's τ)", twin.velocity_error, twin.start_error);
      keep_twin(" above its stop", error);
      if (solution.stats.status == SolveStatus::Solved) ++solution.fallbacks;
      solution.stats.status = SolveStatus::Fallback;
    }
  }
  split_impulses(p_, nc, solution);
  report_.tau_norm_stage_two = solution.tau.norm();
}

const std::vector<int>& IdQp::duplicate_groups(const ContactProblem& cp) {
  const int nc = cp.nc;
  const Eigen::MatrixXd& J = elimination_.J();
  group_.resize(nc);
  for (int c = 0; c < nc; ++c) {
    group_[c] = c;
    for (int r = 0; r < c; ++r) {
      if (group_[r] != r || cp.phi[r] != cp.phi[c]) continue;
      if (!options_.unbounded_friction && cp.mu[r] != cp.mu[c]) continue;
      if (J.row(r) == J.row(c) && J.row(nc + r) == J.row(nc + c) && J.row(2 * nc + r) == J.row(2 * nc + c)) {
        group_[c] = r;
        break;
      }
    }
  }
  return group_;
}

bool IdQp::stage_two(const InverseDynamicsProblem& problem, const ContactProblem& cp, SolverStatistics& stats,
                     bool on_set) {
  const int nz = edges_.nz(), nc = edges_.nc, nm = static_cast<int>(edges_.A_mu.rows());
  const int k = edges_.k;
  const int na = static_cast<int>(elimination_.T_tau().rows());
  auto& Tp = tmp_a_(na);
  Tp.noalias() = elimination_.T_tau() * p_;
  report_.tau_norm_stage_one = (elimination_.tau_c() + Tp).norm();

  // Exactly duplicated contacts (QP9): one representative per group, Stage I's share split evenly.
  const std::vector<int>& group = duplicate_groups(cp);
  std::vector<int>& copies = copies_;
  copies.assign(nc, 0);
  for (int c = 0; c < nc; ++c) ++copies[group[c]];
  std::vector<char>& has_friction = has_friction_;
  has_friction.assign(nc, 0);
  for (int f : edges_.friction_contact) has_friction[f] = 1;
  auto& p0 = p0_(3 * nc);
  p0.setZero();
  for (int c = 0; c < nc; ++c)
    for (int t = 0; t < 3; ++t) p0[t * nc + group[c]] += p_[t * nc + c];
  for (int c = 0; c < nc; ++c)
    for (int t = 0; t < 3; ++t) p0[t * nc + c] = p0[t * nc + group[c]];
  for (int c = 0; c < nc; ++c)
    for (int t = 0; t < 3; ++t) p0[t * nc + c] /= copies[group[c]];
  Tp.noalias() = elimination_.T_tau() * p0;
  auto& tau0 = tau0_(na);
  tau0 = elimination_.tau_c() + Tp;

  // The components of p that exist on the representatives: every normal, tangents only where μ > 0.
  std::vector<int>& free = free_;
  free.clear();
  for (int c = 0; c < nc; ++c)
    if (group[c] == c) free.push_back(c);
  for (int c = 0; c < nc; ++c)
    if (group[c] == c && has_friction[c]) free.push_back(nc + c), free.push_back(2 * nc + c);
  std::sort(free.begin(), free.end());
  const int m = static_cast<int>(free.size());
  Eigen::MatrixXd& Jt = Jt_(elimination_.nv(), m);
  for (int i = 0; i < m; ++i) Jt.col(i) = elimination_.J().row(free[i]).transpose();
  const MatrixView& Zm = undriven_impulse_kernel(Jt, problem.actuated, kernel_);
  const int dim = static_cast<int>(Zm.cols());
  report_.nullspace_dimension = dim;
  if (dim == 0) return false;
  report_.stage_two_run = true;
  // p = p₀ + Z w: a representative's move shared evenly by its copies (the same J columns: τ and v⁺ see
  // only the sum; the even split keeps every copy inside its pyramid, whose sum is the pyramid of the sum).
  Eigen::MatrixXd& Z = Z_(3 * nc, dim);
  Z.setZero();
  std::vector<int>& row_of = row_of_;
  row_of.assign(3 * nc, -1);
  for (int i = 0; i < m; ++i) row_of[free[i]] = i;
  for (int c = 0; c < nc; ++c)
    for (int t = 0; t < 3; ++t) {
      const int i = row_of[t * nc + group[c]];
      if (i >= 0) Z.row(t * nc + c) = Zm.row(i) / copies[group[c]];
    }

  // The gap row (QP7): [z; y]ᵀ(A [z; y] + q) along the face is ℓᵀz + const with Stage I's multipliers y,
  // and ℓ = Bᵀℓ_p: ℓ_p = (B Bᵀ)⁻¹B ℓ, B Bᵀ diagonal (1 on N rows, k/2 on S, T rows with edges).
  auto& y_mu = y_mu_(nm);
  y_mu = x_.segment(nz + nc, nm);
  const double y_b = x_[nz + nc + nm];
  auto& wq = wq_(A_.rows());
  wq.noalias() = A_ * x_;
  wq += q_;
  auto& ell = ell_(nz);
  ell = wq.head(nz);
  if (nm > 0) {
    auto& Ay = tmp_n_(nz);
    Ay.noalias() = A_.block(nz + nc, 0, nm, nz).transpose() * y_mu;
    ell += Ay;
  }
  ell += y_b * A_.block(nz + nc + nm, 0, 1, nz).transpose();
  auto& ell_p = ell_p_(3 * nc);
  ell_p.noalias() = edges_.B * ell;
  auto& BBt = BBt_(3 * nc);
  BBt = edges_.B.rowwise().squaredNorm();
  for (int i = 0; i < 3 * nc; ++i) ell_p[i] = BBt[i] > 0 ? ell_p[i] / BBt[i] : 0.0;
  const double tolerance = lemke_.options().tolerance;
  const double delta = 0.5 * tolerance * tolerance * std::max(x_.cwiseAbs().maxCoeff(), 1e-300) *
                       std::max(q_.cwiseAbs().maxCoeff(), 1e-300);

  // (QP3) in w as least squares (QP10): ½‖τ₀ + T_τ Z w‖² + ½ε‖p₀ + Z w‖² = ½‖A_w w − b_w‖² + const,
  // rows C w + d ≥ 0.
  auto& TZ = TZ_(na, dim);
  TZ.noalias() = elimination_.T_tau() * Z;
  const double epsilon = kStageTwoRegularization * std::max(TZ.squaredNorm() / dim, 1e-300);
  const double root_epsilon = std::sqrt(epsilon);
  Eigen::MatrixXd& Aw = Aw_(na + 3 * nc, dim);
  Aw << TZ, root_epsilon * Z;
  Eigen::VectorXd& bw = bw_(na + 3 * nc);
  bw << -tau0, -root_epsilon * p0;
  auto& budget_row = budget_row_(gp_.size());
  budget_row = gp_;
  budget_row.head(nc).array() -= 1;
  std::vector<int>& facets = facets_;   // the representatives' facet rows of A_facet
  facets.clear();
  for (int f = 0; f < edges_.nf; ++f)
    if (group[edges_.friction_contact[f]] == edges_.friction_contact[f])
      for (int j = 0; j < k; ++j) facets.push_back(k * f + j);
  const int nfa = static_cast<int>(facets.size());
  // Where the budget binds, Stage II stays on phase I's set A, where (QP5) is exact (QP18). Not with copies
  // (QP9): phase I's S_A is then singular.
  const bool region = on_set && y_b > 0 && std::all_of(copies.begin(), copies.end(), [](int n) { return n == 1; });
  if (on_set && !region) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II's τ leaves the budget Stage I binds slack in phase I (copies: no QP18); Stage I kept";
    return false;
  }
  if (region) phase_one_region(cp);
  const int nC = nc + nfa + 2 + (region ? nc : 0);
  auto& C = C_(nC, dim);
  auto& d = d_(nC);
  int rows = 0;
  for (int c = 0; c < nc; ++c)
    if (group[c] == c) {
      C.row(rows) = Z.row(c);
      d[rows++] = p0[c];
    }
  for (int r : facets) {
    C.row(rows).noalias() = edges_.A_facet.row(r) * Z;
    d[rows++] = edges_.A_facet.row(r).dot(p0);
  }
  if (region)
    for (int i = 0; i < nc; ++i) {
      C.row(rows).noalias() = region_G_.row(i) * Z;
      d[rows++] = region_G_.row(i).dot(p0) + region_h_[i];
    }
  C.row(rows).noalias() = budget_row.transpose() * Z;
  d[rows++] = std::max(kappa_c_ + budget_row.dot(p0), 0.0);
  // The gap row in impulse units like the others: divided by the LCP's velocity scale ‖q‖∞.
  const double v_ref = std::max(q_.cwiseAbs().maxCoeff(), 1e-300);
  auto& ell_Z = row_(1, dim);
  ell_Z.noalias() = ell_p.transpose() * Z;
  C.row(rows) = -ell_Z / v_ref;
  d[rows++] = delta / v_ref;
  const int nrows = rows;
  // Stage I's p₀ meets its rows only to Lemke's certificate; taken as met (d ≥ 0), w = 0 is feasible,
  // which the primal method starts from.
  d.head(nrows) = d.head(nrows).cwiseMax(0.0);
  // Rows of one scale, each to unit norm (a facet of μ_∞ = 100 is otherwise 100 times a p_N row). A row
  // whose bound then exceeds kReach times the size of the impulses, ‖p₀‖₁ + (1 + μ_max)κ(p₀), cannot bind
  // on any move Stage II makes, and is left out.
  const double mu_max = nm > 0 ? edges_.A_mu.leftCols(nc).maxCoeff() : 0.0;
  const double reach =
      kReach * std::max(p0.lpNorm<1>() + (1 + mu_max) * std::max(kappa_c_ + gp_.dot(p0), 0.0), 1e-300);
  rows = 0;
  for (int i = 0; i < nrows; ++i) {
    const double norm = C.row(i).norm();
    if (!(norm > 0) || d[i] > reach * norm) continue;
    C.row(rows) = C.row(i) / norm;
    d[rows++] = d[i] / norm;
  }
  Eigen::MatrixXd& C_kept = C_kept_(rows, dim);   // C and d's first rows (conservativeResize would allocate)
  C_kept = C.topRows(rows);
  Eigen::VectorXd& d_kept = d_kept_(rows);
  d_kept = d.head(rows);
  Eigen::VectorXd& w = w_(dim);
  const InequalityLeastSquaresResult result = least_squares_.solve(Aw, bw, C_kept, d_kept, w);
  report_.stage_two_pivots = result.iterations;
  report_.stage_two_stationarity = result.stationarity;
  stats.iterations += result.iterations;
  if (!result.solved) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II: " + result.reason + "; Stage I kept";
    return false;
  }
  auto& Zw = tmp_q_(3 * nc);
  Zw.noalias() = Z * w;
  Eigen::VectorXd& p2 = p2_(3 * nc);
  p2 = p0 + Zw;
  const double bound = kStageTwoFeasibility * std::max(p0.cwiseAbs().maxCoeff(), 1e-300);
  bool outside = p2.head(nc).minCoeff() < -bound;
  if (!outside && edges_.A_facet.rows() > 0) {
    auto& facet = tmp_f_(edges_.A_facet.rows());
    facet.noalias() = edges_.A_facet * p2;
    outside = facet.minCoeff() < -bound;
  }
  if (outside) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II left the friction set; Stage I kept";
    return false;
  }
  p2.head(nc) = p2.head(nc).cwiseMax(0.0);
  // The budget is linear only on phase I's active set: check it at Stage II's τ with phase I itself.
  Eigen::VectorXd& tau2 = tau2_(na);
  elimination_.torque(p2, tau2);
  const double kappa2 = phase_one(cp, tau2, active2_);
  if (p2.head(nc).sum() > kappa2 + bound) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II's τ lowers phase I's budget below its normal impulses; Stage I kept";
    return false;
  }
  // The certified fallback of (QP18). Where Stage I's budget binds (y_b > 0) its prediction has every loaded contact at N v⁺ = −y_b (QP6's p_N
  // rows with the facets and gap rows slack), which the twin repeats only while its own budget binds:
  // y_b(κ(τ) − Σ p_N) = 0 at Stage II's τ. The budget row (QP5) is affine on phase I's set A only, and
  // Stage II's τ may cross into another set where κ(τ) exceeds Σ p_N (measured: RightInverse id_qp_noslip
  // four feet, step 12: A = {LF, RF, LH} at Stage I, all four at Stage II, κ(τ) − Σ p_N = 1.6e-2 N·s, the
  // predicted closing 5e-6 m/s not applied, 1.0e-4 rad/s missed).
  if (y_b > 0 && kappa2 > p2.head(nc).sum() + bound) {
    report_.stage_two_left_budget = true;
    if (!on_set) return false;   // the caller retries on phase I's set (QP18) and reports its outcome
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II, also on phase I's set (QP18), leaves the budget Stage I binds slack; Stage I kept";
    return false;
  }
  p_ = p2;
  report_.stage_two_accepted = true;
  return true;
}

}  // namespace impetus
