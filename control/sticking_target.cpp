// The target made consistent with sticking contacts (sticking_target.hpp).
#include "control/sticking_target.hpp"

namespace impetus {
namespace {

// Singular values of J below this fraction of the largest count as zero: rows that repeat others to
// rounding (two contact points of one foot, a contact listed twice) are counted once. J's entries are unit
// directions and lever arms of a few dm, so its independent rows have singular values ≥ ~1e-2.
constexpr double kRankTolerance = 1e-10;

/// ws.c = Qᵀ ws.c for the first `rank` reflectors H_k = I − τ_k v_k v_kᵀ of the COD's QR, H_0 first: what
/// c.applyOnTheLeft(cod.householderQ().setLength(rank).adjoint()) computes, statement for statement
/// (MatrixBase::applyHouseholderOnTheLeft on the same block types, so the same kernels and bits), but for the
/// last update's lazy product (τ v_k)(v_kᵀc), whose left factor Eigen evaluates into a temporary vector per
/// reflector: here τ v_k is evaluated into ws.tau_essential, and the product takes it as it took the temporary.
void apply_qt(const StickingTargetWorkspace::Cod& cod, Eigen::Index rank, StickingTargetWorkspace::Cods& ws) {
  const Eigen::Index n = ws.c.size();
  ws.tau_essential.resize(n);
  using Dst = Eigen::Block<Eigen::VectorXd>;
  using Essential = Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1>;
  for (Eigen::Index k = 0; k < rank; ++k) {
    Dst dst = ws.c.bottomRightCorner(n - k, 1);
    const double tau = cod.q_coefficients().coeff(k);
    if (dst.rows() == 1) {
      dst *= 1.0 - tau;
    } else if (tau != 0.0) {
      const Essential essential(cod.matrixQTZ(), k + 1, k, n - k - 1, 1);
      Eigen::Map<Eigen::internal::plain_row_type<Dst::PlainObject>::type> tmp(ws.householder.data(), dst.cols());
      Eigen::Block<Dst, Eigen::Dynamic, Eigen::Dynamic> bottom(dst, 1, 0, dst.rows() - 1, dst.cols());
      tmp.noalias() = essential.adjoint() * bottom;
      tmp += dst.row(0);
      dst.row(0) -= tau * tmp;
      auto tau_v = ws.tau_essential.head(n - k - 1);
      tau_v = tau * essential;
      bottom.noalias() -= tau_v * tmp;
    }
  }
}

/// y = argmin ‖A y − b‖ of least norm from ws.cod = COD(A): Eigen's CompleteOrthogonalDecomposition::solve
/// step for step (so its bits) in the workspace's vectors, since solve() allocates its temporaries.
void least_squares(const Eigen::VectorXd& b, StickingTargetWorkspace::Cods& ws) {
  const StickingTargetWorkspace::Cod& cod = ws.cod;
  const Eigen::Index rank = cod.rank(), cols = cod.cols();
  Eigen::VectorXd& x = ws.unpermuted;
  x.resize(cols);
  if (rank == 0) {
    x.setZero();
  } else {
    ws.c = b;                                                       // c = Qᵀb
    ws.householder.resize(cols);
    apply_qt(cod, rank, ws);
    x.head(rank) = cod.matrixT().topLeftCorner(rank, rank).triangularView<Eigen::Upper>().solve(ws.c.head(rank));
    if (rank < cols) {                                              // x = Zᵀ [x_rank; 0]
      x.tail(cols - rank).setZero();
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
  workspace.N.setZero(c.nc, c.nv);
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
  workspace.NZ.noalias() = workspace.N * ws.svd.matrixV().rightCols(nz);
  workspace.gap = c.phi.cwiseMax(0.0) / c.dt;
  if (!workspace.inequalities.solve(ls.PZ, qd_des, workspace.NZ, workspace.gap, ls.y).solved) {
    make_sticking_consistent(problem, qd_des, workspace);
    return;
  }
  qd_des = ls.PZ * ls.y;
}

}  // namespace impetus
