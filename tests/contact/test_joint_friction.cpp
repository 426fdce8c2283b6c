// Joint friction by maximum dissipation (contact/joint_friction/joint_friction.hpp, QP4): the
// one-joint closed form, the optimality conditions (JF3) against an exhaustive active-set search,
// and the invariants (bounds, no energy gain).
#include <gtest/gtest.h>

#include <random>

#include "contact/joint_friction/joint_friction.hpp"

namespace impetus {
namespace {

// The solver works to rounding (JF4 default 1e-12 relative); closed forms are met to 1e-10 of the
// problem's velocity scale, a margin of a hundred for the conditioning of random H.
constexpr double kVelocity = 1e-10;

Eigen::MatrixXd random_spd(int n, std::mt19937& rng) {
  std::normal_distribution<double> g(0, 1);
  const Eigen::MatrixXd X = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return g(rng); });
  return X * X.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
}

TEST(JointFriction, OneJointIsTheClampedStoppingImpulse) {
  // x* = clamp(−H q̇, −β, β): the joint stops when |H q̇| ≤ β, else loses β/H of its speed.
  JointFrictionSolver solver;
  for (double H : {0.05, 1.0, 7.0})
    for (double qd : {-3.0, -0.01, 0.0, 0.2, 4.0})
      for (double beta : {0.0, 0.01, 0.5, 100.0}) {
        const Eigen::MatrixXd M = Eigen::MatrixXd::Constant(1, 1, H);
        const Eigen::LLT<Eigen::MatrixXd> llt(M);
        Eigen::VectorXd x, v;
        const JointFrictionResult r =
            solver.solve(llt, Eigen::VectorXd::Constant(1, qd), {0}, Eigen::VectorXd::Constant(1, beta), x, v);
        ASSERT_TRUE(r.converged);
        const double expected = std::clamp(-H * qd, -beta, beta);
        EXPECT_NEAR(x[0], expected, kVelocity * std::max(1.0, H * std::abs(qd)));
        EXPECT_NEAR(v[0], qd + expected / H, kVelocity * std::max(1.0, std::abs(qd)));
      }
}

/// The exact solution of a small box QP by enumerating every assignment of each coordinate to its
/// lower bound, its upper bound, or free, and keeping the one that meets (JF3).
Eigen::VectorXd exhaustive(const Eigen::MatrixXd& Q, const Eigen::VectorXd& q, const Eigen::VectorXd& beta) {
  const int k = static_cast<int>(q.size());
  int patterns = 1;
  for (int i = 0; i < k; ++i) patterns *= 3;
  for (int code = 0; code < patterns; ++code) {
    std::vector<int> state(k);
    for (int i = 0, c = code; i < k; ++i, c /= 3) state[i] = c % 3;   // 0 free, 1 lower, 2 upper
    Eigen::VectorXd x = Eigen::VectorXd::Zero(k);
    std::vector<int> free;
    for (int i = 0; i < k; ++i) {
      if (state[i] == 0) free.push_back(i);
      if (state[i] == 1) x[i] = -beta[i];
      if (state[i] == 2) x[i] = beta[i];
    }
    if (!free.empty()) {
      const int f = static_cast<int>(free.size());
      Eigen::MatrixXd QFF(f, f);
      Eigen::VectorXd rhs(f);
      for (int a = 0; a < f; ++a) {
        rhs[a] = -q[free[a]];
        for (int i = 0; i < k; ++i)
          if (state[i] != 0) rhs[a] -= Q(free[a], i) * x[i];
        for (int b = 0; b < f; ++b) QFF(a, b) = Q(free[a], free[b]);
      }
      const Eigen::VectorXd xf = QFF.llt().solve(rhs);
      for (int a = 0; a < f; ++a) x[free[a]] = xf[a];
    }
    const Eigen::VectorXd g = Q * x + q;
    bool ok = true;
    constexpr double kSlack = 1e-12;
    for (int i = 0; i < k && ok; ++i) {
      if (state[i] == 0) ok = std::abs(x[i]) <= beta[i] * (1 + kSlack);
      if (state[i] == 1) ok = g[i] >= -kSlack;
      if (state[i] == 2) ok = g[i] <= kSlack;
    }
    if (ok) return x;
  }
  return Eigen::VectorXd::Constant(k, std::nan(""));
}

