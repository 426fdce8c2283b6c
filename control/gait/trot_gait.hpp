// A periodic gait's contact schedule and the swing foot's spline (seed 004 §7.2, notes 004 §3.4: Pacer's
// trot, cycle T = 0.3 s, duty factor β = 0.75, step height h = 1.5 cm, touchdown phases
// {0.25, 0.75, 0.75, 0.25} for LF, RF, LH, RH).
//
// Foot f is in stance from its touchdown phase φ_f for β·T, then swings for (1 − β)·T: its k-th swing
// (k = 0, 1, …) runs over [t_lo(k), t_td(k)) with t_lo(k) = (k + frac(φ_f + β))·T, t_td(k) = t_lo(k) + (1 − β)·T.
// Over a swing with progress s = (t − t_lo)/((1 − β)T) ∈ [0, 1] the foot moves from its lift-off point to
// its touchdown point along
//   horizontal   p(s) = p_lo + (p_td − p_lo)·(10s³ − 15s⁴ + 6s⁵)    (quintic: zero velocity and
//   vertical     z(s) = z_ground + h·64 s³(1 − s)³                  acceleration at both ends; z peaks at s = ½
//                                                                    with exactly h)
// so that a foot's velocity and acceleration are continuous through lift-off and touchdown, where it
// stands still on the ground.
#pragma once

#include <Eigen/Dense>
#include <array>

namespace impetus {

constexpr int kLegs = 4;   // LF, RF, LH, RH

struct GaitParameters {
  double cycle = 0.3;                                       // T (s)
  double duty = 0.75;                                       // β: stance fraction of the cycle
  double step_height = 0.015;                               // h (m): swing apex above the ground
  std::array<double, kLegs> touchdown{0.25, 0.75, 0.75, 0.25};   // φ_f: touchdown phase in [0, 1)
};

/// Which part of its cycle a foot is in at time t.
struct FootPhase {
  bool stance = true;
  int swing = -1;       // stance: the last swing before t (−1: none yet); swing: the current one
  double progress = 0;  // swing: s ∈ [0, 1)
};

class GaitSchedule {
 public:
  explicit GaitSchedule(GaitParameters parameters);
  const GaitParameters& parameters() const { return p_; }
  double stance_duration() const { return p_.duty * p_.cycle; }
  double swing_duration() const { return (1 - p_.duty) * p_.cycle; }
  /// t_lo(k) and t_td(k) of foot f's k-th swing.
  double liftoff(int foot, int swing) const;
  double touchdown(int foot, int swing) const { return liftoff(foot, swing) + swing_duration(); }
  FootPhase phase(int foot, double t) const;

 private:
  GaitParameters p_;
};

/// A swing's position, velocity and acceleration at progress s from p_lo to p_td (both on the ground, at
/// height z_ground = their z), over a swing of `duration` seconds.
struct FootMotion {
  Eigen::Vector3d p, pd, pdd;
};
FootMotion swing_spline(const Eigen::Vector3d& p_lo, const Eigen::Vector3d& p_td, double step_height, double s,
                        double duration);

}  // namespace impetus
