// Forward kinematics of the step's state, computed once per step: the pass that ends a step (penetration
// recovery's, at q⁺) is the next step's stage 1 and what the divergence monitor and the recorder read,
// instead of four passes at the same (q, v).
#pragma once

#include "sim/step_data.hpp"
#include "sim/worker_pool.hpp"

namespace impetus {

/// data.multibody ← the forward kinematics at (q, v), skipped when it holds that of exactly these (q, v),
/// bit for bit: forward_kinematics reads nothing else, so a skipped pass leaves the bits it would write. With a
/// pool, the trees on its threads (forward_kinematics_of_tree: the same bits).
void kinematics_at(const MultibodyModel& model, StepData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   WorkerPool* pool = nullptr);

/// True when data.multibody holds the forward kinematics at exactly (q, v).
bool holds_kinematics_of(const StepData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

}  // namespace impetus
