// ID(t_i)_QP,μ and QP,∞ (id_qp.hpp, QP1–QP3).
#include "control/inverse_dynamics/id_qp.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <cmath>
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
// (QP4): the fixed point of κ is met when two iterates agree to this (relative). κ is a sum of LCP
// solutions, which repeat to roundoff (~1e-14) once their active sets settle; 1e-8 decides without
// waiting on the last digits and is far below the 1 % the predictions are judged by.
constexpr double kBudgetTolerance = 1e-8;
// Iterations of (QP4): each is one Stage I and one frictionless LCP. κ moves only by the coupling of
// friction and normal impulses through the dynamics, so it settles in 2–3 on the tests' robots.
constexpr int kBudgetIterations = 8;

}  // namespace

LemkeResult IdQp::stage_one(const ContactProblem& cp, const Eigen::VectorXd& c, double kappa, Eigen::VectorXd& z) {
  const int nc = cp.nc, nz = edges_.nz(), nm = static_cast<int>(edges_.A_mu.rows());
  const int nb = std::isfinite(kappa) ? 1 : 0, n = nz + nc + nm + nb;
  double a = nc > 0 ? H_.topLeftCorner(nc, nc).diagonal().mean() : 0;   // velocity per impulse (1/kg)
  if (!(a > 0)) a = 1;
  A_.setZero(n, n);
  A_.topLeftCorner(nz, nz) = H_;
  A_.block(nz, 0, nc, nz) = DB_.topRows(nc);                  // N v⁺ rows
  A_.block(0, nz, nz, nc) = -DB_.topRows(nc).transpose();
  if (nm > 0) {                                               // pyramid rows, scaled by a to velocity units
    A_.block(nz + nc, 0, nm, nz) = a * edges_.A_mu;
    A_.block(0, nz + nc, nz, nm) = -a * edges_.A_mu.transpose();
  }
  q_.setZero(n);
  q_.head(nz) = c;
  if (nc > 0) q_.segment(nz, nc) = elimination_.J().topRows(nc) * elimination_.v_c() + cp.phi / cp.dt;
  if (nb > 0) {                                               // the budget (QP4): a(κ − Σ p_N) ≥ 0
    A_.block(n - 1, 0, 1, nc).setConstant(-a);
    A_.block(0, n - 1, nc, 1).setConstant(a);
    q_[n - 1] = a * kappa;
  }
  x_.setZero(n);
  const LemkeResult result = n > 0 ? lemke_.solve(A_, q_, x_) : LemkeResult{};
  z = x_.head(nz);
  return result;
}

double IdQp::phase_one_budget(const ContactProblem& cp, const Eigen::VectorXd& tau) {
  const int nc = cp.nc;
  if (nc == 0) return 0;
  const Eigen::MatrixXd& Y = elimination_.Minv_Jt();
  const Eigen::MatrixXd A = elimination_.J().topRows(nc) * Y.leftCols(nc);
  Eigen::VectorXd v_star = cp.v_star;
  if (tau.size() > 0) v_star += elimination_.Minv_Pt() * tau;
  const Eigen::VectorXd q = elimination_.J().topRows(nc) * v_star + cp.phi / cp.dt;
  Eigen::VectorXd p = Eigen::VectorXd::Zero(nc);
  lemke_.solve(0.5 * (A + A.transpose()), q, p);
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
  const Eigen::VectorXd c = edges_.B.transpose() * (elimination_.J() * elimination_.v_c());

  // κ₀: the ID's frictionless normal impulses, LCP(N v_c + φ/dt, N K Nᵀ).
  double kappa = 0;
  if (nc > 0) {
    Eigen::VectorXd pn = Eigen::VectorXd::Zero(nc);
    const Eigen::VectorXd qn = elimination_.J().topRows(nc) * elimination_.v_c() + cp.phi / cp.dt;
    const LemkeResult r = lemke_.solve(elimination_.D().topLeftCorner(nc, nc), qn, pn);
    solution.stats.iterations += r.pivots;
    kappa = pn.sum();
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(nz);
  LemkeResult result;
  bool converged = nc == 0;
  for (int k = 0; k < kBudgetIterations && nc > 0; ++k) {
    result = stage_one(cp, c, kappa, z);
    report_.stage_one_pivots += result.pivots;
    report_.budget_iterations = k + 1;
    if (!result.solved()) break;
    p_ = edges_.B * z;
    elimination_.torque(p_, solution.tau);
    const double next = phase_one_budget(cp, solution.tau);
    const bool done = std::abs(next - kappa) <= kBudgetTolerance * std::max(next, kappa);
    kappa = next;
    if (done) {
      converged = true;
      break;
    }
  }
  report_.kappa = kappa;
  set_lemke_statistics(result, solution.stats, solution.fallbacks);
  if (result.solved() && !converged) {
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = "the budget κ did not settle in " + std::to_string(kBudgetIterations) + " iterations";
    ++solution.fallbacks;
  }

  if (options_.stage_two && result.solved() && nz > 0 && !problem.actuated.empty())
    if (!stage_two(c, kappa, z, solution.stats) && report_.stage_two_run) ++solution.fallbacks;

  p_ = edges_.B * z;
  split_impulses(p_, nc, solution);
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
  report_.tau_norm_stage_two = solution.tau.norm();
}

bool IdQp::stage_two(const Eigen::VectorXd& c, double kappa, Eigen::VectorXd& z, SolverStatistics& stats) {
  const int nz = static_cast<int>(z.size());
  Eigen::VectorXd tau0;
  const Eigen::MatrixXd T_z = elimination_.T_tau() * edges_.B;
  tau0 = elimination_.tau_c() + T_z * z;
  report_.tau_norm_stage_one = tau0.norm();

  // W: the optimal face's directions, {x : H x = 0, cᵀx = 0}.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(H_);
  const double largest = std::max(eigen.eigenvalues().cwiseAbs().maxCoeff(), 0.0);
  int dim = 0;
  while (dim < nz && eigen.eigenvalues()[dim] <= kNullspaceTolerance * largest) ++dim;   // ascending order
  if (dim == 0) return false;
  Eigen::MatrixXd W = eigen.eigenvectors().leftCols(dim);
  const Eigen::VectorXd u = W.transpose() * c;
  if (u.norm() > 0) {
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(u);
    const Eigen::MatrixXd Q = qr.householderQ();
    W = (W * Q.rightCols(dim - 1)).eval();
    --dim;
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
  // Feasibility along the face: z ≥ 0, the pyramid, and the budget (QP4).
  const int nc = edges_.nc, nm = static_cast<int>(edges_.A_mu.rows()), nC = nz + nm + 1;
  Eigen::MatrixXd C(nC, dim);
  Eigen::VectorXd d(nC);
  C.topRows(nz) = W;
  d.head(nz) = z;
  if (nm > 0) {
    C.middleRows(nz, nm) = edges_.A_mu * W;
    d.segment(nz, nm) = edges_.A_mu * z;
  }
  C.bottomRows(1) = -W.topRows(nc).colwise().sum();
  d[nC - 1] = kappa - z.head(nc).sum();
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
  if (z2.minCoeff() < -bound || (nm > 0 && (edges_.A_mu * z2).minCoeff() < -bound) ||
      z2.head(nc).sum() > kappa + bound) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Stage II left the friction set; Stage I kept";
    return false;
  }
  z = z2.cwiseMax(0.0);
  report_.stage_two_accepted = true;
  return true;
}

}  // namespace impetus
