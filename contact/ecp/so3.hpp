// Rotations by the exponential map, as the integrator turns a free body (dynamics/integration.hpp):
//   R⁺ = exp([φ]×) R,  φ = dt·ω  (ω in the world frame),
// and the derivative of a rotated vector y = exp([φ]×) x with respect to φ (left Jacobian of SO(3);
// Barfoot, "State Estimation for Robotics", 2017, Eqs. 7.77a, 7.86):
//   exp([φ + δφ]×) ≈ exp([J_l(φ) δφ]×) exp([φ]×)   ⇒   ∂y/∂φ = −[y]× J_l(φ),
//   J_l(φ) = I + (1 − cos θ)/θ² [φ]× + (θ − sin θ)/θ³ [φ]×²,  θ = ‖φ‖.
// Both are evaluated by their Taylor series below θ = kSeriesAngle, where the closed forms cancel.
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace impetus::ecp {

/// Below this angle (rad) the coefficients of exp and J_l are taken from their Taylor series to
/// O(θ⁶): the series error is θ⁶/5040 < 1e-19 there, while the closed forms lose ~ε/θ² ≈ 1e-8.
constexpr double kSeriesAngle = 1e-3;

inline Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return S;
}

/// exp([φ]×) (Rodrigues) and, when J is not null, J_l(φ).
inline Eigen::Matrix3d so3_exp(const Eigen::Vector3d& phi, Eigen::Matrix3d* J = nullptr) {
  const double t2 = phi.squaredNorm(), t = std::sqrt(t2);
  double a, b, c;   // sin θ/θ, (1 − cos θ)/θ², (θ − sin θ)/θ³
  if (t < kSeriesAngle) {
    a = 1 - t2 / 6 + t2 * t2 / 120;
    b = 0.5 - t2 / 24 + t2 * t2 / 720;
    c = 1.0 / 6 - t2 / 120 + t2 * t2 / 5040;
  } else {
    a = std::sin(t) / t;
    b = (1 - std::cos(t)) / t2;
    c = (t - std::sin(t)) / (t2 * t);
  }
  const Eigen::Matrix3d K = skew(phi), K2 = K * K;
  if (J != nullptr) *J = Eigen::Matrix3d::Identity() + b * K + c * K2;
  return Eigen::Matrix3d::Identity() + a * K + b * K2;
}

}  // namespace impetus::ecp
