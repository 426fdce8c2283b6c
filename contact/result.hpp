// What a contact model returns: v⁺, the impulses, and the truth about how the solve went.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

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

/// The solution of one ContactProblem::body_plane pair (ECP model, seed 003), at t + dt.
struct BodyPlaneSolution {
  int body = -1;                          // BodyPlanePair::body
  Eigen::Vector3d a1_W = Eigen::Vector3d::Zero();   // equivalent contact point on Conv(F) (m)
  Eigen::Vector3d a2_W = Eigen::Vector3d::Zero();   // its partner on the plane: a1 − gap·n (m)
  double gap = 0;                         // n·a1 − d (m), ≥ 0: the distance of Conv(F) from the plane
  double p_n = 0, p_t = 0, p_o = 0;       // impulses along n, t, o (N·s), applied at a1
  double p_r = 0;                         // frictional moment impulse about n (N·m·s)
  double sigma = 0;                       // slip speed σ of seed 003 Eqs. 14–15 (m/s)
  int active_face = -1;                   // the hull face with the largest multiplier (−1: none)
  Eigen::VectorXd l;                      // (m) face multipliers l_i
};

struct ContactResult {
  Eigen::VectorXd v_plus;                 // (nv) velocity at the end of the step
  Eigen::VectorXd p_N, p_S, p_T;          // (nc) impulses (N·s): normal, along t1, along t2
  Eigen::VectorXd p_L;                    // (nl) joint-limit impulses
  Eigen::VectorXd q_plus;                 // geometrically implicit models only (ECP): the island's
                                          // configuration at t + dt, layout of ContactProblem::q; empty otherwise
  std::vector<BodyPlaneSolution> body_plane;   // one per ContactProblem::body_plane pair; empty otherwise
  SolverStatistics stats;
};

}  // namespace impetus
