// Recursive Newton–Euler (RBDA §5.3, world coordinates): τ = M(q)v̇ + h(q, v), gravity included.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// Writes and returns data.tau = M v̇ + h for the whole model. Needs forward_kinematics at (q, v).
const Eigen::VectorXd& rnea(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& vdot);

/// The bias h(q, v) = C(q, v)v + g(q): rnea with v̇ = 0.
const Eigen::VectorXd& bias_forces(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v);

/// bias_forces for one tree: writes its segment of data.tau (and its links' a, f). Trees exchange no force, so
/// they may be computed in any order or at once, with the bits of bias_forces.
void bias_forces_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v, int tree);

/// crba_of_tree, then bias_forces_of_tree, with their bits; the tree's h (tau, a, f) kept while its links' I and S
/// (crba's compare, which serves both), its links' V and its v are bitwise those of the last call.
void crba_and_bias_forces_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v, int tree);

}  // namespace impetus
