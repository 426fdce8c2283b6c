// Forward kinematics (stage 1): link poses, spatial velocities, motion subspaces and inertias in W.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// Writes data.X_WL, V, p_WC, I and S at (q, v).
void forward_kinematics(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v);

/// forward_kinematics for the links of one tree only. A tree's links depend on no other tree's, so the
/// trees may be computed in any order or at once, with the bits of forward_kinematics.
void forward_kinematics_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, int tree);

/// The velocity-product term Ṡᵢq̇ᵢ of link i's joint (RBDA eq. 5.7 in world coordinates): Vᵢ ×ᵐ Sᵢq̇ᵢ for
/// joints whose S is fixed in the link; for a floating joint on the world, whose S moves with p_WC,
/// [0; v_WC × ω]; for the planar joint and a floating joint under a link, whose slides are fixed in the
/// parent P and turns in L, V_P ×ᵐ S_slide·v_slide + Vᵢ ×ᵐ S_turn·v_turn (model.hpp).
Vec6 joint_bias_acceleration(const MultibodyModel& model, const MultibodyData& data, int link,
                             const Eigen::VectorXd& v);

}  // namespace impetus
