// (GB1): a guessed complementary basis, accepted by Lemke's certificate.
#include "contact/solvers/guessed_basis.hpp"

#include <cmath>

#include "contact/solvers/lcp_certificate.hpp"

namespace impetus {

bool GuessedBasis::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, const Eigen::VectorXd& guess,
                         double tolerance, Eigen::VectorXd& x, double& residual) {
  const Eigen::Index n = q.size();
  if (A.rows() != n || A.cols() != n || guess.size() != n) return false;
  const double scale = guess.lpNorm<Eigen::Infinity>();
  if (!(scale > 0) || !std::isfinite(scale)) return false;
  // An entry counts as basic above this fraction of the largest: below it, rounding of the last solve,
  // which the certificate would accept as zero anyway (warm_start.cpp's threshold).
  constexpr double kActive = 1e-12;
  basis.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    if (guess[i] > kActive * scale) basis.push_back(static_cast<int>(i));
  const int nb = static_cast<int>(basis.size());
  const auto fill = [&](MatrixView& A_BB) {
    for (int c = 0; c < nb; ++c)
      for (int r = 0; r < nb; ++r) A_BB(r, c) = A(basis[r], basis[c]);
  };
  const VectorView& delta = correction(fill, q, guess);
  if (x.size() != n) return false;
  x.setZero();
  for (int r = 0; r < nb; ++r) x[basis[r]] = std::max(guess[basis[r]] + delta[r], 0.0);
  if (!x.allFinite()) return false;
  grow(Ax, Ax_storage, n);
  grow(w, w_storage, n);
  Ax.noalias() = A * x;
  w = Ax + q;
  residual = certificate_rho(q, x, w, Ax.lpNorm<Eigen::Infinity>());
  return residual <= tolerance;
}

}  // namespace impetus
