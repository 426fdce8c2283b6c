// Dense normal LCP by Lemke (projection_lemke.hpp, PL1–PL3).
#include "contact/solvers/projection_lemke.hpp"

namespace impetus {

LemkeResult ProjectionLemke::solve(const InertiaOperator& W, const DelassusFactor& factor, const UnilateralRows& U,
                                   const Eigen::Ref<const Eigen::VectorXd>& v_f, LemkeSolver& lemke, Eigen::VectorXd& z,
                                   Eigen::VectorXd& w, Eigen::VectorXd& v_plus, Eigen::VectorXd& lambda_G) {
  const int n = U.size(), nv = W.size(), k = factor.size();

  // (PL2) λ_G⁰ and v_G.
  lambda_G.resize(k);
  for (int p = 0; p < k; ++p) lambda_G[p] = factor.rhs(p);
  factor.solve_leading(k, lambda_G);
  v_G_ = v_f;
  for (int p = 0; p < k; ++p) v_G_ += lambda_G[p] * factor.y(p);

  // (PL1) X, Z and F.
  X_.resize(nv, n);
  for (int u = 0; u < n; ++u) W.solve_row(U.row(u), X_.col(u));
  Z_.resize(k, n);
  for (int u = 0; u < n; ++u) {
    for (int p = 0; p < k; ++p) Z_(p, u) = row_dot(factor.row(p), X_.col(u));
    factor.forward_leading(k, Z_.col(u));
  }
  F_.resize(n, n);
  for (int u = 0; u < n; ++u)
    for (int c = 0; c < n; ++c) F_(u, c) = row_dot(U.row(u), X_.col(c));
  if (k > 0) F_.noalias() -= Z_.transpose() * Z_;
  F_ = 0.5 * (F_ + F_.transpose()).eval();   // symmetric up to roundoff
  e_.resize(n);
  for (int u = 0; u < n; ++u) e_[u] = row_dot(U.row(u), v_G_) + U.b[u];

  const LemkeResult result = lemke.solve(F_, e_, z);

  // (PL3) λ_G = λ_G⁰ − D⁻¹ G X z and v⁺ = v_f + W⁻¹Gᵀλ_G + X z.
  Xz_.noalias() = X_ * z;
  t_.resize(k);
  for (int p = 0; p < k; ++p) t_[p] = row_dot(factor.row(p), Xz_);
  factor.solve_leading(k, t_);
  lambda_G -= t_;
  v_plus = v_f + Xz_;
  for (int p = 0; p < k; ++p) v_plus += lambda_G[p] * factor.y(p);
  w.resize(n);
  for (int u = 0; u < n; ++u) w[u] = row_dot(U.row(u), v_plus) + U.b[u];
  return result;
}

}  // namespace impetus
