// Semismooth Newton method for mixed complementarity problems, on the Fischer–Burmeister
// reformulation, with an Armijo line search and a Levenberg–Marquardt safeguard.
//
//   MCP(F): find z ∈ ℝⁿ such that, component by component,
//       free i:      F_i(z) = 0,
//       bounded i:   0 ≤ z_i  ⊥  F_i(z) ≥ 0.                                                  (S1)
//
//   Fischer–Burmeister function (Fischer 1992):
//       φ(a, b) = a + b − √(a² + b²),      φ(a, b) = 0  ⇔  a ≥ 0, b ≥ 0, a·b = 0.               (S2)
//   (S1) ⇔ Φ(z) = 0 with Φ_i = F_i (free), Φ_i = φ(w_i z_i, F_i(z)) (bounded); merit Ψ = ½‖Φ‖².  (S3)
//   The weights w_i > 0 (McpFunction::weight) leave the solutions unchanged; they set which of z_i and
//   F_i counts as "near zero" when neither is, i.e. which side of the pair a Newton step drives to zero.
//
//   Generalized Jacobian (De Luca, Facchinei & Kanzow, Math. Prog. 75, 1996, Prop. 3.1): the row i of
//   H ∈ ∂Φ(z) is ∇F_iᵀ (free) or  w_i α_i e_iᵀ + β_i ∇F_iᵀ  (bounded), with
//       (α_i, β_i) = (1 − a/ρ, 1 − b/ρ),  a = w_i z_i,  b = F_i,  ρ = √(a² + b²) > 0;
//       (1 − 1/√2, 1 − 1/√2) at a = b = 0,                                                       (S4)
//   the latter an element of ∂φ(0, 0) = {(1 − ξ, 1 − η) : ξ² + η² ≤ 1}.
//
//   Direction, each iteration k:
//     Newton:  H d = −Φ, accepted when H has full numerical rank and d descends fast enough,
//              ∇Ψᵀd ≤ −ρ_d ‖d‖^p,  ∇Ψ = HᵀΦ   (the test of DFK 1996, step 3);                   (S5)
//     H counts as singular when a pivot of its partial-pivoting LU factors is below rank_threshold times the
//              largest: exact for the ECP's singular H (zero columns stay zero under row operations, so
//              their pivot is 0 up to round-off), and a fraction of full pivoting's cost (Eigen's FullPivLU
//              was 45 % of the perf samples of scenes/fast_drop_small.xml under ecp; the contact stage
//              took 0.58× the time without it). A near-singular H it misses gives a long, short-stepped
//              Newton direction, which (S6) replaces.
//     When H is singular (numerical rank r < n), the minimum-norm Gauss–Newton step
//              d = −H⁺Φ  (complete orthogonal decomposition, the same rank threshold)              (S5′)
//              instead: ∇Ψᵀd = −‖P_range(H) Φ‖² ≤ 0, so it descends unless Φ ⊥ range(H), and where the
//              solutions form a manifold (a slip rate ς left free by p_n = 0: an exact zero column of H)
//              it converges quadratically (Ben-Israel, "A Newton–Raphson method for the solution of systems
//              of equations", J. Math. Anal. Appl. 15, 1966). The LM step (S6) is no substitute there: its
//              λ ≥ λ_min = lm_min·max‖H_:j‖² (7526² on a box's face rows) exceeds σ² of the small but
//              non-zero singular values of the well-posed part (1.3e-4 at a face landing of
//              scenes/fast_drop_small.xml, step 499), and the residual along them shrinks by only
//              σ²/(σ² + λ) ≈ 3 % per iteration: 54 of that scene's 80 failed ECP solves crawled so at 1e-9.
//     else, or when the Armijo step along it is short (t < t_short), Levenberg–Marquardt:
//              (HᵀH + λ I) d = −HᵀΦ,  λ = max(ν‖Φ‖₂, λ_min)                                        (S6)
//              (Fan & Yuan, Computing 74, 2005: λ ∝ ‖Φ‖ keeps quadratic convergence under a local error
//              bound, also where the solution set is not isolated: rank-deficient contact sets, a body's
//              face parallel to the plane while separated, a slip rate left free by a zero normal impulse).
//              ν adapts as in a trust region: ÷4 after a step with t ≥ t_short, ×10 after none (then the
//              LM step is tried again, up to lm_attempts times). A larger λ turns d towards −∇Ψ and shortens
//              it: the remedy where the Newton direction is huge and nearly tangent to a kink of Φ (an
//              active-set change of the contact), which a backtracking search would only crawl along.
//              Of the short Newton step and the LM step, the one with the smaller Ψ is taken.
//   Armijo line search on Ψ:  Ψ(z + t d) ≤ Ψ(z) + γ t ∇Ψᵀd,  t = 1, β, β², …                  (S7)
//   Smoothing (optional, solve(…, μ₀ > 0)): the pairs use φ_μ(a, b) = a + b − √(a² + b² + 2μ²), whose
//   zeros are a, b > 0 with ab = μ² (Kanzow, SIAM J. Matrix Anal. Appl. 17, 1996). The iteration runs
//   on Φ_μ until ‖Φ_μ‖∞ ≤ μ, then μ ← μ·smoothing_reduction, and on the true Φ once μ < tolerance.  (S8)
//   Every pair is then strictly inside both of its branches and the path of solutions as μ → 0 picks
//   the branch, where the plain method, at a point with one argument near 0, keeps that argument's
//   branch (a side face of a hull with a zero multiplier is never reached by the ECP, for instance).
//   When no direction gives an Armijo step, the method stops (LineSearchFailed) at its last iterate,
//   which is its best (the search is monotone).
//
//   Convergence: ‖Φ(z)‖∞ ≤ tolerance. The caller scales unknowns and rows so that this is meaningful.
//
// Glossary
//   symbol   size   meaning                                             code
//   z        n      unknowns                                            z
//   F        n      the MCP function, with Jacobian J_F (n×n)           McpFunction::evaluate
//   Φ        n      FB residual (S3)                                    phi_
//   H        n×n    element of the generalized Jacobian of Φ (S4)      H_
//   Ψ        1      merit ½‖Φ‖²                                         psi
//   d        n      search direction                                    d_
//
// No allocation once warm: buffers are members, sized to the largest n seen.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/cod_solve.hpp"

