// The baselines of seed 004 §7.3 that share the ID machinery (id_problem.hpp):
//   id_no_contact   τ = τ_c = G⁻¹(q̇_des − P v*): inverse dynamics that ignores contact (p = 0 in ID2);
//   id_sensed       τ = τ_c + T_τ p_sensed (ID2, seed 004's "virtual contact force sensing",
//                   ID(t_{i−1}) and ID(t_{i−2})): the impulses the simulator applied one or two steps
//                   earlier, matched to this step's contacts by ContactKey (0 for contacts that are new).
// Neither solves anything, so neither fails except on a singular joint-space inertia.
#pragma once

#include "control/inverse_dynamics/id_solver.hpp"

namespace impetus {

class IdNoContact final : public InverseDynamicsSolver {
 public:
  std::string_view name() const override { return "id_no_contact"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;

 private:
  ActuatedElimination elimination_;
  Eigen::VectorXd p_;   // [p_N; p_S; p_T] of the call, kept from call to call
  ParkedBySize<Eigen::VectorXd> p_parked_;   // p_ at the other sizes met (a trot's held contacts)
};

class IdSensed final : public InverseDynamicsSolver {
 public:
  std::string_view name() const override { return "id_sensed"; }
  /// problem.sensed (3nc): [p_N; p_S; p_T] measured; absent means no contact was sensed.
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;

 private:
  ActuatedElimination elimination_;
  Eigen::VectorXd p_;   // [p_N; p_S; p_T] of the call, kept from call to call
  ParkedBySize<Eigen::VectorXd> p_parked_;   // p_ at the other sizes met (a trot's held contacts)
};

}  // namespace impetus
