// Gait schedule and swing spline (trot_gait.hpp).
#include "control/gait/trot_gait.hpp"

#include <cmath>
#include <stdexcept>

namespace impetus {

GaitSchedule::GaitSchedule(GaitParameters parameters) : p_(parameters) {
  if (!(p_.cycle > 0) || !(p_.duty > 0 && p_.duty < 1) || !(p_.step_height >= 0))
    throw std::invalid_argument("gait: cycle > 0, 0 < duty < 1 and step height ≥ 0 expected");
  for (double phi : p_.touchdown)
    if (!(phi >= 0 && phi < 1)) throw std::invalid_argument("gait: touchdown phases in [0, 1) expected");
}

double GaitSchedule::liftoff(int foot, int swing) const {
  const double phi = p_.touchdown[foot] + p_.duty;
  return (swing + (phi - std::floor(phi))) * p_.cycle;
}

FootPhase GaitSchedule::phase(int foot, double t) const {
  const double phi = p_.touchdown[foot] + p_.duty;
  const double lo = phi - std::floor(phi);   // lift-off phase in [0, 1)
  FootPhase out;
  out.swing = static_cast<int>(std::floor(t / p_.cycle - lo));
  // Rounding of t/T may put t a hair before the lift-off it equals: decide by the times themselves.
  if (out.swing + 1 >= 0 && t >= liftoff(foot, out.swing + 1)) ++out.swing;
  if (out.swing >= 0 && t < liftoff(foot, out.swing)) --out.swing;
  if (out.swing < 0) return out;
  const double t_lo = liftoff(foot, out.swing);
  if (t < t_lo + swing_duration()) {
    out.stance = false;
    out.progress = (t - t_lo) / swing_duration();
  }
  return out;
}

FootMotion swing_spline(const Eigen::Vector3d& p_lo, const Eigen::Vector3d& p_td, double step_height, double s,
                        double duration) {
  // Horizontal: σ(s) = 10s³ − 15s⁴ + 6s⁵; vertical: 64h s³(1 − s)³ over the straight line between the ends.
  const double s2 = s * s, s3 = s2 * s, u = 1 - s;
  const double sigma = s3 * (10 - 15 * s + 6 * s2), dsigma = 30 * s2 * u * u, ddsigma = 60 * s * u * (1 - 2 * s);
  const double z = 64 * step_height * s3 * u * u * u;
  const double dz = 192 * step_height * s2 * u * u * (1 - 2 * s);
  const double ddz = 192 * step_height * (2 * s * u * (1 - 2 * s) * (1 - 2 * s) - 2 * s2 * u * u);
  const double r = 1 / duration;
  const Eigen::Vector3d delta = p_td - p_lo;
  FootMotion m;
  m.p = p_lo + sigma * delta + Eigen::Vector3d(0, 0, z);
  m.pd = r * (dsigma * delta + Eigen::Vector3d(0, 0, dz));
  m.pdd = r * r * (ddsigma * delta + Eigen::Vector3d(0, 0, ddz));
  return m;
}

}  // namespace impetus
