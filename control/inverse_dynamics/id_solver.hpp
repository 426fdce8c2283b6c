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
  Eigen::VectorXd p_N, p_S, p_T;       // (nc) predicted contact impulses (N·s) along n, t1, t2
  Eigen::VectorXd v_plus;              // (nv) predicted v⁺ of the island
  SolverStatistics stats;              // status (Solved / Fallback / Failed), iterations, message
  int fallbacks = 0;                   // fallbacks taken in this call
  Eigen::VectorXi saturated;           // (na) or empty: +1 / −1 τ held at its upper / lower effort limit,
                                       // 0 driven (effort_limits.hpp)
  int effort_rounds = 1;               // solves of the call (1 + the effort limits' re-solves)

  /// Sizes p_N, p_S, p_T to nc with the vectors of that size kept here (a trot's held contacts come and go,
  /// and Eigen reallocates at every change of size). When nc is the most met, a vector of every size below it
  /// is parked too: a contact count first met once warm then allocates nothing (issue 16). Contents
  /// unspecified after.
  void fit_impulses(Eigen::Index nc) {
    if (nc > parked_.most) {
      for (Eigen::Index n = 0; n <= nc; ++n) {
        parked_.p_N.park(p_N, n, 1);
        parked_.p_S.park(p_S, n, 1);
        parked_.p_T.park(p_T, n, 1);
      }
      parked_.most = nc;
    }
    parked_.p_N.fit(p_N, nc, 1);
    parked_.p_S.fit(p_S, nc, 1);
    parked_.p_T.fit(p_T, nc, 1);
  }

 private:
  /// The impulse vectors at the other sizes: storage, not value (a copy of a solution keeps its own).
  struct Parked {
    Parked() = default;
    Parked(const Parked&) {}
    Parked& operator=(const Parked&) { return *this; }
    ParkedByShape<Eigen::VectorXd> p_N, p_S, p_T;
    Eigen::Index most = -1;   // the most contacts parked for, or −1
  };
  Parked parked_;
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
