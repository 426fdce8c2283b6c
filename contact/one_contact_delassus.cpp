// W = G M⁻¹ Gᵀ of one contact (one_contact_delassus.hpp).
#include "contact/one_contact_delassus.hpp"
#include "contact/problem_into.hpp"

#include <cmath>

namespace impetus {
namespace {

/// Entries of Eigen's alignment (EIGEN_MAX_ALIGN_BYTES): a column of Minv_G starts at a multiple of it.
constexpr Eigen::Index kAlignedEntries = EIGEN_MAX_ALIGN_BYTES > 0 ? EIGEN_MAX_ALIGN_BYTES / sizeof(double) : 1;

/// Row 0 of X, dense, into `row` and into `column` (the column of M⁻¹Gᵀ it is solved into).
void dense_row(const SparseRows& X, VectorView& row, Eigen::VectorXd& storage, VectorView& column) {
  grow(row, storage, X.cols());
  row.setZero();
  column.setZero();
  for (SparseRows::InnerIterator it(X, 0); it; ++it) row[it.col()] = column[it.col()] = it.value();
}

}  // namespace

bool OneContactDelassus::compute(const ContactProblem& P) {
  // M⁻¹Gᵀ in one solve of three columns: the block's factor read once instead of three times (each column
  // the bits of its own solve, problem_into.hpp). The columns are solved where Minv_N, Minv_S, Minv_T view
  // them: copying them in and out was 3·nv entries each way per island (OneContactDelassus::compute was 2 %
  // of a step of 1000 resting spheres).
  const Eigen::Index ld = (P.nv + kAlignedEntries - 1) / kAlignedEntries * kAlignedEntries;
  if (Minv_G_storage.size() < 3 * ld) Minv_G_storage.resize(3 * ld);
  double* const columns = Minv_G_storage.data();
  new (&Minv_G) decltype(Minv_G)(columns, P.nv, 3, Eigen::OuterStride<>(ld));
  new (&Minv_N) VectorView(columns, P.nv);
  new (&Minv_S) VectorView(columns + ld, P.nv);
  new (&Minv_T) VectorView(columns + 2 * ld, P.nv);
  dense_row(P.N, row_N, row_N_storage, Minv_N);
  dense_row(P.S, row_S, row_S_storage, Minv_S);
  dense_row(P.T, row_T, row_T_storage, Minv_T);
  solve_M_columns_in_place(P, Minv_G);
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
