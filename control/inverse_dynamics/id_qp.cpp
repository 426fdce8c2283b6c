// ID(t_i)_QP,μ and QP,∞ (id_qp.hpp, QP1–QP7).
#include "control/inverse_dynamics/id_qp.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <cmath>
#include <Eigen/SVD>
#include <string>

namespace impetus {
namespace {

// Eigenvalues of H below this fraction of the largest span Stage I's optimal face (QP3). H = BᵀJKJᵀB is
// formed by products whose roundoff is ~1e-15 of ‖H‖ times a modest condition; physical directions of
// a quadruped or a grasp have eigenvalues above 1e-6 of the largest. 1e-9 sits between the two.
constexpr double kNullspaceTolerance = 1e-9;
// ε of (QP3), relative to ‖T_z W‖²: only breaks ties where τ does not depend on w; far below anything
// that changes τ visibly (it moves τ by ~ε relative).
constexpr double kStageTwoRegularization = 1e-10;
// Stage II's z may go negative by roundoff of Lemke's certificate (1e-6 relative by default); it is
// accepted when z ≥ −this·max(z) and the pyramid holds to the same, and then clamped.
constexpr double kStageTwoFeasibility = 1e-6;
// Phase I's active set (QP5): p^I_i above this fraction of the largest. Lemke's certificate leaves
// inactive impulses at ≤ 1e-6 relative (lemke.hpp L6) and exact zeros in practice; active support
// impulses of a robot are within a few orders of each other. 1e-9 separates the two.
constexpr double kActiveFraction = 1e-9;
// Iterations over phase I's active sets (QP5): each is one Stage I and one frictionless LCP; the set
// changes only where τ moves a contact across lift-off, so it settles in one or two.
constexpr int kBudgetIterations = 8;
// A multiplier or reduced cost counts as positive (QP7) above this fraction of the largest entry of
// the LCP's solution: the certificate leaves complementary pairs at ≤ 1e-6 of their scale.
constexpr double kMultiplierFraction = 1e-6;

}  // namespace

void IdQp::linearize_budget(const ContactProblem& cp, const std::vector<char>& active) {
  const int nc = cp.nc, nz = edges_.nz();
  const Eigen::MatrixXd& Y = elimination_.Minv_Jt();
  std::vector<int> a;
  for (int i = 0; i < nc; ++i)
    if (active[i]) a.push_back(i);
  const int na = static_cast<int>(a.size());
  kappa_c_ = 0;
  g_.setZero(nz);
  if (na == 0) return;
  // (QP5): p^I_A = −(N_A M⁻¹N_Aᵀ)⁻¹(N_A v*(τ) + φ_A/dt), κ = 1ᵀp^I_A, v*(τ) = v* + M⁻¹Pᵀ(τ_c + T_z z).
  Eigen::MatrixXd S(na, na), NMPt(na, elimination_.na());
  Eigen::VectorXd r(na);
  const Eigen::VectorXd v_c = elimination_.v_c();   // v* + M⁻¹Pᵀτ_c
  for (int i = 0; i < na; ++i) {
    const Eigen::RowVectorXd Ni = elimination_.J().row(a[i]);
    for (int j = 0; j < na; ++j) S(i, j) = Ni.dot(Y.col(a[j]));
    NMPt.row(i) = Ni * elimination_.Minv_Pt();
    r[i] = Ni.dot(v_c) + cp.phi[a[i]] / cp.dt;
  }
  const Eigen::VectorXd u = Eigen::LDLT<Eigen::MatrixXd>(0.5 * (S + S.transpose())).solve(Eigen::VectorXd::Ones(na));
  kappa_c_ = -u.dot(r);
  g_ = -(u.transpose() * NMPt * elimination_.T_tau() * edges_.B).transpose();
}

LemkeResult IdQp::stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, bool convex, Eigen::VectorXd& z) {
  const int nc = cp.nc, nz = edges_.nz(), nm = static_cast<int>(edges_.A_mu.rows());
  const int n = nz + nc + nm + 1;
  double a = nc > 0 ? H_.topLeftCorner(nc, nc).diagonal().mean() : 0;   // velocity per impulse (1/kg)
  if (!(a > 0)) a = std::max(H_.cwiseAbs().maxCoeff(), 1.0);
  A_.setZero(n, n);
  A_.topLeftCorner(nz, nz) = H_;
  A_.block(nz, 0, nc, nz) = DB_.topRows(nc);                  // N v⁺ + φ/dt ≥ 0 at v⁺(z)
  A_.block(0, nz, nz, nc) = convex ? Eigen::MatrixXd(-DB_.topRows(nc).transpose()) : Eigen::MatrixXd(-F_N_.transpose());
  if (nm > 0) {                                               // pyramid rows, scaled by a to velocity units
    A_.block(nz + nc, 0, nm, nz) = a * edges_.A_mu;
    A_.block(0, nz + nc, nz, nm) = -a * edges_.A_mu.transpose();
  }
  // The budget (QP5): a(κ_c + gᵀz − Σ p_N) ≥ 0; its gradient at fixed τ is −1 on p_N.
  A_.block(n - 1, 0, 1, nz) = a * g_.transpose();
  A_.block(n - 1, 0, 1, nc).array() -= a;
  if (convex)
    A_.block(0, n - 1, nz, 1) = -A_.block(n - 1, 0, 1, nz).transpose();
  else
    A_.block(0, n - 1, nc, 1).setConstant(a);
  q_.setZero(n);
  q_.head(nz) = c;
  if (nc > 0) q_.segment(nz, nc) = elimination_.J().topRows(nc) * elimination_.v_c() + cp.phi / cp.dt;
  q_[n - 1] = a * kappa_c_;
  x_.setZero(n);
  const LemkeResult result = lemke_.solve(A_, q_, x_);
  z = x_.head(nz);
  return result;
}

