// Identities between the multibody algorithms, Jacobians against finite differences, and analytic motion.
#include <gtest/gtest.h>

#include <random>

#include "dynamics/crba.hpp"
#include "dynamics/energy.hpp"
#include "dynamics/integration.hpp"
#include "dynamics/jacobian.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/rnea.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

// Round-off of O(10) flops on O(1) numbers: identities between algorithms hold to this.
constexpr double kAlgebraTol = 1e-10;
// Central differences with step 1e-6 have truncation O(1e-12) and cancellation O(1e-10): 1e-7 is safe.
constexpr double kFiniteDifferenceTol = 1e-7;
constexpr double kFdStep = 1e-6;

using test::random_configuration;
using test::random_vector;

class ModelsTest : public ::testing::TestWithParam<int> {
 protected:
  MultibodyModel model() const { return test::tree_model(GetParam()); }
};

TEST_P(ModelsTest, MassMatrixIsSymmetricPositiveDefiniteAndEqualsRneaColumns) {
  const MultibodyModel model = this->model();
  MultibodyData data(model);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = random_configuration(model, rng), v = random_vector(model.nv, rng);
    forward_kinematics(model, data, q, v);
    crba(model, data);
    const Eigen::MatrixXd M = data.M[0];
    EXPECT_LT((M - M.transpose()).norm(), kAlgebraTol);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);
    const Eigen::VectorXd h = bias_forces(model, data, v);
    for (int k = 0; k < model.nv; ++k) {
      const Eigen::VectorXd column = rnea(model, data, v, Eigen::VectorXd::Unit(model.nv, k)) - h;
      EXPECT_LT((column - M.col(k)).norm(), kAlgebraTol) << "column " << k;
    }
    // ½ vᵀMv from CRBA equals Σ ½ VᵀIV from the link velocities.
    EXPECT_NEAR(0.5 * v.dot(M * v), kinetic_energy(model, data), kAlgebraTol);
  }
}

TEST_P(ModelsTest, PointJacobianMatchesFiniteDifferencesOfPositionAndLinkVelocity) {
  const MultibodyModel model = this->model();
  MultibodyData data(model), data_fd(model);
  std::mt19937 rng(11);
  const Eigen::VectorXd q = random_configuration(model, rng), v = random_vector(model.nv, rng);
  forward_kinematics(model, data, q, v);
  for (int link = 0; link < static_cast<int>(model.links.size()); ++link) {
    const Vec3 p_L(0.1, -0.2, 0.05);  // a point fixed on the link
    const Vec3 p_W = data.X_WL[link] * p_L;
    const auto J = point_jacobian(model, data, link, p_W);
    // J·v is the point's velocity read off the link's spatial velocity.
    EXPECT_LT((J * v - point_velocity(data.V[link], p_W)).norm(), kAlgebraTol);
    // Column k: d p_W / dε along q ⊕ ε·e_k (the convention of v, incl. the floating joint's).
    for (int k = 0; k < model.nv; ++k) {
      Eigen::VectorXd qp, qm;
      integrate(model, q, Eigen::VectorXd::Unit(model.nv, k), kFdStep, qp);
      integrate(model, q, Eigen::VectorXd::Unit(model.nv, k), -kFdStep, qm);
      forward_kinematics(model, data_fd, qp, v);
      const Vec3 pp = data_fd.X_WL[link] * p_L;
      forward_kinematics(model, data_fd, qm, v);
      const Vec3 pm = data_fd.X_WL[link] * p_L;
      EXPECT_LT(((pp - pm) / (2 * kFdStep) - J.col(k)).norm(), kFiniteDifferenceTol) << "link " << link << " col " << k;
    }
  }
}

TEST_P(ModelsTest, BiasForcesMatchFiniteDifferenceOfMomentum) {
  // h = C(q, v)v + g(q) with Ṁ − 2C skew-symmetric, so vᵀ(h − g) = ½vᵀṀv; and g = ∂U/∂q, so
  // vᵀg = dU/dt. Ṁ and dU/dt by central differences along q ⊕ ε·v.
  const MultibodyModel model = this->model();
  MultibodyData data(model);
  std::mt19937 rng(5);
  const Eigen::VectorXd q = random_configuration(model, rng), v = random_vector(model.nv, rng);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  forward_kinematics(model, data, q, v);
  const Eigen::VectorXd h = bias_forces(model, data, v);
  forward_kinematics(model, data, q, zero);
  const Eigen::VectorXd g = bias_forces(model, data, zero);
  Eigen::VectorXd qp, qm;
  integrate(model, q, v, kFdStep, qp);
  integrate(model, q, v, -kFdStep, qm);
  forward_kinematics(model, data, qp, zero);
  crba(model, data);
  const Eigen::MatrixXd Mp = data.M[0];
  forward_kinematics(model, data, qm, zero);
  crba(model, data);
  const Eigen::MatrixXd Mdot = (Mp - data.M[0]) / (2 * kFdStep);
  EXPECT_NEAR(v.dot(h - g), 0.5 * v.dot(Mdot * v), kFiniteDifferenceTol * 10);
  // and the gravity term is the gradient of U.
  forward_kinematics(model, data, qp, zero);
  const double Up = potential_energy(model, data);
  forward_kinematics(model, data, qm, zero);
  const double Um = potential_energy(model, data);
  EXPECT_NEAR(v.dot(g), (Up - Um) / (2 * kFdStep), kFiniteDifferenceTol);
}

