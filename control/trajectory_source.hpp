// A desired trajectory evaluated at every control call from the measured state (closed loop), as opposed to
// DesiredTrajectory's tables and generators, which depend on t alone (control/trajectory.hpp).
//
// A source is immutable (the model's part, shared by every run of the scene); what it carries from one call
// to the next is a vector the controller owns (ControllerMemory::source), so that restart points hold it.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <vector>

namespace impetus {

/// What a controller measures at a call: its driven joints' q, q̇ (na), the pose of its tree's base, and
/// which of the tree's links touch: the model links with a contact that is closed and not arriving
/// (sim/control_stage.cpp), the contacts an ID controller may hold. Null when the controller measures no
/// contacts (pid).
struct Measurement {
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& qd;
  const Eigen::Isometry3d& X_WB;
  const std::vector<int>* touching = nullptr;
};

class TrajectorySource {
 public:
  virtual ~TrajectorySource() = default;
  /// na: the driven joints, in the controller's order.
  virtual int size() const = 0;
  /// The memory before the first call.
  virtual Eigen::VectorXd initial_memory() const = 0;
  /// q_des, q̇_des, q̈_des (na) at time t from the measurement; updates `memory`. Never throws.
  virtual void evaluate(double t, const Measurement& measured, Eigen::VectorXd& memory, Eigen::VectorXd& q_des,
                        Eigen::VectorXd& qd_des, Eigen::VectorXd& qdd_des) const = 0;
  /// Whether the ID controllers leave the contacts of model link `link` out of their problem at time t: a
  /// gait's foot that is leaving the ground (Pacer's "des-contact", notes 004 §6 pitfall 11). A foot lifting
  /// off while the ID holds its contact sticking would ask the joints for motions no sticking contact
  /// allows. (Contacts not yet closed, or arriving, the control stage leaves out for every source.)
  virtual bool excludes_contact(double t, int link) const {
    (void)t;
    (void)link;
    return false;
  }
};

}  // namespace impetus