namespace impetus {

/// The function F of an MCP (S1) with its Jacobian. Implemented by the caller (e.g. the ECP model).
class McpFunction {
 public:
  virtual ~McpFunction() = default;
  virtual int size() const = 0;
  /// true for the components with 0 ≤ z_i ⊥ F_i ≥ 0, false for free components (F_i = 0).
  virtual bool bounded(int i) const = 0;
  /// w_i of (S3) for a bounded component (> 0); 1 unless the caller knows the pair's scales differ.
  virtual double weight(int /*i*/) const { return 1.0; }
  /// F(z) into F (n); when J is not null, the Jacobian ∂F/∂z into *J (n×n). Must not throw; non-finite
  /// values are allowed (the solver treats them as a failed trial point).
  virtual void evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) = 0;
};

struct SemismoothNewtonOptions {
  /// Stop when ‖Φ‖∞ ≤ tolerance (units: those of the caller's scaled rows). Range > 0.
  double tolerance = 1e-10;
  /// Iteration cap. Range ≥ 1.
  int max_iterations = 50;
  /// Armijo constant γ of (S7). Range (0, ½).
  double armijo = 1e-4;
  /// Backtracking factor β of (S7). Range (0, 1).
  double backtrack = 0.5;
  /// Smallest step size t tried before the direction is declared a failure. Range (0, 1).
  double min_step = 1e-10;
  /// Descent test of the Newton direction (S5): ρ_d and p (DFK 1996 use p > 2).
  double descent_rho = 1e-10;
  double descent_power = 2.1;
  /// Numerical rank of H: LU pivots below rank_threshold·(largest pivot) count as zero. Range (0, 1).
  double rank_threshold = 1e-12;
  /// Smallest LM parameter λ_min of (S6), relative to the largest diagonal entry of HᵀH. Range > 0.
  double lm_min = 1e-14;
  /// A Newton step with t below this counts as short (S6). Range (0, 1].
  double short_step = 0.1;
  /// LM tries per iteration, ν growing ×10 each (S6). Range ≥ 1.
  int lm_attempts = 6;
  /// Smallest ν of (S6). Range > 0.
  double lm_factor_min = 1e-3;
  /// Stop as Stalled when Ψ_k > stall_ratio · Ψ_{k−stall_window}: the caller can restart elsewhere
  /// instead of spending the iteration cap. Window in 1 … kStallHistory − 1 (0: never); ratio in (0, 1).
  int stall_window = 8;
  double stall_ratio = 0.9;
  /// Factor by which the smoothing μ of (S8) shrinks between phases. Range (0, 1).
  double smoothing_reduction = 0.1;
};

