// The target made consistent with sticking contacts (sticking_target.hpp).
#include "control/sticking_target.hpp"

namespace impetus {
namespace {

// Singular values of J below this fraction of the largest count as zero: rows that repeat others to
// rounding (two contact points of one foot, a contact listed twice) are counted once. J's entries are unit
// directions and lever arms of a few dm, so its independent rows have singular values ≥ ~1e-2.
constexpr double kRankTolerance = 1e-10;

/// y = argmin ‖A y − b‖ of least norm from ws.cod = COD(A): Eigen's CompleteOrthogonalDecomposition::solve
/// step for step (so its bits) in the workspace's vectors, since solve() allocates its temporaries.
void least_squares(const Eigen::VectorXd& b, StickingTargetWorkspace& ws) {
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod = ws.cod;
  const Eigen::Index rank = cod.rank(), cols = cod.cols();
  Eigen::VectorXd& x = ws.unpermuted;
  x.resize(cols);
  if (rank == 0) {
    x.setZero();
  } else {
    ws.c = b;                                                       // c = Qᵀb
    ws.c.applyOnTheLeft(cod.householderQ().setLength(rank).adjoint());
    x.head(rank) = cod.matrixT().topLeftCorner(rank, rank).triangularView<Eigen::Upper>().solve(ws.c.head(rank));
    if (rank < cols) {                                              // x = Zᵀ [x_rank; 0]
      x.tail(cols - rank).setZero();
      ws.householder.resize(cols);
      for (Eigen::Index k = 0; k < rank; ++k) {
        if (k != rank - 1) x.row(k).swap(x.row(rank - 1));
        x.segment(rank - 1, cols - rank + 1)
            .applyHouseholderOnTheLeft(cod.matrixQTZ().row(k).tail(cols - rank).adjoint(), cod.zCoeffs()(k),
                                       ws.householder.data());
        if (k != rank - 1) x.row(k).swap(x.row(rank - 1));
      }
    }
  }
  ws.y = cod.colsPermutation() * x;   // out of place: in place, the permutation allocates a mask
}

}  // namespace

void make_sticking_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& ws) {
  if (!problem.contact || problem.contact->nc == 0) return;
  const ContactProblem& c = *problem.contact;
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
  ws.PZ.resize(qd_des.size(), nz);
  for (int a = 0; a < qd_des.size(); ++a) ws.PZ.row(a) = ws.svd.matrixV().row(problem.actuated[a]).tail(nz);
  ws.cod.compute(ws.PZ);
  least_squares(qd_des, ws);
  qd_des.noalias() = ws.PZ * ws.y;
}

void make_contacts_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des,
                              StickingTargetWorkspace& ws) {
  if (!problem.contact || problem.contact->nc == 0) return;
  const ContactProblem& c = *problem.contact;
  ws.J.setZero(2 * c.nc, c.nv);   // [S; T] of the touching contacts, dense
  ws.N.setZero(c.nc, c.nv);
  const SparseRows* blocks[2] = {&c.S, &c.T};
  for (int r = 0; r < c.nc; ++r) {
    for (SparseRows::InnerIterator it(c.N, r); it; ++it) ws.N(r, it.col()) = it.value();
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
  ws.PZ.resize(qd_des.size(), nz);
  for (int a = 0; a < qd_des.size(); ++a) ws.PZ.row(a) = ws.svd.matrixV().row(problem.actuated[a]).tail(nz);
  ws.NZ.noalias() = ws.N * ws.svd.matrixV().rightCols(nz);
  ws.gap = c.phi.cwiseMax(0.0) / c.dt;
  if (!ws.inequalities.solve(ws.PZ, qd_des, ws.NZ, ws.gap, ws.y).solved) {
    make_sticking_consistent(problem, qd_des, ws);
    return;
  }
  qd_des = ws.PZ * ws.y;
}

}  // namespace impetus
