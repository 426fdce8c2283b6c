// The solve both seed-000 models end in: the normal LCP of a velocity projection by principal
// pivoting, certified, with Lemke's method as the fallback.
//
//     v⁺ = argmin ½ (v − v_f)ᵀ W (v − v_f)   s.t.  G v = 0,  U v ≥ −b                          (UP1)
// (KKT form: principal_pivoting.hpp, PP1.) The equality rows G are already in the factor
// (FIND-INDICES for no-slip, none for viscous).
//
// Certificate, checked on every result whatever produced it (dimensionless, as lemke.hpp L6):
//     ρ = max_u max( −z_u / z_ref,  −w_u / s_v,  z_u w_u / (z_ref s_v) ),                         (UP2)
//     w = U v⁺ + b,  z_ref = max(‖z‖∞, tiny),  s_v the problem's velocity scale
// (projection_velocity_scale). Decision: principal pivoting's result is kept when it reports
// Solved and ρ ≤ certificate_tolerance (status Solved); otherwise the dense LCP goes to Lemke with
// regularisation (status Fallback when Lemke meets its certificate); when both fail, the result
// with the smaller ρ is returned (status Failed). Every path says why in the statistics' message.
#pragma once

#include "contact/result.hpp"
#include "contact/solvers/projection_lemke.hpp"
#include "contact/solvers/projection_options.hpp"

namespace impetus {

/// What one solve did, beyond SolverStatistics.
struct ProjectionReport {
  PivotingReport pivoting;        // the principal pivoting attempt (when run)
  bool lemke_run = false;         // the dense LCP was solved (fallback or solver = lemke)
  LemkeResult lemke;              // its outcome
  double residual = 0;            // ρ (UP2) of the result returned
  bool free_motion = false;       // v⁺ = v_f taken without a solve: it violates no row (contact/free_motion.hpp)
};

/// ρ of (UP2) for z, w (n) at velocity scale s_v.
double projection_residual(const Eigen::Ref<const Eigen::VectorXd>& z, const Eigen::Ref<const Eigen::VectorXd>& w,
                           double velocity_scale);
/// The statistics and report UnilateralProjection::solve gives for an answer taken without a pivot, as the models'
/// one-contact closed forms are (no_slip/ and viscous/single_contact.hpp): Solved, one solve of (D2), `active` rows
/// active, ρ = `residual` at velocity scale s_v.
void solved_without_pivot(double residual, double velocity_scale, int active, SolverStatistics& stats,
                        ProjectionReport& report);
/// The same for v⁺ = v_f, z = 0, λ_G = 0 taken because v_f violates no row (free_motion.hpp FM1–FM2): ρ = 0, no
/// solve of (D2), `free_motion` set.
void solved_by_free_motion(double velocity_scale, SolverStatistics& stats, ProjectionReport& report);

class UnilateralProjection {
 public:
  /// Solves (UP1). `factor` holds G on entry (reset for W and v_f); `guess` (n, or null) warm-starts
  /// principal pivoting. Writes z (n), v⁺ (nv), λ_G (k_G) and stats (status, iterations = pivots
  /// of both methods, attempts, regularization, residual = ρ, message). Never throws.
  void solve(const InertiaOperator& W, DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
             const Eigen::VectorXd* guess, const ProjectionOptions& options, Eigen::VectorXd& z,
             Eigen::VectorXd& v_plus, Eigen::VectorXd& lambda_G, SolverStatistics& stats);
  /// The same with z (n) and λ_G (k_G) of their sizes already (views of grow-only storage:
  /// contact/solvers/grow_only.hpp) and `guess` empty when there is none.
  void solve(const InertiaOperator& W, DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
             const Eigen::Ref<const Eigen::VectorXd>& guess, const ProjectionOptions& options,
             Eigen::Ref<Eigen::VectorXd> z, Eigen::VectorXd& v_plus, Eigen::Ref<Eigen::VectorXd> lambda_G,
             SolverStatistics& stats);

  const ProjectionReport& report() const { return report_; }

 private:
  PrincipalPivoting pivoting_;
  ProjectionLemke dense_;
  LemkeSolver lemke_;
  ProjectionReport report_;
  VectorView w_{nullptr, 0};   // (n) grow-only (contact/solvers/grow_only.hpp)
  Eigen::VectorXd w_storage_;
  Eigen::VectorXd z_lemke_, w_lemke_, v_lemke_, lambda_lemke_;   // the dense LCP's (sized by it)
};

}  // namespace impetus
