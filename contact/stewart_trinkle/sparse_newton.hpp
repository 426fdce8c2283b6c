// The Stewart–Trinkle LCP (ST6) of a large island, sparse, by a semismooth Newton method (ST13).
//
// Above max_lemke_size (ST12) the dense A and D of (ST6) cost n² memory and Lemke O(n³) work: a pile of a
// thousand spheres gives n ≈ 15 000. But A is sparse: J W Jᵀ couples two rows only when they share a body,
// so a contact has O(neighbours) entries per row. This solves LCP(q, A) on the sparse A:
//
//   Φ_i(z) = φ(a z_i, w_i),  w = A z + q,  φ(x, y) = x + y − √(x² + y²)  (Fischer–Burmeister),      (ST13)
//
// Φ = 0 ⇔ z solves (ST6). z_i is an impulse (p_N, p_F) or λ̂ = λ/a, and a (ST7, 1/kg) brings it to the
// velocity units of w, so both arguments of φ are velocities. Newton on Φ with an element of its
// generalized Jacobian (De Luca, Facchinei & Kanzow 1996, as contact/solvers/semismooth_newton.hpp, S4)
//   H = D_α a + D_β A,  (α_i, β_i) = (1 − a z_i/r_i, 1 − w_i/r_i),  r_i = √((a z_i)² + w_i²)  (1 − 1/√2 at r = 0),
// sparse with A's pattern plus the diagonal: H d = −Φ by a sparse LU (Eigen's SparseLU, COLAMD ordering,
// the symbolic analysis once per solve), then an Armijo search on Ψ = ½‖Φ‖² (∇Ψᵀd = −‖Φ‖² for the Newton
// direction): Ψ(z + t d) ≤ (1 − 2γ t) Ψ(z), t = 1, ½, … A singular H (a zero λ̂ column where z and w of a
// pair both vanish) gets δ I added, δ = 1e-10 of its largest diagonal entry; the step is still checked by
// the search and the answer by the certificate.
//
// Before that, stage 1, active sets: w_B = 0 with z_N = 0 on the basis B of the previous step's impulses
// (as ST10), one sparse LU of A_BB per round, B then updated by the signs of z_B and w_N (the full Newton
// step on min(z, w)); an unloaded group gets λ̂ = its sliding speed (ST11's extension). At rest the first
// round certifies. The update is not a convergent method for this non-P matrix, so the rounds stop on a
// repeated basis, when the number of changes stops falling, or on a singular A_BB (a pile's loaded contacts
// are statically indeterminate). Stage 2 (the Fischer–Burmeister iteration above) starts from stage 1's best
// point and stops when Ψ does not halve within a few steps: so that a method that will not certify costs
// little before the fallback (each step an LU of the whole H).
//
// Exact: z is accepted only when Lemke's own certificate ρ (lemke.hpp L6) on the whole (ST6) is ≤ the
// model's tolerance; the method starts from the previous step's impulses (the warm start's layout, ST10)
// and stops after max_iterations Newton steps (its work budget), a failed search or a stall. Not certified:
// the caller falls back (ST12) and counts it.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <cstdint>
#include <vector>

#include "contact/problem.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {

struct SparseNewtonReport {
  bool certified = false;   // ρ ≤ tolerance
  int iterations = 0;       // Newton steps taken
  double residual = 0;      // ρ (L6) of the returned z on the whole (ST6)
  const char* stop = "";    // why it stopped when not certified
  const char* basis_stop = "";   // why stage 1 (active sets) ended, when not by a solution or the budget
};

/// Buffers of (ST13), kept between calls.
struct StewartTrinkleSparseNewton {
  using SparseCols = Eigen::SparseMatrix<double>;
  SparseCols Y;                          // W Jᵀ (nv × rows of J)
  SparseCols D;                          // J W Jᵀ, sparse
  SparseCols A, H;                       // (ST6) and the Newton matrix of (ST13)
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::SparseLU<SparseCols, Eigen::COLAMDOrdering<int>> lu, basis_lu;
  SparseCols A_BB;                       // (ST13) stage 1: A over a guessed basis
  Eigen::VectorXd rhs;
  Eigen::VectorXd q, z, w, phi, d, trial_z, trial_w, trial_phi, guess_s, guess_t;
  std::vector<int> diagonal;             // position of H(i, i) in H's values
  std::vector<int> system_of_column;     // (nv) the system holding each column of J, −1 if none
  std::vector<int> touched;              // the systems of one row of J
  std::vector<std::uint64_t> visited;    // (ST13) stage 1: signatures of the bases tried

  /// Assembles (ST6) sparse for `lcp` (after group_stewart_trinkle_rows of `problem`; sets lcp.J, lcp.balance
  /// and lcp.q's size, never lcp.D) and solves it by (ST13). z_out (lcp.size) is the returned z, certified or
  /// the last iterate.
  /// Stage 2 runs only when lcp.size ≤ newton_size.
  SparseNewtonReport solve(const ContactProblem& problem, StewartTrinkleLcp& lcp, double tolerance, int max_iterations,
                           int newton_size, Eigen::Ref<Eigen::VectorXd> z_out);

  /// (ST11) with G = ∅, solve's first try: with no impulse guessed, no group approaching (q_N ≥ 0) and no
  /// limit reached (q_L ≥ 0), z = 0 but λ̂ = each group's sliding speed / a solves (ST6). Stage 1's first round
  /// finds that z too, but only after the sparse D and A of the whole island; a pile in free fall is thousands
  /// of such (speculative) contacts. a (ST7) is mean diag(N W Nᵀ), from the N rows alone. True with z (lcp.size),
  /// q, lcp.J and lcp.balance set when that z meets the certificate (report.residual ≤ tolerance); false
  /// otherwise (z, q unspecified).
  bool solve_separating(const ContactProblem& problem, StewartTrinkleLcp& lcp, double tolerance,
                        SparseNewtonReport& report);

 private:
  void assemble(const ContactProblem& problem, StewartTrinkleLcp& lcp);
  void assemble_q(const ContactProblem& problem, const StewartTrinkleLcp& lcp, const SparseRows& J);
  void start(const ContactProblem& problem, const StewartTrinkleLcp& lcp);
};

}  // namespace impetus
