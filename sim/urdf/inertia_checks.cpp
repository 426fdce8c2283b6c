#include "sim/urdf/inertia_checks.hpp"

#include <Eigen/Eigenvalues>
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

std::string inertia_defect(double mass, const Eigen::Matrix3d& I_C, bool check_triangle_inequality) {
  std::ostringstream why;
  if (mass < 0) {
    why << "mass " << mass << " is negative";
    return why.str();
  }
  const Eigen::Vector3d lambda = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I_C, Eigen::EigenvaluesOnly).eigenvalues();
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

}  // namespace impetus
