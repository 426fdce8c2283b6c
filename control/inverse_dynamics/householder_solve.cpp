// Householder solves without heap temporaries (householder_solve.hpp).
#include "control/inverse_dynamics/householder_solve.hpp"

namespace impetus {

void apply_q_adjoint(const Eigen::MatrixXd& vectors, const Eigen::VectorXd& coeffs, Eigen::Index length,
                     Eigen::VectorXd& c, Eigen::VectorXd& scaled) {
  const Eigen::Index rows = vectors.rows();
  scaled.resize(rows);
  Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, 1> workspace(1);
  for (Eigen::Index k = 0; k < length; ++k) {
    auto sub = c.bottomRightCorner(rows - k, c.cols());
    const double tau = coeffs.coeff(k);
    if (sub.rows() == 1) {
      sub *= 1.0 - tau;
    } else if (tau != 0.0) {
      const Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1> essential(vectors, k + 1, k, rows - k - 1, 1);
      Eigen::Map<Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, 1>> tmp(workspace.data(), sub.cols());
      Eigen::Block<decltype(sub), Eigen::Dynamic, Eigen::Dynamic> bottom(sub, 1, 0, sub.rows() - 1, sub.cols());
      tmp.noalias() = essential.adjoint() * bottom;
      tmp += sub.row(0);
      sub.row(0) -= tau * tmp;
      auto tau_v = scaled.head(rows - k - 1);
      tau_v = tau * essential;
      bottom.noalias() -= tau_v * tmp;
    }
  }
}

void cod_least_norm_solve(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod, Eigen::VectorXd& c,
                          Eigen::VectorXd& scaled, Eigen::VectorXd& y, Eigen::VectorXd& temp, Eigen::VectorXd& u) {
  const Eigen::Index cols = cod.cols(), rank = cod.rank();
  u.resize(cols);
  if (rank == 0) {
    u.setZero();
    return;
  }
  apply_q_adjoint(cod.matrixQTZ(), cod.hCoeffs(), rank, c, scaled);
  y.resize(cols);
  y.topRows(rank) = cod.matrixT().topLeftCorner(rank, rank).triangularView<Eigen::Upper>().solve(c.topRows(rank));
  if (rank < cols) {
    y.bottomRows(cols - rank).setZero();
    temp.resize(cols);
    for (Eigen::Index k = 0; k < rank; ++k) {   // y ← Zᴴ y (applyZAdjointOnTheLeftInPlace)
      if (k != rank - 1) y.row(k).swap(y.row(rank - 1));
      y.middleRows(rank - 1, cols - rank + 1)
          .applyHouseholderOnTheLeft(cod.matrixQTZ().row(k).tail(cols - rank).adjoint(), cod.zCoeffs()(k), &temp(0));
      if (k != rank - 1) y.row(k).swap(y.row(rank - 1));
    }
  }
  u = cod.colsPermutation() * y;   // out of place: in place, the permutation allocates a mask
}

}  // namespace impetus
