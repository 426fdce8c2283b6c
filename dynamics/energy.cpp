#include "dynamics/energy.hpp"

namespace impetus {

double kinetic_energy(const MultibodyModel& model, const MultibodyData& data) {
  double T = 0;
  for (std::size_t i = 0; i < model.links.size(); ++i) T += 0.5 * data.V[i].dot(data.I[i] * data.V[i]);
  return T;
}

double potential_energy(const MultibodyModel& model, const MultibodyData& data) {
  double U = 0;
  for (std::size_t i = 0; i < model.links.size(); ++i)
    U -= model.links[i].inertia.mass * model.gravity.dot(data.p_WC[i]);
  return U;
}

}  // namespace impetus
