// W = G M⁻¹ Gᵀ of one contact (one_contact_delassus.hpp).
#include "contact/one_contact_delassus.hpp"

#include <cmath>

namespace impetus {
namespace {

void dense_row(const SparseRows& X, Eigen::VectorXd& out) {
  out.setZero();
  for (SparseRows::InnerIterator it(X, 0); it; ++it) out[it.col()] = it.value();
}

}  // namespace

bool OneContactDelassus::compute(const ContactProblem& P) {
  row.resize(P.nv);
  // W's lower triangle row by row, W_ij = G_i·(M⁻¹G_jᵀ) for j ≤ i.
  dense_row(P.N, row);
  P.solve_M(row, Minv_N);
  b[0] = row.dot(P.v_star);
  W(0, 0) = row.dot(Minv_N);
  dense_row(P.S, row);
  P.solve_M(row, Minv_S);
  b[1] = row.dot(P.v_star);
  W(1, 0) = row.dot(Minv_N);
  W(1, 1) = row.dot(Minv_S);
  dense_row(P.T, row);
  P.solve_M(row, Minv_T);
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
