// The interface of the inverse-dynamics variants of seed 004 (id_problem.hpp has the model and notation):
// a problem in, the actuator impulse τ, the predicted contact impulses and statistics out.
#pragma once

#include <Eigen/Dense>
#include <string_view>

#include "contact/result.hpp"
#include "contact/solvers/grow_only.hpp"
#include "contact/solvers/lemke.hpp"
#include "control/inverse_dynamics/by_shape.hpp"
#include "control/inverse_dynamics/id_problem.hpp"
#include "control/inverse_dynamics/impulse_memory.hpp"

namespace impetus {

struct InverseDynamicsSolution {
  Eigen::VectorXd tau;                 // (na) actuator impulse (N·m·s or N·s); torque = τ/dt
  VectorView p_N{nullptr, 0}, p_S{nullptr, 0}, p_T{nullptr, 0};   // (nc) predicted contact impulses (N·s)
                                       // along n, t1, t2: views of grow-only storage (fit_impulses)
  Eigen::VectorXd v_plus;              // (nv) predicted v⁺ of the island
  SolverStatistics stats;              // status (Solved / Fallback / Failed), iterations, message
  int fallbacks = 0;                   // fallbacks taken in this call
  Eigen::VectorXi saturated;           // (na) or empty: +1 / −1 τ held at its upper / lower effort limit,
                                       // 0 driven (effort_limits.hpp)
  int effort_rounds = 1;               // solves of the call (1 + the effort limits' re-solves)

  InverseDynamicsSolution() = default;
  /// A copy holds the values in storage of its own (the views never point into another solution's).
  InverseDynamicsSolution(const InverseDynamicsSolution& other) { *this = other; }
  InverseDynamicsSolution& operator=(const InverseDynamicsSolution& other) {
    if (this == &other) return *this;
    tau = other.tau;
    fit_impulses(other.p_N.size());
    p_N = other.p_N;
    p_S = other.p_S;
    p_T = other.p_T;
    v_plus = other.v_plus;
    stats = other.stats;
    fallbacks = other.fallbacks;
    saturated = other.saturated;
    effort_rounds = other.effort_rounds;
    return *this;
  }

  /// Sizes p_N, p_S, p_T to nc: views of the first nc entries of storage grown only (a trot's held contacts
  /// come and go, and an Eigen vector reallocates at every change of size), so no contact count up to the
  /// storage's allocates (issue 16). Contents unspecified after.
  void fit_impulses(Eigen::Index nc) {
    grow(p_N, p_N_storage_, nc);
    grow(p_S, p_S_storage_, nc);
    grow(p_T, p_T_storage_, nc);
  }
  /// Storage for up to `most` contacts (the most the model can make: ControlStage), so that a contact count
  /// first met once warm allocates nothing either. The present contents are kept only when no storage grows.
  void reserve_impulses(Eigen::Index most) {
    const Eigen::Index nc = p_N.size();
    if (p_N_storage_.size() < most) p_N_storage_.resize(most);
    if (p_S_storage_.size() < most) p_S_storage_.resize(most);
    if (p_T_storage_.size() < most) p_T_storage_.resize(most);
    fit_impulses(nc);   // re-pointed: a resize moved the storage
  }

 private:
  Eigen::VectorXd p_N_storage_, p_S_storage_, p_T_storage_;   // (≥ nc) the views' storage
};

class InverseDynamicsSolver {
 public:
  virtual ~InverseDynamicsSolver() = default;
  virtual std::string_view name() const = 0;
  /// Solves one call. Never throws; a failed solve says so in solution.stats (status Failed), and
  /// its τ is then not to be applied.
  virtual void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) = 0;
  /// What the solver carries from one call to the next (the warm start of seed 004 §4.6), for restart
  /// points (sim/restart_point.hpp); null for a solver that carries nothing.
  virtual const PredictionMemory* memory() const { return nullptr; }
  virtual void restore_memory(const PredictionMemory&) {}
};

/// Splits p = [p_N; p_S; p_T] (3nc) into the solution's vectors.
inline void split_impulses(const Eigen::VectorXd& p, int nc, InverseDynamicsSolution& s) {
  s.fit_impulses(nc);
  s.p_N = p.head(nc);
  s.p_S = p.segment(nc, nc);
  s.p_T = p.tail(nc);
}

/// Status of a Lemke-based call from its result: Solved (plain), Fallback (a regularised retry, counted
/// in `fallbacks`), Failed; pivots are added to the iterations.
void set_lemke_statistics(const LemkeResult& result, SolverStatistics& stats, int& fallbacks);

}  // namespace impetus
