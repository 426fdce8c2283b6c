// ContactProblem's block-diagonal M⁻¹ operators into storage the caller sized: the forms a workspace's
// grow-only views use (contact/solvers/grow_only.hpp), so that nothing is resized. ContactProblem::solve_M and
// ContactProblem::delassus size a VectorXd / MatrixXd and call these.
#pragma once

#include <Eigen/Dense>

#include "contact/problem.hpp"

namespace impetus {

/// out = M⁻¹ x, block by block (x, out: nv).
void solve_M_into(const ContactProblem& problem, const Eigen::Ref<const Eigen::VectorXd>& x,
                  Eigen::Ref<Eigen::VectorXd> out);

/// X ← M⁻¹ X for k columns at once (X: nv×k), each column the same bits as solve_M_into of it alone: a
/// block's factor is read, and its 1/L_ii divided, once for the k columns where it is small
/// (small_llt_solve.hpp), column by column otherwise.
void solve_M_columns_in_place(const ContactProblem& problem, Eigen::Ref<Eigen::MatrixXd> X);

/// out = A M⁻¹ Bᵀ (dense, rows(A)×rows(B), out of that size), exploiting the block structure of M; `scratch`
/// holds its buffers.
void delassus_into(const ContactProblem& problem, const SparseRows& A, const SparseRows& B,
                   Eigen::Ref<Eigen::MatrixXd> out, DelassusScratch& scratch);

/// The columns j of delassus_into's out with columns[j] (size rows(B)), the same numbers to the bit; the
/// other columns of out are left as they are.
void delassus_columns_into(const ContactProblem& problem, const SparseRows& A, const SparseRows& B,
                           const std::vector<char>& columns, Eigen::Ref<Eigen::MatrixXd> out, DelassusScratch& scratch);

/// Y_b = M_b⁻¹ B_bᵀ of every block, computed once and kept in `scratch`, for the products A M⁻¹ Bᵀ with A = B that
/// follow (delassus_into, _columns_into, _diagonal_into with this B and problem): the same numbers, without a
/// solve per call. Valid until B, the problem's factors or their rows change: the caller keeps it again then,
/// or calls scratch.forget().
void keep_delassus_rows(const ContactProblem& problem, const SparseRows& B, DelassusScratch& scratch);

/// out(i, i) of delassus_into(A, A) for i < count, the same numbers to the bit; the rest of out is left.
void delassus_diagonal_into(const ContactProblem& problem, const SparseRows& A, int count, Eigen::Ref<Eigen::MatrixXd> out,
                            DelassusScratch& scratch);

}  // namespace impetus
