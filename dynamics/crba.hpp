// Composite-rigid-body algorithm (RBDA §6.2): the joint-space inertia M(q) of every tree.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// Writes data.M[t] for every tree t. Needs forward_kinematics at q.
void crba(const MultibodyModel& model, MultibodyData& data);

}  // namespace impetus
