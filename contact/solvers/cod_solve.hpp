// x = cod.solve(b) without allocating once the buffers have grown.
//
// Eigen's CompleteOrthogonalDecomposition::solve allocates three temporaries per call (the copy of b
// that Qᴴ is applied to, τ e of each reflector's outer product, and the permuted result, which aliases
// its input); in the step loop that is per island and per step. This performs the same operations in the same
// order (Eigen 3.4, QR/CompleteOrthogonalDecomposition.h: _solve_impl and
// applyZAdjointOnTheLeftInPlace) on buffers the caller keeps, so the bits are Eigen's:
//   c = Qᴴ b,   y₁ = T₁₁⁻¹ c₁ (the leading rank×rank triangle),   y₂ = 0,   y ← Zᴴ y,   x = P y
// — the minimum-norm least-squares solution of A x = b for the decomposed A P = Q [T₁₁ 0; 0 0] Z.
#pragma once

#include <Eigen/Dense>
#include <algorithm>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

/// Buffers of cod_solve, kept by the caller (grow-only: contact/solvers/grow_only.hpp); x is the solution.
struct CodSolveScratch {
  VectorView x{nullptr, 0}, c{nullptr, 0}, y{nullptr, 0}, tau_e{nullptr, 0};
  Eigen::VectorXd x_storage, c_storage, y_storage, tau_e_storage, temp;
};

/// x = cod.solve(b), to the bit, in s.x (cols); returns s.x.
inline const VectorView& cod_solve(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod,
                                   const Eigen::Ref<const Eigen::VectorXd>& b, CodSolveScratch& s) {
  const Eigen::Index rank = cod.rank(), rows = cod.rows(), cols = cod.cols();
  grow(s.x, s.x_storage, cols);
  VectorView& x = s.x;
  if (rank == 0) {
    x.setZero();
    return x;
  }
  // c = Qᴴ b: the reflectors H_0 … H_{rank−1} in turn (the adjoint sequence runs forward), each
  // H_k = I − τ_k [1; e_k][1; e_k]ᵀ applied to c[k…] as MatrixBase::applyHouseholderOnTheLeft does on the
  // dynamic-width block HouseholderSequence hands it (the same expression types, so the same kernels and
  // bits), except that τ_k e_k, which its outer product evaluates into a heap temporary, is kept in s.tau_e.
  grow(s.c, s.c_storage, rows);
  s.c = b;
  grow(s.tau_e, s.tau_e_storage, rows);
  double t_k = 0;   // the 1×1 row vector e_kᵀ c[k+1…] + c[k]
  for (Eigen::Index k = 0; k < rank; ++k) {
    const double tau = cod.hCoeffs().coeff(k);
    const Eigen::Index length = rows - k;
    auto c_k = s.c.bottomRightCorner(length, 1);
    if (length == 1) {
      c_k *= 1.0 - tau;
    } else if (tau != 0) {
      const Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1> e(cod.matrixQTZ(), k + 1, k, length - 1, 1);
      Eigen::Map<Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, 1>> t(&t_k, 1);
      auto bottom = c_k.bottomRows(length - 1);
      t.noalias() = e.adjoint() * bottom;
      t += c_k.row(0);
      c_k.row(0) -= tau * t;
      auto tau_e = s.tau_e.head(length - 1);
      tau_e = tau * e;
      bottom.noalias() -= tau_e * t;
    }
  }
  const Eigen::MatrixXd& QTZ = cod.matrixQTZ();
  grow(s.y, s.y_storage, cols);
  s.y.head(rank) = cod.matrixT().topLeftCorner(rank, rank).template triangularView<Eigen::Upper>().solve(s.c.head(rank));
  if (rank < cols) {   // y ← Zᴴ [y₁; 0]
    s.y.tail(cols - rank).setZero();
    if (s.temp.size() < std::max<Eigen::Index>(cols, 1)) s.temp.resize(std::max<Eigen::Index>(cols, 1));
    for (Eigen::Index k = 0; k < rank; ++k) {
      if (k != rank - 1) std::swap(s.y[k], s.y[rank - 1]);
      s.y.segment(rank - 1, cols - rank + 1)
          .applyHouseholderOnTheLeft(QTZ.row(k).tail(cols - rank).adjoint(), cod.zCoeffs().coeff(k), s.temp.data());
      if (k != rank - 1) std::swap(s.y[k], s.y[rank - 1]);
    }
  }
  x.noalias() = cod.colsPermutation() * s.y;
  return x;
}

}  // namespace impetus
