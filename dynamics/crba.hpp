// Composite-rigid-body algorithm (RBDA §6.2): the joint-space inertia M(q) of every tree.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// Writes data.M[t] for every tree t. Needs forward_kinematics at q.
void crba(const MultibodyModel& model, MultibodyData& data);

/// data.M[t] of tree t alone (and its links' composite inertias): the trees in any order or at once.
void crba_of_tree(const MultibodyModel& model, MultibodyData& data, int t);

}  // namespace impetus