double IdQp::phase_one(const ContactProblem& cp, const Eigen::VectorXd& tau, std::vector<char>& active) {
  const int nc = cp.nc;
  active.assign(nc, 0);
  if (nc == 0) return 0;
  const Eigen::MatrixXd& Y = elimination_.Minv_Jt();
  const Eigen::MatrixXd A = elimination_.J().topRows(nc) * Y.leftCols(nc);
  Eigen::VectorXd v_star = cp.v_star;
  if (tau.size() > 0) v_star += elimination_.Minv_Pt() * tau;
  const Eigen::VectorXd q = elimination_.J().topRows(nc) * v_star + cp.phi / cp.dt;
  Eigen::VectorXd p = Eigen::VectorXd::Zero(nc);
  lemke_.solve(0.5 * (A + A.transpose()), q, p);
  const double largest = p.cwiseAbs().maxCoeff();
  for (int i = 0; i < nc; ++i) active[i] = p[i] > kActiveFraction * largest;
  return p.sum();
}

void IdQp::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const ContactProblem& cp = *problem.contact;
  solution.stats = {};
  solution.fallbacks = 0;
  report_ = {};
  if (!elimination_.build(problem)) {
    solution.stats.status = SolveStatus::Failed;
    solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
    return;
  }
  const int nc = cp.nc;
  // QP,∞: every contact at μ_∞ (id_qp.hpp).
  edges_.build(options_.unbounded_friction ? Eigen::VectorXd::Constant(nc, options_.mu_infinity) : cp.mu,
               options_.friction_edges);
  const int nz = edges_.nz();

  DB_ = elimination_.D() * edges_.B;
  H_ = edges_.B.transpose() * DB_;
  H_ = 0.5 * (H_ + H_.transpose()).eval();
  F_N_ = (elimination_.J().topRows(nc) * elimination_.Minv_Jt()) * edges_.B;
  const Eigen::VectorXd c = edges_.B.transpose() * (elimination_.J() * elimination_.v_c());

  // The first active set of phase I: that of the ID's frictionless impulses, LCP(N v_c + φ/dt, N K Nᵀ)
  // (at their τ the forward phase I has the same solution, so the linearised budget admits them).
  std::vector<char> active(nc, 0), next;
  if (nc > 0) {
    Eigen::VectorXd pn = Eigen::VectorXd::Zero(nc);
    const Eigen::VectorXd qn = elimination_.J().topRows(nc) * elimination_.v_c() + cp.phi / cp.dt;
    const LemkeResult r = lemke_.solve(elimination_.D().topLeftCorner(nc, nc), qn, pn);
    solution.stats.iterations += r.pivots;
    const double largest = pn.cwiseAbs().maxCoeff();
    for (int i = 0; i < nc; ++i) active[i] = pn[i] > kActiveFraction * largest;
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(nz);
  LemkeResult result;
  bool converged = nc == 0;
  for (int k = 0; k < kBudgetIterations && nc > 0; ++k) {
    linearize_budget(cp, active);
    result = stage_one(cp, c, false, z);
    if (!result.solved()) {
      result = stage_one(cp, c, true, z);
      }
    report_.stage_one_pivots += result.pivots;
    report_.budget_iterations = k + 1;
    if (!result.solved()) break;
    p_ = edges_.B * z;
    elimination_.torque(p_, solution.tau);
    report_.kappa = phase_one(cp, solution.tau, next);
    if (next == active) {
      converged = true;
      break;
    }
    active = next;
  }
  set_lemke_statistics(result, solution.stats, solution.fallbacks);
  if (result.solved() && !converged) {
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message =
        "phase I's active set did not settle in " + std::to_string(kBudgetIterations) + " iterations";
    ++solution.fallbacks;
  }

  if (options_.stage_two && result.solved() && nz > 0 && !problem.actuated.empty())
    if (!stage_two(cp, c, z, solution.stats) && report_.stage_two_run) ++solution.fallbacks;

  p_ = edges_.B * z;
  split_impulses(p_, nc, solution);
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
  report_.tau_norm_stage_two = solution.tau.norm();
}

