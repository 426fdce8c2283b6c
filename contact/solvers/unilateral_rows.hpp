// The unilateral rows of a velocity projection: U = [N; L], U v⁺ ≥ −b with b = [φ/dt; φ_L/dt]
// (DESIGN.md: contacts not yet touching enter with their gap, N·v⁺ ≥ −φ/dt; joint limits alike).
#pragma once

#include <Eigen/Dense>
#include <cassert>

#include "contact/problem.hpp"
#include "contact/solvers/inertia_operator.hpp"

namespace impetus {

struct UnilateralRows {
  const SparseRows* N = nullptr;   // (nc×nv) normal rows
  const SparseRows* L = nullptr;   // (nl×nv) joint-limit rows; null or empty when there are none
  Eigen::VectorXd b;               // (≥ nc + nl) [φ/dt; φ_L/dt] (m/s or rad/s) in its first nc + nl entries

  int num_contacts() const { return N == nullptr ? 0 : static_cast<int>(N->rows()); }
  int size() const { return num_contacts() + (L == nullptr ? 0 : static_cast<int>(L->rows())); }
  /// Row u of U: N_u for u < nc, else L_{u−nc}.
  RowRef row(int u) const {
    const int nc = num_contacts();
    return u < nc ? RowRef{N, u} : RowRef{L, u - nc};
  }
  /// The problem's rows U = [N; L] and b = [φ; φ_L] / dt. b keeps its largest size (grow-only, as a
  /// workspace's buffers: contact/solvers/grow_only.hpp); the rows read only its first size() entries.
  void set(const ContactProblem& problem) {
    N = &problem.N;
    L = &problem.L;
    const int nc = problem.nc, nl = problem.nl;
    if (b.size() < nc + nl) b.resize(nc + nl);
    b.head(nc) = problem.phi / problem.dt;
    b.segment(nc, nl) = problem.phi_L / problem.dt;
  }
};

/// The projection's warm start z₀ = [p_N; p_L] (nc + nl) from the problem's guesses, 0 where it has none.
inline void unilateral_guess(const ContactProblem& problem, Eigen::Ref<Eigen::VectorXd> z0) {
  const int nc = problem.nc, nl = problem.nl;
  assert(z0.size() == nc + nl);
  z0.setZero();
  if (problem.p_N_guess.size() == nc) z0.head(nc) = problem.p_N_guess;
  if (problem.p_L_guess.size() == nl) z0.tail(nl) = problem.p_L_guess;
}
inline void unilateral_guess(const ContactProblem& problem, Eigen::VectorXd& z0) {
  z0.resize(problem.nc + problem.nl);
  unilateral_guess(problem, Eigen::Ref<Eigen::VectorXd>(z0));
}

}  // namespace impetus
