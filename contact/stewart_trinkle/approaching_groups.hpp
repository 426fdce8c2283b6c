// Lemke on the contact groups that can carry an impulse; the others are checked afterwards (ST11).
//
// Speculative contact (collision/collision_detector.cpp) puts every pair that may touch within the step
// into the problem: a robot lying on the ground has ~100 contacts of which ~10 carry an impulse. Each
// of the others still costs Lemke its rows in every pivot (O(n·k) per pivot, lemke.hpp L8) and, when
// its body slides, at least one pivot to bring its λ̂ into the basis (w_F = F v* < 0 with p_N = 0
// needs λ̂ > 0, ST4). Solving on the groups G that can be loaded and checking the rest is exact:
//
//   Let z_G solve (ST6) restricted to the unknowns [p_N, p_F, λ̂] of the groups in G and all p_L. Extend
//   it by p_N = 0, p_F = 0 and λ̂_g = max(0, max_j −(F v⁺)_{g,j}) / a for g ∉ G.                (ST11)
//
//   • The rows of G and of the limits are unchanged: the omitted unknowns enter them only through
//     p_N and p_F (zero), and λ̂_g's column of A is a in g's own friction rows and nothing else.
//   • (ST4) for g ∉ G: w_F = F v⁺ + a λ̂_g ≥ 0 by the choice of λ̂_g, and p_F = 0.
//   • (ST5) for g ∉ G: w_λ = a(μ·0 − 1ᵀ0) = 0, complementary to any λ̂_g.
//   • (ST2) for g ∉ G: p_N = 0, so it holds iff w_N = N_g v⁺ + φ_g/dt ≥ 0.
//
// So z solves (ST6) iff every omitted group's w_N ≥ 0. G starts as the groups with q_N ≤ 0 (they
// approach, or touch, with no impulse at all) or a guessed impulse; omitted groups that the impulses
// of G push in (w_N < 0) join G and Lemke runs again — at most ng rounds, the last one being the
// whole LCP. Lemke's certificate (L6) is evaluated on the whole problem, not on the restriction. Any
// restricted attempt that Lemke does not solve, or a failure the omitted rows do not explain, hands
// the problem to the plain Lemke solve on all groups (stewart_trinkle.cpp), as before ST11. So does a
// round that only a regularised retry (L7) solved (result.attempts > 1), but its z — certified on the
// whole problem — stays the answer unless the plain attempt on all groups solves: a retry answers a
// perturbed problem, and on vision60 (bench_corpus_robots) the plain attempt on the restricted groups
// failed where the one on all groups solves (ST11 fallbacks 5 → 1).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {

/// Buffers of (ST11), kept between calls.
struct ApproachingGroups {
  std::vector<char> in_G;            // (ng) group g is in G
  std::vector<int> groups;           // G in increasing order
  std::vector<int> block_of_group;   // (ng) friction block of each group of the whole LCP, −1 if none
  std::vector<char> columns;         // (rows of D) D's columns of G's unknowns and of the limits
  StewartTrinkleLcp sub;             // (ST6) restricted to G
  // Grow-only (contact/solvers/grow_only.hpp): Lemke's solution of the restricted LCP, A z, w, p_J, D p_J.
  VectorView z_sub{nullptr, 0}, Az{nullptr, 0}, w{nullptr, 0}, p_J{nullptr, 0}, Dp{nullptr, 0};
  Eigen::VectorXd z_sub_storage, Az_storage, w_storage, p_J_storage, Dp_storage;

  /// (ST11) on `lcp` (assemble_stewart_trinkle_rows of `problem`). Returns true with z (of size lcp.size) a
  /// solution of the whole LCP, `result` Lemke's outcome of the last round with its pivots summed over
  /// the rounds and `residual` the whole problem's certificate ρ ≤ tolerance. False — z unspecified —
  /// when every group already starts in G (the restriction would be the whole LCP) or a round fails:
  /// the caller solves the whole LCP. The rounds take their pivots from `pivots_left` (ST12's budget, given
  /// to each round as LemkeOptions::pivot_budget); a restriction above `max_size` unknowns, or no pivot
  /// left, also returns false.
  bool solve(const ContactProblem& problem, StewartTrinkleLcp& lcp, LemkeSolver& lemke, double tolerance,
             int max_size, int& pivots_left, Eigen::Ref<Eigen::VectorXd> z, LemkeResult& result);

 private:
  void restrict(const StewartTrinkleLcp& lcp);
  void expand(const StewartTrinkleLcp& lcp, Eigen::Ref<Eigen::VectorXd> z);
};

}  // namespace impetus
