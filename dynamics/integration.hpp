// Integration on the configuration manifold (stage 7): q⁺ = q ⊕ dt·v.
#pragma once

#include "dynamics/model.hpp"
#include "dynamics/spatial.hpp"

namespace impetus {

/// q_out = q ⊕ dt·v: joint coordinates by Euler; a floating joint's centre of mass by c⁺ = c + dt·v_WC,
/// its orientation by the exponential map R⁺ = exp(dt·[ω]×)·R, i.e. quaternion exp(dt·ω/2) ⊗ q (ω in W),
/// and its origin by p⁺ = c⁺ − R⁺·p_LC (the body turns about its centre of mass); a floating joint under a
/// link by p_JL⁺ = p_JL + dt·ṗ_JL and R_JL⁺ = R_JL·exp(dt·[ω_JL]×), ω_JL in L's axes (model.hpp).
/// q_out may alias q.
void integrate(const MultibodyModel& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
               Eigen::VectorXd& q_out);

/// Projects q onto the joint limits: each limited 1-DoF joint's coordinate clamped to [lower, upper]; in a
/// tree with mimic joints, each leader to the limits of its column (dynamics/mimic.hpp), its followers
/// then set from it.
/// A limit is a gap row like a contact's, and is kept the same way: the contact stage stops a joint
/// at its limit (L·v⁺ ≥ −max(φ_L, 0)/dt, sim/assembly.cpp), and a violation that exists anyway (round-off
/// of q ⊕ dt·v, a joint started beyond its limit) is removed here, in the configuration, not by a
/// velocity −φ_L/dt that would stay in the state. Without it the no-slip model's rows can be
/// infeasible: a finger 2e-10 rad past its limit must turn back while its tip may not slide.
void project_onto_joint_limits(const MultibodyModel& model, Eigen::VectorXd& q);

/// Unit quaternion (w, x, y, z) stored at q[i..i+3] → Eigen quaternion.
Eigen::Quaterniond quaternion_at(const Eigen::VectorXd& q, int i);
void set_quaternion_at(Eigen::VectorXd& q, int i, const Eigen::Quaterniond& quat);

}  // namespace impetus
