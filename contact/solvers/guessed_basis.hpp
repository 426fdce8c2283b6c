// "Is the last basis still the answer": a guessed complementary basis of a dense LCP(q, A), tried before
// pivoting (the dense form of contact/stewart_trinkle/warm_start.hpp's ST10, whose core this is).
//
//   B = { i : x̃_i > kActive ‖x̃‖∞ },   x_B = max(x̃_B + δ, 0),   x_N = 0,
//   δ the least-norm solution of A_BB δ = −(A_BB x̃_B + q_B)                                       (GB1)
//
// i.e. w_B = 0 on the guessed basis, by the smallest change from the guess x̃ (least norm matters where A_BB
// is singular and the solution not unique: the one nearest the last keeps the answer continuous, as seed 004
// §4.6 does for no-slip). Accepted only when x meets Lemke's own certificate ρ ≤ tolerance (lemke.hpp L6),
// so that whenever it is used the answer is an LCP solution Lemke would also have accepted; otherwise the
// caller pivots as before. The clamp at 0 only removes a round-off sign the certificate would grant; ρ is
// measured on the x returned.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/cod_solve.hpp"
#include "contact/solvers/grow_only.hpp"

namespace impetus {

/// (GB1) with its buffers, kept between calls (grow-only: no allocation once the sizes are met).
struct GuessedBasis {
  std::vector<int> basis;
  MatrixView A_BB{nullptr, 0, 0};
  VectorView rhs{nullptr, 0}, Ax{nullptr, 0}, w{nullptr, 0};
  Eigen::VectorXd A_BB_storage, rhs_storage, Ax_storage, w_storage;
  BySize<Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>> cod;   // of A_BB, per |B|
  CodSolveScratch cod_scratch;

  /// (GB1) for LCP(q, A) (n) from the guess x̃ (n). True with x the accepted solution and `residual` its
  /// ρ ≤ tolerance; false (x unspecified) when the guess is empty or not finite, or misses the certificate.
  bool solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, const Eigen::VectorXd& guess, double tolerance,
             Eigen::VectorXd& x, double& residual);

  /// δ of (GB1) on `basis` as set: the least-norm solution of A_BB δ = −(A_BB x̃_B + q_B), A's entries read by
  /// entry(i, j) (an LCP whose A is never formed: stewart_trinkle's ST10). δ: |basis|, valid until the next call.
  template <class Entry>
  const VectorView& correction(const Entry& entry, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& guess) {
    const int nb = static_cast<int>(basis.size());
    grow(A_BB, A_BB_storage, nb, nb);
    grow(rhs, rhs_storage, nb);
    for (int r = 0; r < nb; ++r) {
      double w_r = q[basis[r]];
      for (int c = 0; c < nb; ++c) {
        A_BB(r, c) = entry(basis[r], basis[c]);
        w_r += A_BB(r, c) * guess[basis[c]];
      }
      rhs[r] = -w_r;
    }
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod_nb = cod(nb);
    cod_nb.compute(A_BB);
    return cod_solve(cod_nb, rhs, cod_scratch);   // = cod.solve(rhs), to the bit, without its temporaries
  }
};

}  // namespace impetus