enum class SemismoothNewtonStatus {
  Converged,           // ‖Φ‖∞ ≤ tolerance
  MaxIterations,       // the iteration cap was reached
  LineSearchFailed,    // neither the Newton nor the LM direction gave an Armijo step (S7)
  NonFinite,           // F or its Jacobian was not finite at the starting point
  Stalled,             // Ψ decreased by less than stall_ratio over stall_window iterations: a local
                       // minimum of the merit that is no solution, or a crawl along a kink
};
const char* to_string(SemismoothNewtonStatus status);

struct SemismoothNewtonResult {
  SemismoothNewtonStatus status = SemismoothNewtonStatus::Converged;
  int iterations = 0;          // directions computed (Newton or LM)
  int lm_iterations = 0;       // of which Levenberg–Marquardt (S6)
  int evaluations = 0;         // calls of McpFunction::evaluate
  double residual = 0;         // ‖Φ(z)‖∞ at the returned z
  double lm_parameter = 0;     // the last λ of (S6) used; 0 when every step was a Newton step
  int worst_row = -1;          // argmax_i |Φ_i(z)| at the returned z (for failure reports)
  bool converged() const { return status == SemismoothNewtonStatus::Converged; }
};

/// φ(a, b) of (S2), or φ_μ of (S8) for μ > 0, and an element (da, db) of its generalized gradient (S4).
double fischer_burmeister(double a, double b, double* da = nullptr, double* db = nullptr, double mu = 0);

class SemismoothNewton {
 public:
  explicit SemismoothNewton(SemismoothNewtonOptions options = {}) : options_(options) {}

  /// Solves MCP(F) from the starting point z (n = F.size()); z is overwritten with the last iterate,
  /// which is the best one found (the line search is monotone). smoothing: μ₀ of (S8), 0 for the plain
  /// method. Never throws.
  SemismoothNewtonResult solve(McpFunction& F, Eigen::VectorXd& z, double smoothing = 0);

  /// Φ(z) of (S3) (and H of (S4) when H is not null), for tests and diagnostics.
  void residual(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H);

  const SemismoothNewtonOptions& options() const { return options_; }
  SemismoothNewtonOptions& options() { return options_; }

 private:
  /// Φ and (optionally) H at z from F's values; returns false when a value is not finite.
  bool assemble(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H);
  /// A point found by a line search: z + t d, its Φ and Ψ.
  struct Trial {
    Eigen::VectorXd z, phi;
    double t = 0, psi = 0;
  };
  /// The LM direction (S6) into d_.
  void levenberg_marquardt_direction(double lambda);
  /// Armijo search (S7) along d_ from z for t = 1, β, … ≥ t_min; the point found goes into `trial`.
  bool line_search(McpFunction& F, const Eigen::VectorXd& z, double psi, double slope, double t_min,
                   int& evaluations, Trial& trial);
  /// Moves z to the trial point, with Φ and H there.
  void accept(McpFunction& F, Eigen::VectorXd& z, double& psi, Trial& trial, int& evaluations);

  SemismoothNewtonOptions options_;
  static constexpr int kStallHistory = 32;
  double mu_ = 0;                          // smoothing of the current phase (S8)
  double psi_history_[kStallHistory] = {};

  // --- scratch, sized to the largest n seen ---
  Eigen::VectorXd F_, phi_, d_, grad_;
  Eigen::VectorXd rhs_;   // −Φ for the LU solve: solved into d_ from a vector of its own, since in place
                          // PartialPivLU's permutation allocates a mask
  Trial newton_, lm_;
  Eigen::MatrixXd J_, H_, HtH_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;   // (S5′), when lu_ finds H singular
  CodSolveScratch cod_scratch_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

}  // namespace impetus
