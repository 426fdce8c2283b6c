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
  const Eigen::VectorXd p = Eigen::VectorXd::Zero(3 * elimination_.nc());
  split_impulses(p, elimination_.nc(), solution);
  elimination_.torque(p, solution.tau);
  elimination_.velocity(p, solution.v_plus);
}

void IdSensed::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  if (!eliminate(elimination_, problem, solution)) return;
  Eigen::VectorXd p = Eigen::VectorXd::Zero(3 * elimination_.nc());
  if (problem.sensed.size() == p.size()) p = problem.sensed;
  split_impulses(p, elimination_.nc(), solution);
  elimination_.torque(p, solution.tau);
  elimination_.velocity(p, solution.v_plus);
}

}  // namespace impetus