bool IdQp::stage_two(const ContactProblem& cp, const Eigen::VectorXd& c, Eigen::VectorXd& z, SolverStatistics& stats) {
  const int nz = static_cast<int>(z.size()), nc = edges_.nc, nm = static_cast<int>(edges_.A_mu.rows());
  const Eigen::MatrixXd T_z = elimination_.T_tau() * edges_.B;
  const Eigen::VectorXd tau0 = elimination_.tau_c() + T_z * z;
  report_.tau_norm_stage_one = tau0.norm();

  // W: the directions that keep v⁺ and the objective, {x : H x = 0, cᵀx = 0}.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(H_);
  const double largest = std::max(eigen.eigenvalues().cwiseAbs().maxCoeff(), 0.0);
  int dim = 0;
  while (dim < nz && eigen.eigenvalues()[dim] <= kNullspaceTolerance * largest) ++dim;   // ascending order
  if (dim == 0) return false;
  Eigen::MatrixXd W = eigen.eigenvectors().leftCols(dim);
  // Rows that must not move along W (QP7): cᵀ; and, when the budget or a non-penetration row carries
  // a multiplier (the equilibrium is then not a convex program's optimum), every inequality that is
  // binding with a positive multiplier stays binding and every z_i with a positive reduced cost stays 0.
  const Eigen::VectorXd y_N = x_.segment(nz, nc), y_mu = x_.segment(nz + nc, nm);
  const double y_b = x_[nz + nc + nm];
  Eigen::VectorXd budget_row = g_;
  budget_row.head(nc).array() -= 1;
  Eigen::MatrixXd E = c.transpose();
  const Eigen::VectorXd wq = A_ * x_ + q_;   // the LCP's w: reduced costs, row slacks
  const double y_ref = std::max(x_.cwiseAbs().maxCoeff(), 1e-300);
  if (y_b > kMultiplierFraction * y_ref || y_N.maxCoeff() > kMultiplierFraction * y_ref) {
    const double w_ref = std::max(wq.head(nz).cwiseAbs().maxCoeff(), 1e-300);
    std::vector<Eigen::RowVectorXd> rows;
    for (int i = 0; i < nz; ++i)
      if (wq[i] > kMultiplierFraction * w_ref) rows.push_back(Eigen::RowVectorXd::Unit(nz, i));
    for (int j = 0; j < nm; ++j)
      if (y_mu[j] > kMultiplierFraction * y_ref) rows.push_back(edges_.A_mu.row(j));
    if (y_b > kMultiplierFraction * y_ref) rows.push_back(budget_row.transpose());
    E.conservativeResize(1 + static_cast<int>(rows.size()), nz);
    for (std::size_t r = 0; r < rows.size(); ++r) E.row(1 + static_cast<int>(r)) = rows[r];
  }
  {
    const Eigen::MatrixXd EW = E * W;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(EW, Eigen::ComputeFullV);
    const double top = svd.singularValues().size() > 0 ? svd.singularValues()[0] : 0;
    int rank = 0;
    for (int i = 0; i < svd.singularValues().size(); ++i)
      if (svd.singularValues()[i] > kNullspaceTolerance * std::max(top, 1e-300) * 1e3) ++rank;
    if (top <= 0) rank = 0;
    W = (W * svd.matrixV().rightCols(dim - rank)).eval();
    dim -= rank;
  }
  report_.nullspace_dimension = dim;
  if (dim == 0) return false;
  report_.stage_two_run = true;

  // (QP3) as a monotone LCP in [w⁺; w⁻; y].
  const Eigen::MatrixXd TW = T_z * W;
  const double scale = std::max(TW.squaredNorm() / dim, 1e-300);
  Eigen::MatrixXd Q2 = TW.transpose() * TW;
  Q2.diagonal().array() += kStageTwoRegularization * scale;
  const Eigen::VectorXd r = TW.transpose() * tau0;
  // Feasibility along the face: z ≥ 0, the pyramid, and the linearised budget (QP5).
  const int nC = nz + nm + 1;
  Eigen::MatrixXd C(nC, dim);
  Eigen::VectorXd d(nC);
  C.topRows(nz) = W;
  d.head(nz) = z;
  if (nm > 0) {
    C.middleRows(nz, nm) = edges_.A_mu * W;
    d.segment(nz, nm) = edges_.A_mu * z;
  }
  C.bottomRows(1) = budget_row.transpose() * W;
  d[nC - 1] = std::max(kappa_c_ + budget_row.dot(z), 0.0);
  // Rows in impulse units, objective in impulse² units: scale the constraint block to the objective's.
  const double s = std::sqrt(scale);
  const int n = 2 * dim + nC;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  A.topLeftCorner(dim, dim) = Q2;
  A.block(0, dim, dim, dim) = -Q2;
  A.block(dim, 0, dim, dim) = -Q2;
  A.block(dim, dim, dim, dim) = Q2;
  A.block(0, 2 * dim, dim, nC) = -s * C.transpose();
  A.block(dim, 2 * dim, dim, nC) = s * C.transpose();
  A.block(2 * dim, 0, nC, dim) = s * C;
  A.block(2 * dim, dim, nC, dim) = -s * C;
  Eigen::VectorXd q(n);
  q << r, -r, s * d;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  const LemkeResult result = lemke_.solve(A, q, x);
  report_.stage_two_pivots = result.pivots;
  stats.iterations += result.pivots;
  if (!result.solved()) {
    stats.status = SolveStatus::Fallback;
    stats.message = std::string("Stage II: Lemke ") + to_string(result.status) + "; Stage I kept";
    return false;
  }
  Eigen::VectorXd z2 = z + W * (x.head(dim) - x.segment(dim, dim));
  const double bound = kStageTwoFeasibility * std::max(z.cwiseAbs().maxCoeff(), 1e-300);
  if (z2.minCoeff() < -bound || (nm > 0 && (edges_.A_mu * z2).minCoeff() < -bound)) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II left the friction set; Stage I kept";
    return false;
  }
  z2 = z2.cwiseMax(0.0);
  // The budget is linear only on phase I's active set: check it at Stage II's τ with phase I itself.
  Eigen::VectorXd tau2 = elimination_.tau_c() + T_z * z2;
  std::vector<char> active;
  const double kappa2 = phase_one(cp, tau2, active);
  if (z2.head(nc).sum() > kappa2 + bound) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II's τ lowers phase I's budget below its normal impulses; Stage I kept";
    return false;
  }
  z = z2;
  report_.stage_two_accepted = true;
  return true;
}

}  // namespace impetus