TEST_P(ModelsTest, BiasAccelerationsMatchFiniteDifferencesOfLinkVelocities) {
  // Without gravity and with v̇ = 0, RNEA's link accelerations are the velocity-product terms Σ Ṡⱼvⱼ
  // down the path (RBDA eq. 5.7), and each is the time derivative of the link's spatial velocity V
  // (world coordinates, at O) along the motion q ⊕ t·v at constant v.
  MultibodyModel model = this->model();
  model.gravity.setZero();
  MultibodyData data(model), data_fd(model);
  std::mt19937 rng(13);
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::VectorXd q = random_configuration(model, rng), v = random_vector(model.nv, rng);
    forward_kinematics(model, data, q, v);
    bias_forces(model, data, v);
    Eigen::VectorXd qp, qm;
    integrate(model, q, v, kFdStep, qp);
    integrate(model, q, v, -kFdStep, qm);
    forward_kinematics(model, data_fd, qp, v);
    const std::vector<Vec6> Vp = data_fd.V;
    forward_kinematics(model, data_fd, qm, v);
    for (int link = 0; link < static_cast<int>(model.links.size()); ++link) {
      const Vec6 Vdot = (Vp[link] - data_fd.V[link]) / (2 * kFdStep);
      EXPECT_LT((Vdot - data.a[link]).norm(), kFiniteDifferenceTol) << "link " << link << " trial " << trial;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FreeBodyMixedTreePlanarAndFloatingChild, ModelsTest, ::testing::Values(0, 1, 2, 3));

TEST(PlanarJoint, SlidesInItsPlaneAndTurnsAboutItsNormal) {
  // X_J(x, y, θ) = Trans(x e₁ + y e₂)·Rot(n, θ): L's origin stays in the plane through J normal to n,
  // L's n stays n, and (e₁, e₂, n) is a right-handed orthonormal basis for any n.
  const MultibodyModel model = test::planar_tree_model();
  MultibodyData data(model);
  const Joint& joint = model.links[1].joint;
  const auto [e1, e2] = planar_basis(joint.axis);
  EXPECT_NEAR(e1.dot(joint.axis), 0, kAlgebraTol);
  EXPECT_NEAR(e1.norm(), 1, kAlgebraTol);
  EXPECT_LT((e1.cross(e2) - joint.axis).norm(), kAlgebraTol);
  std::mt19937 rng(3);
  const Eigen::VectorXd q = random_configuration(model, rng);
  forward_kinematics(model, data, q, Eigen::VectorXd::Zero(model.nv));
  const Eigen::Isometry3d X_WJ = data.X_WL[0] * joint.X_PJ;
  const Vec3 n_W = X_WJ.linear() * joint.axis;
  const Vec3 offset = data.X_WL[1].translation() - X_WJ.translation();
  EXPECT_NEAR(offset.dot(n_W), 0, kAlgebraTol);
  EXPECT_NEAR(offset.dot(X_WJ.linear() * e1), q[joint.q_index], kAlgebraTol);
  EXPECT_NEAR(offset.dot(X_WJ.linear() * e2), q[joint.q_index + 1], kAlgebraTol);
  EXPECT_LT((data.X_WL[1].linear() * joint.axis - n_W).norm(), kAlgebraTol);
}

TEST(FloatingJoint, VelocityIsCentreOfMassVelocityAndAngularVelocityInWorld) {
  const MultibodyModel model = test::free_body_model();
  MultibodyData data(model);
  Eigen::VectorXd q = model.neutral_configuration();
  q.segment<3>(0) << 1, 2, 3;
  set_quaternion_at(q, 3, Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized())));
  Eigen::VectorXd v(6);
  v << 0.3, -0.1, 0.2, 0.5, -0.4, 0.9;
  forward_kinematics(model, data, q, v);
  const Eigen::Isometry3d X0 = data.X_WL[0];
  Eigen::VectorXd q1;
  integrate(model, q, v, kFdStep, q1);
  forward_kinematics(model, data, q1, v);
  const Vec3 c0 = X0 * model.links[0].inertia.com;
  EXPECT_LT(((data.p_WC[0] - c0) / kFdStep - v.head<3>()).norm(), kFiniteDifferenceTol);
  // Ṙ Rᵀ = [ω]× with ω in the world frame.
  const Mat3 W = (data.X_WL[0].linear() - X0.linear()) / kFdStep * X0.linear().transpose();
  const Vec3 omega(W(2, 1), W(0, 2), W(1, 0));
  EXPECT_LT((omega - v.tail<3>()).norm(), 1e-5);  // forward difference: O(step·|ω|²)
}

