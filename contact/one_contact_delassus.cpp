// W = G M⁻¹ Gᵀ of one contact (one_contact_delassus.hpp).
#include "contact/one_contact_delassus.hpp"
#include "contact/problem_into.hpp"

#include <cmath>

namespace impetus {
namespace {

void dense_row(const SparseRows& X, VectorView& out, Eigen::VectorXd& storage) {
  grow(out, storage, X.cols());
  out.setZero();
  for (SparseRows::InnerIterator it(X, 0); it; ++it) out[it.col()] = it.value();
}

}  // namespace

bool OneContactDelassus::compute(const ContactProblem& P) {
  dense_row(P.N, row_N, row_N_storage);
  dense_row(P.S, row_S, row_S_storage);
  dense_row(P.T, row_T, row_T_storage);
  // M⁻¹Gᵀ in one solve of three columns: the block's factor read once instead of three times (each column
  // the bits of its own solve, problem_into.hpp).
  grow(Minv_G, Minv_G_storage, P.nv, 3);
  Minv_G.col(0) = row_N;
  Minv_G.col(1) = row_S;
  Minv_G.col(2) = row_T;
  solve_M_columns_in_place(P, Minv_G);
  grow(Minv_N, Minv_N_storage, P.nv);
  grow(Minv_S, Minv_S_storage, P.nv);
  grow(Minv_T, Minv_T_storage, P.nv);
  Minv_N = Minv_G.col(0);
  Minv_S = Minv_G.col(1);
  Minv_T = Minv_G.col(2);
  // W's lower triangle row by row, W_ij = G_i·(M⁻¹G_jᵀ) for j ≤ i.
  b[0] = row_N.dot(P.v_star);
  W(0, 0) = row_N.dot(Minv_N);
  b[1] = row_S.dot(P.v_star);
  W(1, 0) = row_S.dot(Minv_N);
  W(1, 1) = row_S.dot(Minv_S);
  b[2] = row_T.dot(P.v_star);
  W(2, 0) = row_T.dot(Minv_N);
  W(2, 1) = row_T.dot(Minv_S);
  W(2, 2) = row_T.dot(Minv_T);
  W(0, 1) = W(1, 0);
  W(0, 2) = W(2, 0);
  W(1, 2) = W(2, 1);
  return W(0, 0) > 0 && W.allFinite() && b.allFinite();
}

void OneContactDelassus::velocity(const ContactProblem& P, const Eigen::Vector3d& p, Eigen::VectorXd& v_plus) const {
  v_plus = P.v_star + p[0] * Minv_N + p[1] * Minv_S + p[2] * Minv_T;
}

}  // namespace impetus
