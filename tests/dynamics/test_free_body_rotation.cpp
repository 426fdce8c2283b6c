// The implicit midpoint rule (G1) of dynamics/free_body_rotation.hpp, one step at a time.
#include <gtest/gtest.h>

#include "dynamics/free_body_rotation.hpp"

namespace impetus {
namespace {

TEST(FreeBodyRotation, OneMidpointStepConservesBothQuadraticInvariantsForAnyInertia) {
  // (G1) with τ = 0 for a full (non-diagonal) inertia and a large turn per step (dt·|ω| = 0.5 rad).
  Eigen::Matrix3d A;
  A << 0.3, 0.1, -0.05, 0.1, 0.2, 0.02, -0.05, 0.02, 0.1;
  const Eigen::Matrix3d I = A * A.transpose() + 0.01 * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d omega(3.0, -40.0, 12.0);
  const double dt = 0.5 / omega.norm();
  const Eigen::Vector3d w = implicit_midpoint_angular_velocity(I, omega, Eigen::Vector3d::Zero(), dt);
  // Round-off of the Newton residual relative to |Iω|, amplified by cond(I) in the solve.
  constexpr double kOneStepRelTol = 1e-12;
  EXPECT_NEAR(w.dot(I * w) / omega.dot(I * omega), 1.0, kOneStepRelTol);
  EXPECT_NEAR((I * w).norm() / (I * omega).norm(), 1.0, kOneStepRelTol);
  EXPECT_GT((w - omega).norm(), 0.1 * omega.norm());   // the step did turn ω: not a trivial fixed point
  // The residual of (G1) itself.
  const Eigen::Vector3d m = 0.5 * (omega + w);
  EXPECT_LT((I * (w - omega) + dt * m.cross(I * m)).norm(), kOneStepRelTol * (I * omega).norm());
}

TEST(FreeBodyRotation, AppliedTorqueChangesMomentumByItsImpulse) {
  // With τ and ω parallel to a principal axis there is no gyroscopic torque: I(ω* − ω) = dt·τ exactly.
  const Eigen::Matrix3d I = Eigen::Vector3d(0.1, 0.2, 0.3).asDiagonal();
  const Eigen::Vector3d omega(0, 5, 0), tau(0, 2, 0);
  const double dt = 0.01;
  const Eigen::Vector3d w = implicit_midpoint_angular_velocity(I, omega, tau, dt);
  constexpr double kRoundOff = 1e-14;
  EXPECT_NEAR(w.y(), 5 + dt * 2 / 0.2, kRoundOff);
  EXPECT_NEAR(w.x(), 0, kRoundOff);
  EXPECT_NEAR(w.z(), 0, kRoundOff);
}

}  // namespace
}  // namespace impetus
