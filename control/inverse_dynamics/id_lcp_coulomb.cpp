// ID(t_i)_LCP,μ (id_lcp_coulomb.hpp, LC1–LC3).
#include "control/inverse_dynamics/id_lcp_coulomb.hpp"

namespace impetus {

void IdLcpCoulomb::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const ContactProblem& cp = *problem.contact;
  solution.stats = {};
  solution.fallbacks = 0;
  if (!elimination_.build(problem)) {
    solution.stats.status = SolveStatus::Failed;
    solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
    return;
  }
  const int nc = cp.nc;
  edges_.build(cp.mu, options_.friction_edges);
  const int nz = edges_.nz(), nf = edges_.nf, k = edges_.k, n = nz + nf;

  // (LC3): the N/F blocks are Bᵀ D B with D = J K Jᵀ, q = Bᵀ J v_c + [φ/dt; 0].
  DB_parked_.fit(DB_, 3 * nc, nz);
  BtDB_parked_.fit(BtDB_, nz, nz);
  A_parked_.fit(A_, n, n);
  Jv_c_parked_.fit(Jv_c_, 3 * nc, 1);
  BtJv_c_parked_.fit(BtJv_c_, nz, 1);
  q_parked_.fit(q_, n, 1);
  z_parked_.fit(z_, n, 1);
  p_parked_.fit(p_, 3 * nc, 1);
  DB_.noalias() = elimination_.D() * edges_.B;
  BtDB_.noalias() = edges_.B.transpose() * DB_;
  A_.setZero();
  A_.topLeftCorner(nz, nz) = BtDB_;
  Jv_c_.noalias() = elimination_.J() * elimination_.v_c();
  BtJv_c_.noalias() = edges_.B.transpose() * Jv_c_;
  q_.setZero();
  q_.head(nz) = BtJv_c_;
  q_.head(nc) += cp.phi / cp.dt;
  // Balance (ST7): a = mean diag(N K Nᵀ); with a fully actuated robot on static ground it is 0, and the
  // scale of the whole matrix takes its place. Without contacts (n = 0) nothing is balanced.
  double a = nc > 0 ? A_.topLeftCorner(nc, nc).diagonal().mean() : 0;
  if (!(a > 0)) a = n > 0 ? std::max(A_.cwiseAbs().maxCoeff(), 1.0) : 1.0;
  for (int f = 0; f < nf; ++f) {
    const int c = edges_.friction_contact[f];
    A_.block(nc + k * f, nz + f, k, 1).setConstant(a);
    A_(nz + f, c) = a * cp.mu[c];
    A_.block(nz + f, nc + k * f, 1, k).setConstant(-a);
  }
  z_.setZero();
  const LemkeResult result = n > 0 ? lemke_.solve(A_, q_, z_) : LemkeResult{};
  set_lemke_statistics(result, solution.stats, solution.fallbacks);

  p_.noalias() = edges_.B * z_.head(nz);
  split_impulses(p_, nc, solution);
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
}

}  // namespace impetus
