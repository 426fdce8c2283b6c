#include "dynamics/free_body_rotation.hpp"

namespace impetus {

namespace {

Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

}  // namespace

Eigen::Vector3d implicit_midpoint_angular_velocity(const Eigen::Matrix3d& I_W, const Eigen::Vector3d& omega,
                                                   const Eigen::Vector3d& tau, double dt) {
  const double scale = (I_W * omega).norm() + dt * tau.norm();
  Eigen::Vector3d x = omega;
  for (int k = 0; k < kMaxRotationIterations; ++k) {
    const Eigen::Vector3d x_bar = 0.5 * (omega + x);
    const Eigen::Vector3d L_bar = I_W * x_bar;
    const Eigen::Vector3d r = I_W * (x - omega) + dt * x_bar.cross(L_bar) - dt * tau;   // (G1)
    if (!(r.norm() > kRotationTolerance * scale)) break;
    const Eigen::Matrix3d J = I_W + 0.5 * dt * (skew(x_bar) * I_W - skew(L_bar));        // (G2)
    x -= J.partialPivLu().solve(r);
  }
  return x;
}

}  // namespace impetus
