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
//
// The solve (GB2): where A_BB is nonsingular δ is unique and any exact method gives it; the least norm matters
// only where it is singular. A complete orthogonal decomposition (COD, ~(4/3)n³ and two sweeps of reflectors)
// answers every case; a caller that knows more takes a cheaper one: a Delassus block (J W Jᵀ)_BB is symmetric
// positive semidefinite, and Cholesky with diagonal pivoting stopped at its rank gives the same A_BB⁺
// (least_norm_psd.hpp, ≤ n³/3); a square A_BB of any sign pattern is tried by LU with partial pivoting (2n³/3)
// and goes to the COD when a pivot falls to the COD's own rank threshold. On a resting stack of ten boxes under
// stewart_trinkle (bases of 60–64 unknowns) the contact stage took 25 % less time.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/cod_solve.hpp"
#include "contact/solvers/grow_only.hpp"
#include "contact/solvers/least_norm_psd.hpp"
#include "contact/solvers/lu_in_place.hpp"

namespace impetus {

/// (GB1) with its buffers, kept between calls (grow-only: no allocation once the sizes are met).
struct GuessedBasis {
  std::vector<int> basis;
  MatrixView A_BB{nullptr, 0, 0};
  VectorView rhs{nullptr, 0}, Ax{nullptr, 0}, w{nullptr, 0};
  Eigen::VectorXd A_BB_storage, rhs_storage, Ax_storage, w_storage;
  BySize<Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>> cod;   // of A_BB, per |B|
  CodSolveScratch cod_scratch;
  LuInPlace lu;   // of A_BB (Structure::Square)
  LeastNormPsd psd;   // of A_BB when the caller knows it symmetric positive semidefinite

  /// (GB1) for LCP(q, A) (n) from the guess x̃ (n). True with x the accepted solution and `residual` its
  /// ρ ≤ tolerance; false (x unspecified) when the guess is empty or not finite, or misses the certificate.
  bool solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, const Eigen::VectorXd& guess, double tolerance,
             Eigen::VectorXd& x, double& residual);

  /// What the caller knows of A_BB, which chooses its solve (GB2).
  enum class Structure {
    General,    // the COD: least norm whatever the rank
    Square,     // LU when nonsingular (the unique solution), else the COD
    Delassus,   // symmetric positive semidefinite: least_norm_psd.hpp (LN3), whatever the rank
  };

  /// δ of (GB1) on `basis` as set: the least-norm solution of A_BB δ = −(A_BB x̃_B + q_B), A_BB written by
  /// fill(A_BB) (A_BB(r, c) = A(basis[r], basis[c]); an LCP whose A is never formed: stewart_trinkle's ST10).
  /// δ: |basis|, valid until the next call.
  template <class Fill>
  const VectorView& correction(const Fill& fill, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& guess, Structure structure = Structure::General) {
    const int nb = static_cast<int>(basis.size());
    grow(A_BB, A_BB_storage, nb, nb);
    grow(rhs, rhs_storage, nb);
    fill(A_BB);
    for (int r = 0; r < nb; ++r) {
      double w_r = q[basis[r]];
      for (int c = 0; c < nb; ++c) w_r += A_BB(r, c) * guess[basis[c]];
      rhs[r] = -w_r;
    }
    if (structure == Structure::Delassus) {
      psd.compute(A_BB);
      return psd.solve(rhs);
    }
    if (structure == Structure::Square && nb > 0) {
      // (GB2): a pivot of LU at or below n·ε·(the largest), the threshold the COD puts on its rank, sends it on.
      lu.compute(A_BB);
      const auto U = lu.matrixLU().diagonal().cwiseAbs();
      if (U.minCoeff() > nb * Eigen::NumTraits<double>::epsilon() * U.maxCoeff()) return lu.solve(rhs);
    }
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod_nb = cod(nb);
    cod_nb.compute(A_BB);
    return cod_solve(cod_nb, rhs, cod_scratch);   // = cod.solve(rhs), to the bit, without its temporaries
  }
};

}  // namespace impetus
