// W = G M⁻¹ Gᵀ of one contact (one_contact_delassus.hpp).
#include "contact/one_contact_delassus.hpp"

#include <cmath>

#include "contact/small_llt_solve.hpp"

namespace impetus {
namespace {

void dense_row(const SparseRows& X, Eigen::VectorXd& out) {
  out.setZero();
  for (SparseRows::InnerIterator it(X, 0); it; ++it) out[it.col()] = it.value();
}

/// Every coordinate in a system whose factor small_llt_solve_in_place takes (contact/small_llt_solve.hpp).
bool small_factors_cover(const ContactProblem& P) {
  int covered = 0;
  for (const SystemBlock& s : P.systems) {
    if (s.size > 0 && (s.M_llt == nullptr || s.size > kSmallLltSize)) return false;
    covered += s.size;
  }
  return covered == P.nv;
}

}  // namespace

bool OneContactDelassus::compute(const ContactProblem& P) {
  row.resize(P.nv);
  // M⁻¹Gᵀ: one three-column solve per system where the factors are small (each column the bits of solve_M, which
  // does the same operations in the same order, with a third of its per-call cost), else solve_M row by row.
  const bool block_solve = small_factors_cover(P);
  if (block_solve) {
    Minv_G.setZero(P.nv, 3);
    const SparseRows* G[3] = {&P.N, &P.S, &P.T};
    for (int k = 0; k < 3; ++k)
      for (SparseRows::InnerIterator it(*G[k], 0); it; ++it) Minv_G(it.col(), k) = it.value();
    for (const SystemBlock& s : P.systems)
      if (s.size > 0) small_llt_solve_in_place(*s.M_llt, Minv_G.middleRows(s.offset, s.size));
    Minv_N = Minv_G.col(0);
    Minv_S = Minv_G.col(1);
    Minv_T = Minv_G.col(2);
  }
  // W's lower triangle row by row, W_ij = G_i·(M⁻¹G_jᵀ) for j ≤ i.
  dense_row(P.N, row);
  if (!block_solve) P.solve_M(row, Minv_N);
  b[0] = row.dot(P.v_star);
  W(0, 0) = row.dot(Minv_N);
  dense_row(P.S, row);
  if (!block_solve) P.solve_M(row, Minv_S);
  b[1] = row.dot(P.v_star);
  W(1, 0) = row.dot(Minv_N);
  W(1, 1) = row.dot(Minv_S);
  dense_row(P.T, row);
  if (!block_solve) P.solve_M(row, Minv_T);
  b[2] = row.dot(P.v_star);
  W(2, 0) = row.dot(Minv_N);
  W(2, 1) = row.dot(Minv_S);
  W(2, 2) = row.dot(Minv_T);
  W(0, 1) = W(1, 0);
  W(0, 2) = W(2, 0);
  W(1, 2) = W(2, 1);
  return W(0, 0) > 0 && W.allFinite() && b.allFinite();
}

void OneContactDelassus::velocity(const ContactProblem& P, const Eigen::Vector3d& p, Eigen::VectorXd& v_plus) const {
  v_plus = P.v_star + p[0] * Minv_N + p[1] * Minv_S + p[2] * Minv_T;
}

}  // namespace impetus
