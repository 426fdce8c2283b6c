// Integration on the configuration manifold (stage 6): q⁺ = q ⊕ dt·v.
#pragma once

#include "dynamics/model.hpp"
#include "dynamics/spatial.hpp"

namespace impetus {

/// q_out = q ⊕ dt·v: joint coordinates by Euler; a floating joint's centre of mass by c⁺ = c + dt·v_WC,
/// its orientation by the exponential map R⁺ = exp(dt·[ω]×)·R, i.e. quaternion exp(dt·ω/2) ⊗ q (ω in W),
/// and its origin by p⁺ = c⁺ − R⁺·p_LC (the body turns about its centre of mass).
/// q_out may alias q.
void integrate(const MultibodyModel& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
               Eigen::VectorXd& q_out);

/// Unit quaternion (w, x, y, z) stored at q[i..i+3] → Eigen quaternion.
Eigen::Quaterniond quaternion_at(const Eigen::VectorXd& q, int i);
void set_quaternion_at(Eigen::VectorXd& q, int i, const Eigen::Quaterniond& quat);

}  // namespace impetus
