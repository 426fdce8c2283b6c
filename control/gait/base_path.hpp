// The planned motion of a walking robot's base in the plane: (x, y, ψ) over time along straight segments
// between waypoints, turning in place at each waypoint to face the next segment (seed 004 §7.2's task:
// "acceleration to and from rest, turning in place"; its waypoints (0,0) → (0.25,0) → (0,0.25) → (0,−0.25)
// → (−0.25,0), notes 004 §3.4).
//
// Each turn and each segment is a rest-to-rest motion with a trapezoidal speed profile (speed limit v,
// acceleration a; a triangular one when the distance D < v²/a): duration D/v + v/a, or 2√(D/a). Turns take
// the shorter way round. With `patrol`, the waypoints repeat (the last leads back to the first) until
// `duration`; after the plan ends the base rests.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace impetus {

struct BasePathParameters {
  std::vector<Eigen::Vector2d> waypoints{{0, 0}, {0.25, 0}, {0, 0.25}, {0, -0.25}, {-0.25, 0}};   // m
  double heading = 0;              // ψ at the start (rad; 0: facing +x)
  double speed = 0.2;              // v (m/s): the paper's 20 cm/s
  double acceleration = 0.5;       // m/s² (not in the paper: to 20 cm/s in 0.4 s)
  double yaw_rate = 0.8;           // rad/s (not in the paper: the feet, ~0.25 m from the centre, then move
                                   //   at ~20 cm/s as when walking)
  double yaw_acceleration = 2.0;   // rad/s² (not in the paper)
  double duration = 30;            // s: how far to plan
  bool patrol = true;              // repeat the waypoints
};

/// The base's planar pose and its first two derivatives.
struct BasePose {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();     // (x, y, ψ): m, m, rad
  Eigen::Vector3d xd = Eigen::Vector3d::Zero();
  Eigen::Vector3d xdd = Eigen::Vector3d::Zero();
};

class BasePath {
 public:
  explicit BasePath(BasePathParameters parameters);
  BasePose at(double t) const;
  /// Planned motions, for tests and reports.
  struct Motion {
    bool turn = false;
    double t0 = 0, duration = 0;
    Eigen::Vector3d start;          // pose at t0
    Eigen::Vector2d direction;      // unit, for a segment
    double distance = 0;            // m (segment) or signed rad (turn)
  };
  const std::vector<Motion>& motions() const { return motions_; }

 private:
  BasePathParameters p_;
  std::vector<Motion> motions_;
};

}  // namespace impetus
