#include "control/inverse_dynamics/id_baselines.hpp"

namespace impetus {
namespace {

bool eliminate(ActuatedElimination& elimination, const InverseDynamicsProblem& problem,
               InverseDynamicsSolution& solution) {
  solution.stats = {};
  solution.fallbacks = 0;
  if (elimination.build(problem)) return true;
  solution.stats.status = SolveStatus::Failed;
  solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
  return false;
}

}  // namespace

void IdNoContact::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  if (!eliminate(elimination_, problem, solution)) return;
  p_parked_.fit(p_, 3 * elimination_.nc(), 1);
  p_.setZero();
  split_impulses(p_, elimination_.nc(), solution);
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
}

void IdSensed::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  if (!eliminate(elimination_, problem, solution)) return;
  p_parked_.fit(p_, 3 * elimination_.nc(), 1);
  p_.setZero();
  if (problem.sensed.size() == p_.size()) p_ = problem.sensed;
  split_impulses(p_, elimination_.nc(), solution);
  elimination_.torque(p_, solution.tau);
  elimination_.velocity(p_, solution.v_plus);
}

}  // namespace impetus