TEST(FreeBody, TorqueFreeAsymmetricBodyConservesEnergyAndAngularMomentum) {
  MultibodyModel model = test::free_body_model();
  model.gravity.setZero();
  MultibodyData data(model);
  Eigen::VectorXd q = model.neutral_configuration(), v(6);
  v << 0.1, 0.0, -0.2, 1.0, 2.0, 0.5;  // spin near the unstable intermediate axis
  const double dt = 1e-3, duration = 10.0;
  auto angular_momentum = [&](const MultibodyData& d) { return Vec3((d.I[0] * d.V[0]).head<3>()); };
  auto linear_momentum = [&](const MultibodyData& d) { return Vec3((d.I[0] * d.V[0]).tail<3>()); };
  forward_kinematics(model, data, q, v);
  const double T0 = kinetic_energy(model, data);
  const Vec3 L0 = angular_momentum(data), P0 = linear_momentum(data);
  double max_energy_error = 0, max_momentum_error = 0;
  for (int step = 0; step < static_cast<int>(duration / dt); ++step) {
    forward_kinematics(model, data, q, v);
    crba(model, data);
    const Eigen::VectorXd h = bias_forces(model, data, v);
    v += dt * data.M[0].llt().solve(-h);
    integrate(model, q, v, dt, q);
    forward_kinematics(model, data, q, v);
    max_energy_error = std::max(max_energy_error, std::abs(kinetic_energy(model, data) - T0) / T0);
    max_momentum_error = std::max(max_momentum_error, (angular_momentum(data) - L0).norm() / L0.norm());
    EXPECT_LT((linear_momentum(data) - P0).norm(), kAlgebraTol);  // exact: v is the COM velocity
  }
  // Semi-implicit Euler with the gyroscopic term explicit is first order: over 10 s at dt = 1 ms the
  // drift it shows is of order dt·|ω|·t·0.1 ≈ 2e-3; the bound states that figure, with margin 2.
  constexpr double kDriftBound = 5e-3;
  EXPECT_LT(max_energy_error, kDriftBound);
  EXPECT_LT(max_momentum_error, kDriftBound);
  RecordProperty("max_relative_energy_drift", std::to_string(max_energy_error));
  RecordProperty("max_relative_momentum_drift", std::to_string(max_momentum_error));
}

TEST(Pendulum, SmallAnglePeriodWithinHalfPercent) {
  const double m = 1.0, l = 1.0, g = 9.81, dt = 1e-3;
  const MultibodyModel model = test::pendulum_model(m, l, 2.0);
  MultibodyData data(model);
  // Physical pendulum: T = 2π √(I_O / (m g l/2)), I_O = I_C + m (l/2)².
  const double I_O = model.links[0].inertia.I_C(1, 1) + m * l * l / 4;
  const double T_expected = 2 * M_PI * std::sqrt(I_O / (m * g * l / 2));
  Eigen::VectorXd q(1), v(1);
  q << 0.01;  // small angle: the amplitude correction θ₀²/16 is 6e-6
  v << 0.0;
  std::vector<double> crossings;  // downward zero crossings of θ, linearly interpolated
  for (int step = 0; step < static_cast<int>(6 * T_expected / dt); ++step) {
    forward_kinematics(model, data, q, v);
    crba(model, data);
    const Eigen::VectorXd h = bias_forces(model, data, v);
    v += dt * data.M[0].llt().solve(-h);
    const double before = q[0];
    integrate(model, q, v, dt, q);
    if (before > 0 && q[0] <= 0) crossings.push_back((step + before / (before - q[0])) * dt);
  }
  ASSERT_GE(crossings.size(), 4u);
  const double T_measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  EXPECT_NEAR(T_measured / T_expected, 1.0, 0.005);
}

}  // namespace
}  // namespace impetus
