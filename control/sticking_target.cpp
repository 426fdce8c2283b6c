// The target made consistent with sticking contacts (sticking_target.hpp).
#include "control/sticking_target.hpp"

#include "control/inverse_dynamics/householder_solve.hpp"

namespace impetus {
namespace {

// Singular values of J below this fraction of the largest count as zero: rows that repeat others to
// rounding (two contact points of one foot, a contact listed twice) are counted once. J's entries are unit
// directions and lever arms of a few dm, so its independent rows have singular values ≥ ~1e-2.
constexpr double kRankTolerance = 1e-10;

/// y = argmin ‖A y − b‖ of least norm from ws.cod = COD(A): Eigen's CompleteOrthogonalDecomposition::solve
/// step for step (so its bits) in the workspace's vectors, since solve() allocates its temporaries.
void least_squares(const Eigen::VectorXd& b, StickingTargetWorkspace::Cods& ws) {
  ws.c = b;
  cod_least_norm_solve(ws.cod, ws.c, ws.tau_essential, ws.unpermuted, ws.householder, ws.y);
}

}  // namespace

void make_sticking_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& workspace) {
  if (!problem.contact || problem.contact->nc == 0) return;
  const ContactProblem& c = *problem.contact;
  StickingTargetWorkspace::Svd& ws = workspace.svd(3 * c.nc, c.nv);
  ws.J.setZero(3 * c.nc, c.nv);   // [N; S; T] dense
  const SparseRows* blocks[3] = {&c.N, &c.S, &c.T};
  for (int b = 0; b < 3; ++b)
    for (int r = 0; r < c.nc; ++r)
      for (SparseRows::InnerIterator it(*blocks[b], r); it; ++it) ws.J(b * c.nc + r, it.col()) = it.value();
  ws.svd.compute(ws.J, Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = ws.svd.singularValues();
  int rank = 0;
  while (rank < sigma.size() && sigma[rank] > kRankTolerance * sigma[0]) ++rank;
  if (rank == c.nv) {   // J v = 0 only at v = 0 (a robot held at every coordinate, e.g. fallen on many contacts)
    qd_des.setZero();
    return;
  }
  // Z = the last nv − rank columns of V; P Z its rows at the driven coordinates.
  const int nz = c.nv - rank;
  StickingTargetWorkspace::Cods& ls = workspace.cod(qd_des.size(), nz);
  ls.PZ.resize(qd_des.size(), nz);
  for (int a = 0; a < qd_des.size(); ++a) ls.PZ.row(a) = ws.svd.matrixV().row(problem.actuated[a]).tail(nz);
  ls.cod.compute(ls.PZ);
  least_squares(qd_des, ls);
  qd_des.noalias() = ls.PZ * ls.y;
}

void make_contacts_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& workspace) {
  if (!problem.contact || problem.contact->nc == 0) return;
  const ContactProblem& c = *problem.contact;
  StickingTargetWorkspace::Svd& ws = workspace.svd(2 * c.nc, c.nv);
  ws.J.setZero(2 * c.nc, c.nv);   // [S; T] of the touching contacts, dense
  workspace.N_sizes.fit(workspace.N, c.nc, c.nv);
  workspace.N.setZero();
  const SparseRows* blocks[2] = {&c.S, &c.T};
  for (int r = 0; r < c.nc; ++r) {
    for (SparseRows::InnerIterator it(c.N, r); it; ++it) workspace.N(r, it.col()) = it.value();
    if (!(c.phi[r] <= c.touch_margin)) continue;   // a speculative contact: its gap row alone
    for (int b = 0; b < 2; ++b)
      for (SparseRows::InnerIterator it(*blocks[b], r); it; ++it) ws.J(b * c.nc + r, it.col()) = it.value();
  }
  ws.svd.compute(ws.J, Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = ws.svd.singularValues();
  int rank = 0;
  while (rank < sigma.size() && sigma[rank] > kRankTolerance * sigma[0]) ++rank;
  const int nz = c.nv - rank;
  if (nz == 0) {
    qd_des.setZero();
    return;
  }
  StickingTargetWorkspace::Cods& ls = workspace.cod(qd_des.size(), nz);
  ls.PZ.resize(qd_des.size(), nz);
  for (int a = 0; a < qd_des.size(); ++a) ls.PZ.row(a) = ws.svd.matrixV().row(problem.actuated[a]).tail(nz);
  workspace.NZ_sizes.fit(workspace.NZ, c.nc, nz);
  workspace.NZ.noalias() = workspace.N * ws.svd.matrixV().rightCols(nz);
  workspace.gap_sizes.fit(workspace.gap, c.nc, 1);
  workspace.gap = c.phi.cwiseMax(0.0) / c.dt;
  if (!workspace.inequalities.solve(ls.PZ, qd_des, workspace.NZ, workspace.gap, ls.y).solved) {
    make_sticking_consistent(problem, qd_des, workspace);
    return;
  }
  qd_des.noalias() = ls.PZ * ls.y;
}

}  // namespace impetus
