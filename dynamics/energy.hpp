// Kinetic and potential energy of the whole model.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// T = ½ Σᵢ Vᵢᵀ Iᵢ Vᵢ (= ½ vᵀMv). Needs forward_kinematics.
double kinetic_energy(const MultibodyModel& model, const MultibodyData& data);
/// U = −Σᵢ mᵢ gᵀ p_WCᵢ (zero at z = 0 for g along −z). Needs forward_kinematics.
double potential_energy(const MultibodyModel& model, const MultibodyData& data);

}  // namespace impetus
