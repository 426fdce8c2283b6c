// Semismooth Newton method for mixed complementarity problems, on the Fischer–Burmeister
// reformulation, with an Armijo line search and a Levenberg–Marquardt safeguard.
//
//   MCP(F): find z ∈ ℝⁿ such that, component by component,
//       free i:      F_i(z) = 0,
//       bounded i:   0 ≤ z_i  ⊥  F_i(z) ≥ 0.                                                  (S1)
//
//   Fischer–Burmeister function (Fischer 1992):
//       φ(a, b) = a + b − √(a² + b²),      φ(a, b) = 0  ⇔  a ≥ 0, b ≥ 0, a·b = 0.               (S2)
//   (S1) ⇔ Φ(z) = 0 with Φ_i = F_i (free), Φ_i = φ(z_i, F_i(z)) (bounded); merit Ψ = ½‖Φ‖².     (S3)
//
//   Generalized Jacobian (De Luca, Facchinei & Kanzow, Math. Prog. 75, 1996, Prop. 3.1): the row i of
//   H ∈ ∂Φ(z) is ∇F_iᵀ (free) or  α_i e_iᵀ + β_i ∇F_iᵀ  (bounded), with
//       (α_i, β_i) = (1 − a/ρ, 1 − b/ρ),  ρ = √(a² + b²) > 0;   (1 − 1/√2, 1 − 1/√2) at a = b = 0,   (S4)
//   the latter an element of ∂φ(0, 0) = {(1 − ξ, 1 − η) : ξ² + η² ≤ 1}.
//
//   Direction, each iteration k:
//     Newton:  H d = −Φ, accepted when H has full numerical rank and d descends fast enough,
//              ∇Ψᵀd ≤ −ρ_d ‖d‖^p,  ∇Ψ = HᵀΦ   (the test of DFK 1996, step 3);                   (S5)
//     else Levenberg–Marquardt:  (HᵀH + λ I) d = −HᵀΦ,  λ = max(‖Φ‖₂, λ_min)  (Fan & Yuan,
//              Computing 74, 2005: λ = ‖Φ‖ keeps quadratic convergence under a local error bound, also
//              where the solution set is not isolated: rank-deficient contact sets, a body's face parallel
//              to the plane while separated, a frictional slip rate left free by a zero normal impulse). (S6)
//   Armijo line search on Ψ:  Ψ(z + t d) ≤ Ψ(z) + γ t ∇Ψᵀd,  t = 1, β, β², …                  (S7)
//   When the Newton step finds no step size, the LM direction is tried from the same point; when that
//   fails too, the method stops (LineSearchFailed) at its last, best, iterate.
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

namespace impetus {

/// The function F of an MCP (S1) with its Jacobian. Implemented by the caller (e.g. the ECP model).
class McpFunction {
 public:
  virtual ~McpFunction() = default;
  virtual int size() const = 0;
  /// true for the components with 0 ≤ z_i ⊥ F_i ≥ 0, false for free components (F_i = 0).
  virtual bool bounded(int i) const = 0;
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
  /// Numerical rank of H: pivots below rank_threshold·(largest pivot) count as zero. Range (0, 1).
  double rank_threshold = 1e-12;
  /// Smallest LM parameter λ_min of (S6), relative to the largest diagonal entry of HᵀH. Range > 0.
  double lm_min = 1e-14;
};

enum class SemismoothNewtonStatus {
  Converged,           // ‖Φ‖∞ ≤ tolerance
  MaxIterations,       // the iteration cap was reached
  LineSearchFailed,    // neither the Newton nor the LM direction gave an Armijo step (S7)
  NonFinite,           // F or its Jacobian was not finite at the starting point
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

/// φ(a, b) of (S2), and an element (da, db) of its generalized gradient (S4).
double fischer_burmeister(double a, double b, double* da = nullptr, double* db = nullptr);

class SemismoothNewton {
 public:
  explicit SemismoothNewton(SemismoothNewtonOptions options = {}) : options_(options) {}

  /// Solves MCP(F) from the starting point z (n = F.size()); z is overwritten with the last iterate,
  /// which is the best one found (the line search is monotone). Never throws.
  SemismoothNewtonResult solve(McpFunction& F, Eigen::VectorXd& z);

  /// Φ(z) of (S3) (and H of (S4) when H is not null), for tests and diagnostics.
  void residual(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H);

  const SemismoothNewtonOptions& options() const { return options_; }
  SemismoothNewtonOptions& options() { return options_; }

 private:
  /// Φ and (optionally) H at z from F's values; returns false when a value is not finite.
  bool assemble(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H);
  /// The LM direction (S6) into d_.
  void levenberg_marquardt_direction(double lambda);
  /// Armijo search (S7) along d_ from z; on success z, phi_, psi are updated. Returns success.
  bool line_search(McpFunction& F, Eigen::VectorXd& z, double& psi, double slope, int& evaluations);

  SemismoothNewtonOptions options_;

  // --- scratch, sized to the largest n seen ---
  Eigen::VectorXd F_, phi_, d_, grad_, z_trial_, phi_trial_;
  Eigen::MatrixXd J_, H_, HtH_;
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

}  // namespace impetus
