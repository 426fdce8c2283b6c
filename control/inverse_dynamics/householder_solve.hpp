// Least-squares solves by Eigen's Householder factorizations without their heap temporaries (issue 16: no
// allocation in the step loop): Eigen 3.4's own steps, statement for statement on the same block types — so
// the same kernels and the same bits — with every temporary in a buffer the caller keeps. Used by the
// sticking target (control/sticking_target.hpp) and the least squares under inequalities
// (inequality_least_squares.hpp).
#pragma once

#include <Eigen/Dense>
#include <Eigen/QR>

namespace impetus {

/// c ← Qᴴc for the first `length` reflectors H_k = I − τ_k v_k v_kᴴ of a Householder QR (v_k below the diagonal
/// of `vectors`, τ_k in `coeffs`), H_0 first: c.applyOnTheLeft(householderQ().setLength(length).adjoint()) for a
/// vector c (MatrixBase::applyHouseholderOnTheLeft), except that τ_k v_k, which Eigen evaluates into a heap
/// temporary per reflector, is evaluated into `scaled`.
void apply_q_adjoint(const Eigen::MatrixXd& vectors, const Eigen::VectorXd& coeffs, Eigen::Index length,
                     Eigen::VectorXd& c, Eigen::VectorXd& scaled);

/// u = cod.solve(c), the least-norm least-squares solution, as CompleteOrthogonalDecomposition::_solve_impl:
/// u = Π Zᴴ [T⁻¹ (Qᴴc)₁:ᵣ; 0]. c is overwritten by Qᴴc; scaled, y and temp are the solve's buffers.
void cod_least_norm_solve(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod, Eigen::VectorXd& c,
                          Eigen::VectorXd& scaled, Eigen::VectorXd& y, Eigen::VectorXd& temp, Eigen::VectorXd& u);

}  // namespace impetus
