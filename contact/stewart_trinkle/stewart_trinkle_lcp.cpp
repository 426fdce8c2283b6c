// Assembly of the Stewart–Trinkle LCP (stewart_trinkle.hpp, ST6–ST7).
#include <cassert>
#include <cmath>
#include <numbers>

#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {
namespace {

/// J = [X_1; X_2; …] row-stacked, reusing J's storage (no allocation once warm at a fixed size).
void stack_rows(std::initializer_list<const SparseRows*> blocks, int nv, SparseRows& J) {
  Eigen::Index rows = 0, nnz = 0;
  for (const SparseRows* X : blocks) {
    rows += X->rows();
    nnz += X->nonZeros();
  }
  J.resize(rows, nv);
  J.reserve(nnz);
  Eigen::Index r = 0;
  for (const SparseRows* X : blocks)
    for (Eigen::Index i = 0; i < X->outerSize(); ++i, ++r) {
      J.startVec(r);
      for (SparseRows::InnerIterator it(*X, i); it; ++it) J.insertBack(r, it.col()) = it.value();
    }
  J.finalize();
}

}  // namespace

void assemble_stewart_trinkle_lcp(const ContactProblem& problem, int friction_edges, StewartTrinkleLcp& lcp) {
  const int nc = problem.nc, nl = problem.nl, nu = nc + nl, k = friction_edges;
  assert(k >= 4 && k % 2 == 0);
  lcp.nc = nc;
  lcp.nl = nl;
  lcp.k = k;

  // Only contacts with μ > 0 carry friction rows (a μ = 0 pyramid would leave λ undetermined).
  lcp.friction_contact.clear();
  for (int c = 0; c < nc; ++c)
    if (problem.mu[c] > 0) lcp.friction_contact.push_back(c);
  const int nf = static_cast<int>(lcp.friction_contact.size());
  lcp.nf = nf;
  lcp.offset_L = nc;
  lcp.offset_F = nu;
  lcp.offset_lambda = nu + k * nf;
  lcp.size = nu + (k + 1) * nf;

  lcp.cos_edge.resize(k);
  lcp.sin_edge.resize(k);
  for (int j = 0; j < k; ++j) {
    const double angle = 2 * std::numbers::pi * j / k;
    lcp.cos_edge[j] = std::cos(angle);
    lcp.sin_edge[j] = std::sin(angle);
  }
  // Exact edges ±t1, ±t2 where the angle is a multiple of π/2 (cos(π/2) is 6e-17 in floating point).
  for (int j = 0; j < k; ++j)
    if ((4 * j) % k == 0) {
      lcp.cos_edge[j] = std::round(lcp.cos_edge[j]);
      lcp.sin_edge[j] = std::round(lcp.sin_edge[j]);
    }

  // D = J W Jᵀ with J = [N; L; S; T]; rows iN(c) = c, iL(l) = nc + l, iS(c) = nu + c, iT(c) = nu + nc + c.
  stack_rows({&problem.N, &problem.L, &problem.S, &problem.T}, problem.nv, lcp.J);
  problem.delassus(lcp.J, lcp.J, lcp.D);
  lcp.Jv.noalias() = lcp.J * problem.v_star;
  const Eigen::MatrixXd& D = lcp.D;
  const auto iS = [&](int c) { return nu + c; };
  const auto iT = [&](int c) { return nu + nc + c; };

  // (ST7): a = mean diag(N W Nᵀ), the inverse effective mass of a typical normal row.
  double a = nc > 0 ? D.diagonal().head(nc).mean() : 1.0;
  if (!(a > 0) || !std::isfinite(a)) a = 1.0;
  lcp.balance = a;

  const int n = lcp.size, oF = lcp.offset_F, oL = lcp.offset_lambda;
  lcp.A.setZero(n, n);
  lcp.q.setZero(n);
  Eigen::MatrixXd& A = lcp.A;
  const Eigen::VectorXd& cs = lcp.cos_edge;
  const Eigen::VectorXd& sn = lcp.sin_edge;

  // U rows: U W Uᵀ and U W Fᵀ; q_U = U v* + [φ; φ_L]/dt.
  A.topLeftCorner(nu, nu) = D.topLeftCorner(nu, nu);
  for (int f = 0; f < nf; ++f) {
    const int c = lcp.friction_contact[f];
    for (int j = 0; j < k; ++j) {
      const int col = oF + f * k + j;
      A.col(col).head(nu) = cs[j] * D.col(iS(c)).head(nu) + sn[j] * D.col(iT(c)).head(nu);
      A.row(col).head(nu) = A.col(col).head(nu).transpose();
    }
  }
  for (int c = 0; c < nc; ++c) lcp.q[c] = lcp.Jv[c] + problem.phi[c] / problem.dt;
  for (int l = 0; l < nl; ++l) lcp.q[nc + l] = lcp.Jv[nc + l] + problem.phi_L[l] / problem.dt;

  // F rows: F W Fᵀ from the S/T blocks of D, aE, and q_F = F v*.
  for (int f = 0; f < nf; ++f) {
    const int c = lcp.friction_contact[f];
    for (int g = 0; g < nf; ++g) {
      const int e = lcp.friction_contact[g];
      const double ss = D(iS(c), iS(e)), st = D(iS(c), iT(e)), ts = D(iT(c), iS(e)), tt = D(iT(c), iT(e));
      for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i)
          A(oF + f * k + j, oF + g * k + i) =
              cs[j] * (cs[i] * ss + sn[i] * st) + sn[j] * (cs[i] * ts + sn[i] * tt);
    }
    for (int j = 0; j < k; ++j) {
      A(oF + f * k + j, oL + f) = a;                                    // a E
      A(oL + f, oF + f * k + j) = -a;                                   // −a Eᵀ
      lcp.q[oF + f * k + j] = cs[j] * lcp.Jv[iS(c)] + sn[j] * lcp.Jv[iT(c)];
    }
    A(oL + f, c) = a * problem.mu[c];                                   // a μ̄
  }
}

}  // namespace impetus
