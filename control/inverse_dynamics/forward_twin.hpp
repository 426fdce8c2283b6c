// The right inverse by its definition (FT1) [mine]: τ such that the twin forward model, solved at τ,
// returns P v⁺ = q̇_des. id_qp_coulomb's certified fallback where Stage I's equilibrium LCP (id_qp.hpp QP6)
// has no usable solution (phase I's set cycles and the budget equation has no root: two solutions of (QP6)
// at one κ̄, or a squeeze that keeps κ(τ) ahead of κ̄: the arm holding its box).
//
// The forward max_dissipation's v⁺ is unique at any τ (phase I and phase II are strictly convex in v), even
// where its impulses are not; F(τ) = P v⁺(τ) is continuous and piecewise smooth. Newton on F(τ) = q̇_des:
//   τ_{k+1} = τ_k − α S⁺ (P v⁺(τ_k) − q̇_des),   S ≈ ∂F/∂τ at τ_k                                  (FT2)
// with α halved until the error falls. S is forward differences at the start (na forward solves), then
// Broyden's secant update after each step taken; differenced again where the secant S gives no descent.
// S is the twin's own Jacobian:
// one from held contact rows (P K_𝒜 Pᵀ) was tried and stalls or diverges on the arm (phase II has no
// complementarity: a contact under the budget cap may carry impulse and separate, so no row set is the
// piece's). S⁺ (least norm, rank-cut) leaves the squeeze — directions of τ that move no joint velocity —
// where Stage I or II put it. The answer is kept only when the twin at the last τ meets q̇_des to
// kTwinVelocity (a certificate by the forward model itself); its impulses and v⁺ are then the twin's.
#pragma once

#include <Eigen/Dense>
#include <memory>

#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/result.hpp"
#include "control/inverse_dynamics/id_problem.hpp"

namespace impetus {

struct ForwardTwinReport {
  int iterations = 0;        // forward solves of the last correct()
  double velocity_error = 0;  // |P v⁺(τ) − q̇_des|∞ at the returned τ (rad/s or m/s)
  double start_error = 0;     // the same at the candidate τ
  bool improved = false;      // correct() returned false with the twin's τ, p, v⁺: above the stop, below start_error
};

class ForwardTwin {
 public:
  /// The twin: max_dissipation with the k-edge pyramid, solved to its tightest tolerances.
  explicit ForwardTwin(int friction_edges);
  /// From the candidate τ (na), Newton (FT2) until the forward model meets q̇_des; on success τ, the forward
  /// impulses p (3nc) and v⁺ (nv) are the answer's. False when it does not converge: τ unchanged, or, when the
  /// twin's last τ is nearer q̇_des than the candidate (last_report().improved), τ, p and v⁺ the twin's there.
  bool correct(const InverseDynamicsProblem& problem, const ActuatedElimination& elimination, Eigen::VectorXd& tau,
               Eigen::VectorXd& p, Eigen::VectorXd& v_plus);
  const ForwardTwinReport& last_report() const { return report_; }

 private:
  /// P v⁺(τ) − q̇_des from the forward solve at τ into result_.
  double forward(const InverseDynamicsProblem& problem, const ActuatedElimination& elimination,
                 const Eigen::VectorXd& tau, Eigen::VectorXd& error);

  MaxDissipationModel model_;
  std::unique_ptr<ContactWorkspace> workspace_;
  ContactProblem shifted_;   // the island with v* + M⁻¹Pᵀτ
  ContactResult result_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> pseudo_inverse_;   // S⁺ (FT2)
  ForwardTwinReport report_;
};

}  // namespace impetus
