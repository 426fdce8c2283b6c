// Joint friction by maximum dissipation (seed 002 §5, "Quadratic Program 4"): the joint impulses that
// leave a tree the least kinetic energy, each bounded by its joint's Coulomb friction.
//
// References
//   [002]  Drumwright & Shell (seed 002) §5.1 QP4, §5.2; notes: shared/notes/seed-002-notes.md §1.6.
//   [BE]   Bertsekas, "Projected Newton methods for optimization problems with simple constraints",
//          SIAM J. Control Optim. 20 (1982) 221–246: the solver.
//
// Glossary
//   symbol  size   meaning                                                     code
//   ------  -----  ----------------------------------------------------------  ---------------
//   H       n×n    the tree's inertia as the stepper integrates it, M + dt·D    H, H_llt
//   q̇*      n      the tree's free velocity v* (after stage 4)                  v_star
//   F       k      the coordinates with friction (1-DoF joints, friction > 0)    dofs
//   E_F     n×k    their columns of the identity                                —
//   x       k      joint friction impulses (N·m·s or N·s)                       x
//   β       k      bounds |x_i| ≤ β_i (N·m·s or N·s)                            bound
//   Q, q    k×k, k Q = E_FᵀH⁻¹E_F, q = E_Fᵀq̇*                                   —
//   g       k      Q x + q: the post-friction velocity of the coordinates F     (gradient)
//
// Program (QP4, [002] §5.1, with the corrections below):
//   minimise  ½ xᵀQ x + xᵀq  =  ½(q̇* + H⁻¹E_F x)ᵀH(q̇* + H⁻¹E_F x) − ½q̇*ᵀHq̇*                    (JF1)
//   subject to  −β ≤ x ≤ β,        then  q̇⁺ = q̇* + H⁻¹E_F x.                                    (JF2)
// Q is a principal submatrix of H⁻¹, so SPD: the program is strictly convex, with one solution.
// Optimality (JF3): g_i = 0 where |x_i| < β_i (the joint stops), g_i ≤ 0 at x_i = β_i and g_i ≥ 0 at
// x_i = −β_i (the friction opposes the motion it cannot stop). With one coordinate,
// x* = clamp(−H q̇*, −β, β) ([002] notes §5.2). x = 0 is feasible, so the step never adds kinetic
// energy (JF1 ≤ 0).
//
// Errata of [002] QP4 (notes §1.6)
//   • The printed bounds −μ_c − μ_v q̇ ≤ x ≤ μ_c + μ_v q̇ cross when μ_v q̇ < −μ_c (moving backwards):
//     a sign typo; the bound is symmetric, β = μ_c + μ_v|q̇|.
//   • μ_c is a torque, x an impulse: over a step, β = dt(μ_c + μ_v|q̇|).
//   • q̇ is the velocity after the step's applied and gravity impulses (q̇*): only then does a joint
//     whose friction exceeds the load stay at rest.
// This solver takes β as given; sim/joint_friction_stage.hpp decides what goes into it.
//
// Solver ([BE]): projected Newton. With the binding set B = {i at a bound with g pushing outward}
// (ε-active), the step is Newton's on the free coordinates, d_F = −Q_FF⁻¹g_F, and the scaled
// gradient on B, d_B = −g_B/Q_BB; Armijo backtracking along the projection arc P(x + αd). For a
// strictly convex quadratic it identifies the active set in finitely many steps and ends with an
// exact Newton step. Certificate (JF4), in velocity units with D = diag(Q):
//   ρ = ‖D (x − P(x − D⁻¹g))‖∞ / v̄ ≤ tol,   v̄ = max(‖q‖∞, ‖Q‖∞‖β‖∞),
// the velocity error of the projected scaled gradient against the speeds in the problem. If it is not
// met in max_iterations, projected Gauss–Seidel sweeps (monotone, always feasible) finish the job
// and the result says whether they met it.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <vector>

namespace impetus {

struct JointFrictionOptions {
  /// Relative tolerance of (JF4). Default 1e-12 (the program is small and dense: solved to
  /// rounding). Range 1e-15 … 1e-3.
  double tolerance = 1e-12;
  /// Projected Newton iterations; then Gauss–Seidel sweeps. Defaults 50 and 1000.
  int max_iterations = 50;
  int fallback_sweeps = 1000;
};

struct JointFrictionResult {
  int iterations = 0;        // projected Newton iterations
  int sweeps = 0;            // Gauss–Seidel sweeps of the fallback (0 when not needed)
  double residual = 0;       // (JF4), relative
  bool converged = true;
};

class JointFrictionSolver {
 public:
  explicit JointFrictionSolver(JointFrictionOptions options = {}) : options_(options) {}

  /// Solves (JF1)–(JF2) for one tree. H_llt: the Cholesky factor of H (n×n). dofs (k): local indices
  /// of the coordinates with friction, bound (k): β ≥ 0. On return x (k) holds the impulses and
  /// v (n) = q̇* + H⁻¹E_F x. Allocates only when k or n grows. Never throws.
  JointFrictionResult solve(const Eigen::LLT<Eigen::MatrixXd>& H_llt, const Eigen::VectorXd& v_star,
                            const std::vector<int>& dofs, const Eigen::VectorXd& bound, Eigen::VectorXd& x,
                            Eigen::VectorXd& v);

  const JointFrictionOptions& options() const { return options_; }

 private:
  double objective(const Eigen::VectorXd& x) const { return 0.5 * x.dot(Q_ * x) + x.dot(q_); }
  void project(Eigen::VectorXd& x) const { x = x.cwiseMax(-bound_).cwiseMin(bound_); }

  JointFrictionOptions options_;
  Eigen::MatrixXd Hinv_, Q_, QFF_;
  Eigen::VectorXd q_, bound_, g_, d_, trial_, rhs_, step_;
  Eigen::LLT<Eigen::MatrixXd> QFF_llt_;
  std::vector<int> free_, binding_;
};

}  // namespace impetus
