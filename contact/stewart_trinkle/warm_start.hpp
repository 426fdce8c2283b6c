// A warm start for the Stewart–Trinkle LCP (ST6): the previous step's impulses name a complementary
// basis, which is tried before Lemke's method.
//
// [004] §5.3 (notes 004, line "no known warm start for Lemke") reports that starting Lemke's pivoting
// from the last basis costs more pivots than a cold start. This does not pivot from it. It only asks
// whether the last active set is still the answer:
//
//   B = { p_N, p_L of the groups with a guessed impulse > 0 } ∪ { the pyramid edges p_Fj > 0 that
//       carry the guessed friction (p_S, p_T) } ∪ { λ̂ of the groups whose guess is on the pyramid's
//       boundary, Σ_j p_Fj = μ p_N: sliding }                                                   (ST10)
//   z_B = z̃_B + δ,  δ the least-norm solution of A_BB δ = −(A_BB z̃_B + q_B),  z_N = 0,
//
// i.e. w_B = 0 on the guessed basis, the smallest change from the guess z̃ (least norm matters: with
// redundant contacts A_BB is singular and the impulses are not unique; the one nearest the last step's
// keeps the force distribution continuous, as [004] §4.6 does for no-slip). It is accepted only when z
// meets Lemke's own certificate (lemke.hpp L6) at the model's tolerance, so the answer is an LCP solution
// whenever it is used; otherwise Lemke runs cold as before. At rest and in steady sliding the active set
// does not change, and the step costs one |B|×|B| factorization instead of the pivots: a Cholesky stopped at
// the rank where B holds no λ̂ (A_BB is then a block of J W Jᵀ), else an LU, the COD only where that is
// singular (guessed_basis.hpp GB2). A_BB is read off D once per unknown (StewartTrinkleLcp::basis_matrix).
//
// The friction guess (p_S, p_T) is split onto the two pyramid edges d_j, d_{j+1} whose cone holds it:
//   (p_S, p_T) = a d_j + b d_{j+1},  a, b ≥ 0.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"
#include "contact/solvers/guessed_basis.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {

/// Buffers of the warm start, kept between calls (grow-only: contact/solvers/grow_only.hpp).
struct StewartTrinkleWarmStart {
  VectorView z_guess{nullptr, 0}, Az{nullptr, 0}, w{nullptr, 0}, p_J{nullptr, 0}, Dp{nullptr, 0};
  VectorView s_guess{nullptr, 0}, t_guess{nullptr, 0};   // (ng) guessed friction (p_S, p_T) per group
  Eigen::VectorXd z_guess_storage, Az_storage, w_storage, p_J_storage, Dp_storage;
  Eigen::VectorXd s_guess_storage, t_guess_storage;
  GuessedBasis core;   // the basis B and the least-norm correction on it (guessed_basis.hpp GB1, GB2)

  /// (ST10) for `lcp` of `problem` from its p_*_guess; needs only assemble_stewart_trinkle_rows (A is
  /// read off D). Returns true with z the accepted solution and
  /// `residual` its certificate ρ ≤ tolerance; false (z unspecified) when there is no guess or the
  /// guessed basis does not solve the LCP, or has more than `max_size` unknowns (its dense factorization,
  /// ST12). z: lcp.size.
  bool solve(const ContactProblem& problem, StewartTrinkleLcp& lcp, double tolerance, int max_size,
             Eigen::Ref<Eigen::VectorXd> z, double& residual);
};

}  // namespace impetus
