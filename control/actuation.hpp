// Applied generalized forces τ of stage 3: external loads on bodies and joint actuators.
//
//   load       a wrench (f, τ) in the world frame at a body's centre of mass, each component
//              c + a·sin(2π·frequency·t + phase), active for start ≤ t < end;
//   actuator   on a 1-DoF joint: τ = effort + kp·(target − q) + kd·(target_velocity − q̇), clamped to
//              the joint's effort limit when it has one.
// Both enter v* = v + dt·M⁻¹(τ − h) explicitly, evaluated at the start of the step.
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <vector>

#include "dynamics/data.hpp"

namespace impetus {

/// One component-wise sinusoid-plus-offset signal: c + a ∘ sin(2π f t + φ).
struct Signal3 {
  Eigen::Vector3d constant = Eigen::Vector3d::Zero();
  Eigen::Vector3d amplitude = Eigen::Vector3d::Zero();
  Eigen::Vector3d phase = Eigen::Vector3d::Zero();     // rad
  double frequency = 0;                                // Hz
  Eigen::Vector3d at(double t) const;
};

struct ExternalLoad {
  int link = -1;
  Signal3 force;                                       // N, world frame, at the centre of mass
  Signal3 torque;                                      // N·m, world frame
  double start = 0, end = std::numeric_limits<double>::infinity();  // s
};

struct JointActuator {
  int link = -1;                                       // the link whose joint is driven (1 DoF)
  double effort = 0;                                   // N or N·m, constant part
  double kp = 0, kd = 0;                               // PD gains
  double target = 0, target_velocity = 0;
};

/// τ += the generalized forces of the loads and actuators at (q, v, t). Needs forward_kinematics.
void add_actuation(const MultibodyModel& model, const MultibodyData& data, const std::vector<ExternalLoad>& loads,
                   const std::vector<JointActuator>& actuators, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   double t, Eigen::VectorXd& tau);

}  // namespace impetus
