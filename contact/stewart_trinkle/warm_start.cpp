// (ST10): the previous step's active set, tried before Lemke's method.
#include "contact/stewart_trinkle/warm_start.hpp"

#include <cassert>
#include <cmath>

#include "contact/solvers/lcp_certificate.hpp"
#include "contact/solvers/lemke.hpp"

namespace impetus {

namespace {

/// Guessed group impulses in the layout of z = [p_N (ng); p_L; p_F; λ̂] (λ̂ left 0: it is a speed
/// the solve finds). Returns false when the problem carries no guess at all. s, t: scratch.
bool guess_in_lcp_layout(const ContactProblem& problem, const StewartTrinkleLcp& lcp, StewartTrinkleWarmStart& ws) {
  const int nc = problem.nc, nl = problem.nl, k = lcp.k;
  const bool has_N = problem.p_N_guess.size() == nc && nc > 0 && problem.p_N_guess.any();
  const bool has_L = problem.p_L_guess.size() == nl && nl > 0 && problem.p_L_guess.any();
  if (!has_N && !has_L) return false;
  grow(ws.z_guess, ws.z_guess_storage, lcp.size);
  grow(ws.s_guess, ws.s_guess_storage, lcp.ng);
  grow(ws.t_guess, ws.t_guess_storage, lcp.ng);
  VectorView &z = ws.z_guess, &s = ws.s_guess, &t = ws.t_guess;
  z.setZero();
  s.setZero();
  t.setZero();
  const bool has_F = problem.p_S_guess.size() == nc && problem.p_T_guess.size() == nc;
  for (int c = 0; c < nc; ++c) {
    const int g = lcp.group[c];
    if (has_N) z[g] += std::max(problem.p_N_guess[c], 0.0);
    if (has_F) {
      s[g] += problem.p_S_guess[c];
      t[g] += problem.p_T_guess[c];
    }
  }
  if (has_L) z.segment(lcp.offset_L, nl) = problem.p_L_guess.cwiseMax(0.0);
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f];
    if (s[g] == 0 && t[g] == 0) continue;
    double a = 0, b = 0;
    const int j = split_onto_edges(s[g], t[g], lcp.cos_edge, lcp.sin_edge, a, b), j1 = (j + 1) % k;
    z[lcp.offset_F + f * k + j] = std::max(a, 0.0);
    z[lcp.offset_F + f * k + j1] = std::max(b, 0.0);
  }
  return true;
}

}  // namespace

bool StewartTrinkleWarmStart::solve(const ContactProblem& problem, StewartTrinkleLcp& lcp, double tolerance,
                                    int max_size, Eigen::Ref<Eigen::VectorXd> z, double& residual) {
  if (!guess_in_lcp_layout(problem, lcp, *this)) return false;
  const double scale = z_guess.lpNorm<Eigen::Infinity>();
  if (!(scale > 0) || !std::isfinite(scale)) return false;
  // An impulse counts as active above this fraction of the largest: below it, rounding of the last
  // solve, which the certificate would accept as zero anyway.
  constexpr double kActive = 1e-12;
  std::vector<int>& basis = core.basis;
  basis.clear();
  for (int i = 0; i < lcp.offset_lambda; ++i)
    if (z_guess[i] > kActive * scale) basis.push_back(i);
  // λ̂ is basic for a sliding group: its friction fills the pyramid, Σ_j p_Fj = μ p_N (ST5).
  const int k = lcp.k;
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f];
    const double friction = z_guess.segment(lcp.offset_F + f * k, k).sum();
    const double slack = lcp.balance * (lcp.mu[f] * z_guess[g] - friction);   // w_λ of (ST6)
    if (z_guess[g] > kActive * scale && friction > 0 && slack <= tolerance * lcp.balance * z_guess[g])
      basis.push_back(lcp.offset_lambda + f);
  }
  const int nb = static_cast<int>(basis.size());
  if (nb == 0 || nb > max_size) return false;
  lcp.need_D_of_unknowns(basis);   // z is zero off the basis

  // Without a λ̂ the basis' A_BB = (J W Jᵀ)_BB is a Delassus block: symmetric positive semidefinite (ST6).
  // With a λ̂ (a sliding group) A_BB is square and of no sign (ST6): LU, or the COD where singular (GB2).
  const auto structure = basis.back() < lcp.offset_lambda ? GuessedBasis::Structure::Delassus   // λ̂ come last
                                                          : GuessedBasis::Structure::Square;
  const VectorView& delta =
      core.correction([&](MatrixView& A_BB) { lcp.basis_matrix(basis, A_BB); }, lcp.q, z_guess, structure);
  assert(z.size() == lcp.size);
  z.setZero();
  for (int r = 0; r < nb; ++r) z[basis[r]] = z_guess[basis[r]] + delta[r];
  if (!z.allFinite()) return false;
  // An unloaded contact (p_N = 0, p_F = 0) has w_λ = 0 whatever λ̂ is, and λ̂ enters only its own
  // friction rows w_F = F v⁺ + a λ̂ (ST4): the guess cannot say whether it slides, but its λ̂ is then
  // the sliding speed, λ̂ = max(0, max_j −(F v⁺)_j / a), which the basis solve leaves at 0.
  grow(Az, Az_storage, lcp.size);
  grow(w, w_storage, lcp.size);
  grow(p_J, p_J_storage, lcp.D.rows());
  grow(Dp, Dp_storage, lcp.D.rows());
  lcp.times(z, Az, p_J, Dp);
  w = Az + lcp.q;
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f], l = lcp.offset_lambda + f;
    const auto p_F = z.segment(lcp.offset_F + f * k, k);
    if (z[g] != 0 || z[l] != 0 || p_F.any()) continue;
    const double speed = -w.segment(lcp.offset_F + f * k, k).minCoeff() / lcp.balance;
    if (!(speed > 0)) continue;
    z[l] = speed;   // its column of A is a in the group's F rows and nothing else (ST6)
    Az.segment(lcp.offset_F + f * k, k).array() += lcp.balance * speed;
    w.segment(lcp.offset_F + f * k, k).array() += lcp.balance * speed;
  }
  residual = certificate_rho(lcp.q, z, w, Az.lpNorm<Eigen::Infinity>());
  return residual <= tolerance;
}

}  // namespace impetus
