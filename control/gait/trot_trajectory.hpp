// The quadruped trot of seed 004 (§7.2) as a desired joint trajectory: the gait schedule (trot_gait.hpp),
// the base path (base_path.hpp), foot placement, and the legs' inverse kinematics (leg_kinematics.hpp) at
// every control tick, as Pacer plans it (notes 004 §3.2: foot trajectories in the robot's frame, joint
// trajectories from IK at every controller cycle).
//
// The base is planned level at a constant height z_B, moving as the base path says. A stance foot stays
// where it touched down, so in the base frame it moves with −v_B − ω × r: it follows the base velocity. A
// swing foot flies along the swing spline from where it lifted off to where it will touch down, chosen so
// that at the middle of its next stance it stands at its nominal place under the base:
//   p_td = X_WB(t_td + βT/2) · p_B,nominal          (the base pose of the plan at that time)
// Feet start at their nominal places. The foot's base-frame motion is, with R = R_z(ψ), E = [ẑ]×,
// Δ = p_W − p_WB:
//   p_B = Rᵀ Δ,  ṗ_B = Rᵀ Δ̇ − ψ̇ E Rᵀ Δ,  p̈_B = Rᵀ Δ̈ − 2ψ̇ E Rᵀ Δ̇ + (ψ̇² E² − ψ̈ E) Rᵀ Δ.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "control/gait/base_path.hpp"
#include "control/gait/leg_kinematics.hpp"
#include "control/gait/trot_gait.hpp"
#include "control/trajectory.hpp"

namespace impetus {

/// One leg of the robot: its abduction link and foot point, and its standing angles.
struct TrotLeg {
  int abduction_link = -1;          // index in the model
  Eigen::Vector3d p_KF;             // foot point (sphere centre) in the knee link's frame
  Eigen::Vector3d standing;         // (A, H, K) of the standing pose (its x, y under the hip, and the knee branch)
  double foot_radius = 0;           // m: the foot sphere's (a closed-loop stance foot rolls on it)
};

struct TrotPlan {
  GaitParameters gait;
  BasePathParameters path;
  double base_height = 0;           // z_B of the base's origin (m)
  double foot_height = 0;           // z of a stance foot's point (m): its sphere's radius on flat ground
};

/// Foot targets in the base frame at time t, and the joint motion the legs need for them.
class TrotPlanner {
 public:
  /// legs in the order of GaitParameters::touchdown (LF, RF, LH, RH). Nominal feet: the standing pose's
  /// foot points, moved to the stance height foot_height − base_height below the base.
  TrotPlanner(const MultibodyModel& model, std::array<TrotLeg, kLegs> legs, TrotPlan plan);

  const GaitSchedule& schedule() const { return schedule_; }
  const BasePath& path() const { return path_; }
  const LegKinematics& leg(int f) const { return kinematics_[f]; }
  const Eigen::Vector3d& nominal(int f) const { return nominal_B_[f]; }
  /// Foot f's point in the world (the plan's), its velocity and acceleration.
  FootMotion foot_world(int f, double t) const;
  /// The same in the base frame.
  FootMotion foot_base(int f, double t) const;
  /// Joint angles, rates and accelerations of every leg (12: per leg A, H, K) at time t.
  void joints(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd) const;

 private:
  Eigen::Vector3d stance_point(int f, int swing) const;   // where foot f stands after swing k (−1: start)
  Eigen::Vector3d to_world(const Eigen::Vector3d& x, const Eigen::Vector3d& p_B) const;

  TrotPlan plan_;
  GaitSchedule schedule_;
  BasePath path_;
  std::vector<LegKinematics> kinematics_;
  std::array<Eigen::Vector3d, kLegs> nominal_B_;
};

/// A foot's world motion w seen from a level base at height base_height moving in the plane as `base` says
/// (the header's p_B, ṗ_B, p̈_B).
FootMotion foot_in_base(const FootMotion& w, const BasePose& base, double base_height);

/// q_des, q̇_des, q̈_des of the 12 leg joints sampled every dt over [0, duration], as a trajectory the
/// controllers read (DesiredTrajectory::from_samples: exact at the samples, linear between them).
DesiredTrajectory trot_trajectory(const TrotPlanner& planner, double dt, double duration);

}  // namespace impetus
