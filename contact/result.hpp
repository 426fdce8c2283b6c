// What a contact model returns: v⁺, the impulses, and the truth about how the solve went.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace impetus {

enum class SolveStatus {
  Solved,      // the model's own solver met its certificate
  Fallback,    // the primary solver failed; a fallback produced the result (counted)
  Failed,      // no method met the certificate; v⁺ is the best available (counted)
};

/// Statistics of one solve. Times in seconds.
struct SolverStatistics {
  SolveStatus status = SolveStatus::Solved;
  int iterations = 0;          // pivots (pivoting methods) or Newton / interior-point iterations
  int attempts = 1;            // e.g. Lemke retries with growing Tikhonov regularisation
  double regularization = 0;   // the regularisation that produced the result (0: none)
  double residual = 0;         // the model's certificate residual at the result
  std::string message;         // why it failed or fell back; empty when Solved
};

struct ContactResult {
  Eigen::VectorXd v_plus;                 // (nv) velocity at the end of the step
  Eigen::VectorXd p_N, p_S, p_T;          // (nc) impulses (N·s): normal, along t1, along t2
  Eigen::VectorXd p_L;                    // (nl) joint-limit impulses
  Eigen::VectorXd q_plus;                 // geometrically implicit models only (ECP): the island's
                                          // configuration at t + dt, layout of ContactProblem::q; empty otherwise
  SolverStatistics stats;
};

}  // namespace impetus
