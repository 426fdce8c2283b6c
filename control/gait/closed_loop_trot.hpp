// The trot of seed 004 (§7.2) replanned at every control tick from the measured state, as Pacer does (notes
// 004 §3.2): a TrajectorySource a <controller> names with <trot> (README, "Controllers").
//
// The open-loop trot (trot_trajectory.hpp) places every foot from the *planned* base pose. Once the real
// base leaves the plan, the stance legs' q_des then ask for base poses that disagree with each other and
// with where the feet really are; under no-slip contact (or stiff ID feedback) the legs fight the ground.
// Here every tick works in one reference base frame B_ref, level at the planned height z_B, whose
// horizontal pose is the measured one moved toward the plan by at most `max_offset` (m) and `max_turn`
// (rad) — by default without bound, i.e. the plan's — and which moves with the plan's velocity (ẋ, ẏ, ψ̇)
// and acceleration:
//   x_ref = x_meas + clamp(x_plan − x_meas, max_offset),   ψ_ref = ψ_meas + clamp(ψ_plan − ψ_meas, max_turn)
// so the feedback on the base is: height and attitude to the plan's (level), position and heading toward
// the plan at a bounded rate, and the plan's velocity as the feed-forward.
//   stance foot: sticks at its anchor a, set at touchdown between where the foot was measured (m) and
//     where its swing aimed it (p_aim, below), z the measured one no higher than the planned ground:
//       a_xy = m_xy + w (p_aim − m)_xy,   w = anchor_aim (default 0; the feet standing at t = 0: w = 0)
//     With w = 0 every stance leg agrees with the ground, but a foot that lands (or has slid) off its aim
//     keeps the miss in its leg's target, and the legs pull the base back by it. Under links_trot's pid
//     (kp 20 N·m/rad) on μ = 0.1 the misses of the turn in place grew until legs were asked for feet out
//     of reach (stance feet 2–12 cm from their anchors; LINKS fell at 5.75 s). With w = 1 the stance legs
//     ask for the nominal pose around the aims, and nothing pulls a base that slid back to the plan (it
//     drifted 1 m in 30 s). Measured on links_trot `flat`, pid, 30 s: w = ¼, ½, ¾ trot without falling,
//     the base at most 4.2, 3.3, 6.2 cm from the waypoint segments. Under the stiff ID controllers
//     (kp 1000 1/s²) w > 0 moves the base by w times each miss: id_qp_coulomb's base went from 1.8 cm to
//     3.2–4.5 cm off the first segment and turn (w = 0.1–0.5, 5 s), so the default keeps w = 0.
//     The foot is a sphere of radius r that rolls as
//     the leg turns (a sticking contact holds its material contact point, not its centre F): the anchor
//     is a = F − roll(q) (leg_kinematics.hpp), and q_des solves F = a + roll(q_des) in B_ref by IK (three
//     fixed-point passes: roll moves F by r ≈ 0.1 leg lengths per radian, so each pass shrinks the miss
//     tenfold, from at most ~1 mm at a touchdown to ~1 µm);
//     q̇_des and q̈_des are those of the material contact point held still in the world, seen from B_ref
//     moving with the plan's velocity (trot_trajectory.hpp's p_B, ṗ_B, p̈_B; inverse_rates with the
//     rolling radius). With four feet down and all twelve joints commanded, the base's six coordinates are
//     over-determined: joint rates that disagree with sticking contacts (a centre held still while the
//     foot turns) are infeasible for a no-slip or high-friction ID, which answers with torques at the
//     effort limits.
//   swing foot: the swing spline (trot_gait.hpp) of the same point P = F − roll(q) from its measured
//     lift-off place to a touchdown place set from B_ref: the plan's motion from now to the middle of the
//     next stance applied to B_ref, then the nominal foot's P there, on the planned ground. (Tracking P
//     rather than F in the air changes nothing that matters, and keeps a foot about to lift, still in
//     contact, consistent with the others.)
// A target out of the leg's reach (or at a singular pose) holds the leg's measured angles with q̇_des =
// q̈_des = 0 for that call.
//
// Touchdowns, when the controller measures contacts (the ID controllers: Measurement::touching, a foot with
// a contact closed and not arriving, sim/control_stage.hpp). Seed 004's ID is for non-impacting contact:
// with every leg joint driven and the stance feet held, a foot the ID holds while it still moves, or holds
// where it is not, asks for joint rates no sticking contact allows. So a foot's stance
// begins when it is down, not when the schedule says:
//   - a foot that touches in the second half of its swing (the spline brings it down) is down early: its
//     anchor is where it touched, and the ID holds it (excludes_contact lets go of first-half feet only);
//   - a foot still in the air at its planned touchdown (the base tilted away from B_ref while two feet
//     carried it) keeps going down from the swing's end at a few cm/s until it touches;
//   - in both, the anchor is the measured point at the first call it touches (no "planned ground" height:
//     on the height map the ground is where the foot is).
// Without measured contacts (pid) a stance starts at its planned touchdown, anchored where the foot is then,
// no higher than the planned ground.
//
// Memory (per foot, 5 numbers): the phase it was last anchored in (0 none yet, 1 stance: down and held,
// 2 swing), that phase's swing index, and its anchor: the held touchdown point (stance) or the lift-off
// point (swing).
#pragma once

