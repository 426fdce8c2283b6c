// Planned base motion (base_path.hpp).
#include "control/gait/base_path.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace impetus {
namespace {

/// Turns and segments shorter than this (rad or m) are skipped: below any motion a robot makes.
constexpr double kNegligible = 1e-12;

double profile_duration(double D, double v, double a) {
  return D >= v * v / a ? D / v + v / a : 2 * std::sqrt(D / a);
}

/// Distance, speed and acceleration at time τ of a rest-to-rest trapezoid over D (v, a as above).
Eigen::Vector3d profile(double D, double v, double a, double tau) {
  const double T = profile_duration(D, v, a);
  tau = std::clamp(tau, 0.0, T);
  const double vp = std::min(v, std::sqrt(D * a));   // peak speed
  const double ta = vp / a;                          // acceleration time
  if (tau < ta) return {0.5 * a * tau * tau, a * tau, a};
  if (tau <= T - ta) return {0.5 * a * ta * ta + vp * (tau - ta), vp, 0};
  const double r = T - tau;
  return {D - 0.5 * a * r * r, a * r, tau < T ? -a : 0};
}

}  // namespace

BasePath::BasePath(BasePathParameters parameters) : p_(std::move(parameters)) {
  if (p_.waypoints.size() < 2) throw std::invalid_argument("base path: at least two waypoints expected");
  if (!(p_.speed > 0 && p_.acceleration > 0 && p_.yaw_rate > 0 && p_.yaw_acceleration > 0))
    throw std::invalid_argument("base path: speeds and accelerations must be > 0");
  Eigen::Vector3d pose(p_.waypoints[0].x(), p_.waypoints[0].y(), p_.heading);
  double t = 0;
  const int n = static_cast<int>(p_.waypoints.size());
  for (int i = 0; t < p_.duration; ++i) {
    if (!p_.patrol && i + 1 >= n) break;
    const Eigen::Vector2d from = p_.waypoints[i % n], to = p_.waypoints[(i + 1) % n];
    const Eigen::Vector2d delta = to - from;
    const double length = delta.norm();
    if (length < kNegligible) continue;
    double turn = std::atan2(delta.y(), delta.x()) - pose.z();
    turn = std::remainder(turn, 2 * std::numbers::pi);   // the shorter way round, in [−π, π]
    if (std::abs(turn) > kNegligible) {
      Motion m{true, t, profile_duration(std::abs(turn), p_.yaw_rate, p_.yaw_acceleration), pose, {0, 0}, turn};
      motions_.push_back(m);
      t += m.duration;
      pose.z() += turn;
    }
    Motion m{false, t, profile_duration(length, p_.speed, p_.acceleration), pose, delta / length, length};
    motions_.push_back(m);
    t += m.duration;
    pose.head<2>() = to;
  }
}

BasePose BasePath::at(double t) const {
  BasePose out;
  const auto next = std::upper_bound(motions_.begin(), motions_.end(), t,
                                     [](double time, const Motion& m) { return time < m.t0; });
  if (next == motions_.begin()) {
    out.x = Eigen::Vector3d(p_.waypoints[0].x(), p_.waypoints[0].y(), p_.heading);
    return out;
  }
  const Motion& m = *(next - 1);
  if (m.turn) {
    const double sign = m.distance < 0 ? -1.0 : 1.0;
    const Eigen::Vector3d s = profile(std::abs(m.distance), p_.yaw_rate, p_.yaw_acceleration, t - m.t0);
    out.x = m.start + Eigen::Vector3d(0, 0, sign * s[0]);
    out.xd.z() = sign * s[1];
    out.xdd.z() = sign * s[2];
  } else {
    const Eigen::Vector3d s = profile(m.distance, p_.speed, p_.acceleration, t - m.t0);
    out.x = m.start;
    out.x.head<2>() += s[0] * m.direction;
    out.xd.head<2>() = s[1] * m.direction;
    out.xdd.head<2>() = s[2] * m.direction;
  }
  return out;
}

}  // namespace impetus