TEST(JointFriction, ManyJointsMeetTheExhaustiveSolution) {
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0, 1);
  JointFrictionSolver solver;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 5;                      // tree size 2 … 6
    const Eigen::MatrixXd H = random_spd(n, rng);
    const Eigen::LLT<Eigen::MatrixXd> llt(H);
    const Eigen::VectorXd qd = Eigen::VectorXd::NullaryExpr(n, [&] { return g(rng); });
    std::vector<int> dofs;
    for (int i = 0; i < n; ++i)
      if (i == 0 || g(rng) > -0.3) dofs.push_back(i);   // some coordinates without friction
    const int k = static_cast<int>(dofs.size());
    const Eigen::VectorXd beta = Eigen::VectorXd::NullaryExpr(k, [&] { return 0.5 * std::abs(g(rng)); });
    Eigen::VectorXd x, v;
    const JointFrictionResult r = solver.solve(llt, qd, dofs, beta, x, v);
    ASSERT_TRUE(r.converged) << "trial " << trial;
    // Against the exhaustive active-set solution of (JF1)–(JF2).
    const Eigen::MatrixXd Hinv = H.inverse();
    Eigen::MatrixXd Q(k, k);
    Eigen::VectorXd q(k);
    for (int a = 0; a < k; ++a) {
      q[a] = qd[dofs[a]];
      for (int b = 0; b < k; ++b) Q(a, b) = Hinv(dofs[a], dofs[b]);
    }
    const Eigen::VectorXd exact = exhaustive(Q, q, beta);
    ASSERT_TRUE(exact.allFinite());
    const double scale = std::max(1.0, qd.lpNorm<Eigen::Infinity>());
    EXPECT_LT((x - exact).lpNorm<Eigen::Infinity>(), 1e-8 * scale / Q.diagonal().minCoeff()) << "trial " << trial;
    // Bounds, the velocity update (JF2), and no energy gain.
    for (int a = 0; a < k; ++a) EXPECT_LE(std::abs(x[a]), beta[a] * (1 + 1e-14));
    Eigen::VectorXd impulse = Eigen::VectorXd::Zero(n);
    for (int a = 0; a < k; ++a) impulse[dofs[a]] = x[a];
    EXPECT_LT((H * (v - qd) - impulse).lpNorm<Eigen::Infinity>(), 1e-12 * std::max(1.0, H.norm() * scale));
    EXPECT_LE(v.dot(H * v), qd.dot(H * qd) * (1 + 1e-14));
  }
}

TEST(JointFriction, LargeBoundsStopEveryFrictionalJointAndOnlyThose) {
  std::mt19937 rng(4);
  const Eigen::MatrixXd H = random_spd(5, rng);
  const Eigen::LLT<Eigen::MatrixXd> llt(H);
  const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(5, -1.0, 2.0);
  JointFrictionSolver solver;
  Eigen::VectorXd x, v;
  const std::vector<int> dofs = {0, 2, 3};
  ASSERT_TRUE(solver.solve(llt, qd, dofs, Eigen::Vector3d::Constant(1e6), x, v).converged);
  for (int i : dofs) EXPECT_NEAR(v[i], 0.0, kVelocity * 10);
  // The free coordinates keep the momentum the friction impulses do not touch: (H v)_free = (H q̇)_free.
  const Eigen::VectorXd momentum_change = H * (v - qd);
  EXPECT_NEAR(momentum_change[1], 0.0, 1e-10);
  EXPECT_NEAR(momentum_change[4], 0.0, 1e-10);
}

TEST(JointFriction, NoFrictionOrNoMotionChangesNothing) {
  std::mt19937 rng(5);
  const Eigen::MatrixXd H = random_spd(3, rng);
  const Eigen::LLT<Eigen::MatrixXd> llt(H);
  JointFrictionSolver solver;
  Eigen::VectorXd x, v;
  const Eigen::VectorXd qd = Eigen::Vector3d(0.3, -0.2, 0.1);
  solver.solve(llt, qd, {0, 1, 2}, Eigen::Vector3d::Zero(), x, v);
  EXPECT_EQ(v, qd);
  solver.solve(llt, Eigen::Vector3d::Zero(), {0, 1, 2}, Eigen::Vector3d::Constant(2.0), x, v);
  EXPECT_EQ(v, Eigen::VectorXd(Eigen::Vector3d::Zero()));
  solver.solve(llt, qd, {}, Eigen::VectorXd(), x, v);
  EXPECT_EQ(v, qd);
}

}  // namespace
}  // namespace impetus