#include <array>
#include <limits>
#include <vector>

#include "control/gait/trot_trajectory.hpp"
#include "control/trajectory_source.hpp"

namespace impetus {

struct ClosedLoopTrotParameters {
  TrotPlan plan;
  // How far B_ref may lead the measured base toward the plan: by default all the way (B_ref is the plan's
  // pose, the base's feedback is the legs' on the plan, as the open-loop trot's). Bounded, the legs stop
  // pulling a base that slid away back to the plan (on μ = 0.1 a pid-driven LINKS then drifts ~0.9 m
  // from the waypoints in 5 s with 1 cm and 0.05 rad).
  double max_offset = std::numeric_limits<double>::infinity();   // m
  double max_turn = std::numeric_limits<double>::infinity();     // rad
  // w ∈ [0, 1]: a stance foot's anchor from where it landed toward where its swing aimed it (header).
  double anchor_aim = 0;
};

class ClosedLoopTrot : public TrajectorySource {
 public:
  /// legs in the order of GaitParameters::touchdown (LF, RF, LH, RH), their `standing` angles giving the
  /// nominal feet (x, y) and the knee branch; `driven_links`: the controller's driven joints by link (na),
  /// which must be exactly the legs' 12 joints. Throws std::invalid_argument otherwise.
  ClosedLoopTrot(const MultibodyModel& model, const std::array<TrotLeg, kLegs>& legs, ClosedLoopTrotParameters parameters,
                 const std::vector<int>& driven_links);

  int size() const override { return static_cast<int>(slot_.size()); }
  Eigen::VectorXd initial_memory() const override { return Eigen::VectorXd::Zero(kMemoryPerFoot * kLegs); }
  void evaluate(double t, const Measurement& measured, Eigen::VectorXd& memory, Eigen::VectorXd& q_des,
                Eigen::VectorXd& qd_des, Eigen::VectorXd& qdd_des) const override;

  /// The contacts of a foot in the first half of its swing (the planned schedule's) are left out of the ID's
  /// problem; in the second half a foot that touches is down early (header).
  bool excludes_contact(double t, int link) const override;

  const BasePath& path() const { return path_; }
  const GaitSchedule& schedule() const { return schedule_; }
  /// The reference base pose B_ref at t for a measured base pose (header).
  BasePose reference(double t, const Eigen::Isometry3d& X_WB) const;
  static constexpr int kMemoryPerFoot = 5;

 private:
  Eigen::Vector3d touchdown_point(int f, int swing, const BasePose& plan, const BasePose& ref) const;

  ClosedLoopTrotParameters p_;
  GaitSchedule schedule_;
  BasePath path_;
  std::vector<LegKinematics> kinematics_;
  std::array<Eigen::Vector3d, kLegs> nominal_B_;
  std::array<double, kLegs> radius_{};   // m: foot spheres
  std::array<int, kLegs> foot_link_{};   // the link of each foot (the legs' third)
  std::array<Eigen::Vector3d, kLegs> nominal_P_;   // the tracked point P = F − roll(q) at the nominal feet
  std::vector<int> slot_;   // (na) driven joint a is leg joint slot_[a] = 3·foot + (0 A, 1 H, 2 K)
};

}  // namespace impetus
