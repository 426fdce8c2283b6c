// Loads and actuators against Newton–Euler by hand.
#include <gtest/gtest.h>

#include "control/actuation.hpp"
#include "dynamics/crba.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/integration.hpp"
#include "../dynamics/fixtures.hpp"

namespace impetus {
namespace {

constexpr double kTol = 1e-12;  // a handful of flops on O(1) numbers

TEST(Actuation, LoadAtCentreOfMassGivesNewtonAndEulerAccelerations) {
  const MultibodyModel model = test::free_body_model();
  MultibodyData data(model);
  Eigen::VectorXd q = model.neutral_configuration(), v = Eigen::VectorXd::Zero(6);
  set_quaternion_at(q, 3, Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())));
  forward_kinematics(model, data, q, v);
  crba(model, data);
  ExternalLoad load;
  load.link = 0;
  load.force.constant << 1, -2, 3;
  load.torque.constant << 0.5, 0.1, -0.2;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(6);
  add_actuation(model, data, {load}, {}, q, v, 0.0, tau);
  const Eigen::VectorXd vdot = data.M[0].llt().solve(tau);
  const Inertia& I = model.links[0].inertia;
  const Mat3 R = data.X_WL[0].linear();
  EXPECT_LT((vdot.head<3>() - load.force.constant / I.mass).norm(), kTol);  // v is the COM velocity
  EXPECT_LT((vdot.tail<3>() - (R * I.I_C * R.transpose()).inverse() * load.torque.constant).norm(), kTol);
}

TEST(Actuation, SignalIsOffsetPlusSinusoidAndLoadRespectsItsWindow) {
  Signal3 s;
  s.constant << 22.5, 22.5, 0;
  s.amplitude << 22.5, 22.5, 0;
  s.phase << 0, M_PI / 2, 0;
  s.frequency = 1;
  const double t = 0.3;
  EXPECT_NEAR(s.at(t)[0], 22.5 + 22.5 * std::sin(2 * M_PI * t), kTol);
  EXPECT_NEAR(s.at(t)[1], 22.5 + 22.5 * std::cos(2 * M_PI * t), kTol);

  const MultibodyModel model = test::free_body_model();
  MultibodyData data(model);
  const Eigen::VectorXd q = model.neutral_configuration(), v = Eigen::VectorXd::Zero(6);
  forward_kinematics(model, data, q, v);
  ExternalLoad load;
  load.link = 0;
  load.force.constant << 1, 0, 0;
  load.start = 1.0;
  load.end = 2.0;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(6);
  add_actuation(model, data, {load}, {}, q, v, 0.5, tau);
  EXPECT_EQ(tau.norm(), 0.0);
  add_actuation(model, data, {load}, {}, q, v, 1.5, tau);
  EXPECT_GT(tau.norm(), 0.0);
}

TEST(Actuation, PdActuatorIsClampedToTheEffortLimit) {
  MultibodyModel model = test::pendulum_model(1, 1, 0);
  model.links[0].joint.effort = 2.0;
  MultibodyData data(model);
  Eigen::VectorXd q(1), v(1);
  q << 0.0;
  v << 0.0;
  forward_kinematics(model, data, q, v);
  JointActuator a;
  a.link = 0;
  a.kp = 10;
  a.kd = 1;
  a.target = 0.1;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(1);
  add_actuation(model, data, {}, {a}, q, v, 0, tau);
  EXPECT_NEAR(tau[0], 1.0, kTol);  // kp·0.1, inside the limit
  a.target = 1.0;
  tau.setZero();
  add_actuation(model, data, {}, {a}, q, v, 0, tau);
  EXPECT_NEAR(tau[0], 2.0, kTol);  // 10 clamped to the effort limit 2
}

}  // namespace
}  // namespace impetus
