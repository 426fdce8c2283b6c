#include "sim/urdf/inertia_checks.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <sstream>

namespace impetus {

Inertia link_inertia(const UrdfInertial& inertial) {
  Inertia out;
  out.mass = inertial.mass;
  out.com = inertial.X_LI.translation();
  const Eigen::Matrix3d R_LI = inertial.X_LI.linear();
  out.I_C = R_LI * inertial.I_I * R_LI.transpose();  // (1)
  return out;
}

Eigen::Vector3d principal_moments(const Eigen::Matrix3d& I) {
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I, Eigen::EigenvaluesOnly).eigenvalues();
}

std::string inertia_defect(double mass, const Eigen::Matrix3d& I_C, bool check_triangle_inequality) {
  std::ostringstream why;
  if (mass < 0) {
    why << "mass " << mass << " is negative";
    return why.str();
  }
  const Eigen::Vector3d lambda = principal_moments(I_C);
  const double tolerance = kInertiaRoundingTolerance * std::abs(I_C.trace());
  if (lambda[0] < -tolerance) {  // (2)
    why << "inertia is not positive definite: its principal moments are (" << lambda[0] << ", " << lambda[1] << ", "
        << lambda[2] << ")";
    return why.str();
  }
  if (check_triangle_inequality && lambda[0] + lambda[1] < lambda[2] - tolerance) {  // (3)
    why << "inertia breaks the triangle inequality: principal moments (" << lambda[0] << ", " << lambda[1] << ", "
        << lambda[2] << ") have " << lambda[0] << " + " << lambda[1] << " < " << lambda[2]
        << ", which no mass distribution has";
    return why.str();
  }
  return "";
}

bool breaks_triangle_inequality(const Eigen::Matrix3d& I) {
  const Eigen::Vector3d lambda = principal_moments(I);
  const double tolerance = kInertiaRoundingTolerance * std::abs(I.trace());
  return lambda[0] >= -tolerance && lambda[0] + lambda[1] < lambda[2] - tolerance;
}

Eigen::Matrix3d restore_triangle_inequality(const Eigen::Matrix3d& I) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(I);
  Eigen::Vector3d lambda = eigen.eigenvalues();
  const double d = lambda[2] - lambda[0] - lambda[1];
  if (!(d > 0)) return I;
  lambda += (d / 3) * Eigen::Vector3d(1, 1, -1);  // (4)
  lambda = lambda.cwiseMax(0.0);                  // a −1e-22 of rounding (hyq's point mass) is 0
  const Eigen::Matrix3d& R = eigen.eigenvectors();
  const Eigen::Matrix3d repaired = R * lambda.asDiagonal() * R.transpose();
  return 0.5 * (repaired + repaired.transpose());  // exactly symmetric, as URDF's six numbers are
}

}  // namespace impetus
