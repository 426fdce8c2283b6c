// The semismooth Newton method of contact/solvers/semismooth_newton.hpp on complementarity problems with
// known answers, and the analytic Jacobian of the ECP system (contact/ecp/ecp_system.hpp) against central
// differences.
#include <gtest/gtest.h>

#include <random>

#include "contact/ecp/ecp_system.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/solvers/semismooth_newton.hpp"
#include "test_ecp_fixtures.hpp"

namespace impetus::test {
namespace {

/// Default Newton tolerance on ‖Φ‖∞; answers are compared at 100× that (a residual ε moves a
/// well-conditioned solution by about cond·ε, and the problems below have cond ≤ 100).
constexpr double kTolerance = 1e-10;
constexpr double kAnswerTolerance = 1e-8;

/// LCP(q, A) as an MCP: every component bounded, F = A z + q.
class Lcp final : public McpFunction {
 public:
  Lcp(Eigen::MatrixXd A, Eigen::VectorXd q) : A_(std::move(A)), q_(std::move(q)) {}
  int size() const override { return static_cast<int>(q_.size()); }
  bool bounded(int) const override { return true; }
  void evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) override {
    F = A_ * z + q_;
    if (J != nullptr) *J = A_;
  }

 private:
  Eigen::MatrixXd A_;
  Eigen::VectorXd q_;
};

/// The Kojima–Shindo NCP (Kojima & Shindo 1986; the classic degenerate test of MCPLIB): two solutions,
/// z = (√6/2, 0, 0, ½), non-degenerate, and z = (1, 0, 3, 0), degenerate (z₂ = F₂ = 0).
class KojimaShindo final : public McpFunction {
 public:
  int size() const override { return 4; }
  bool bounded(int) const override { return true; }
  void evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& F, Eigen::MatrixXd* J) override {
    F.resize(4);
    F[0] = 3 * x[0] * x[0] + 2 * x[0] * x[1] + 2 * x[1] * x[1] + x[2] + 3 * x[3] - 6;
    F[1] = 2 * x[0] * x[0] + x[0] + x[1] * x[1] + 3 * x[2] + 2 * x[3] - 2;
    F[2] = 3 * x[0] * x[0] + x[0] * x[1] + 2 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 1;
    F[3] = x[0] * x[0] + 3 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 3;
    if (J == nullptr) return;
    J->resize(4, 4);
    *J << 6 * x[0] + 2 * x[1], 2 * x[0] + 4 * x[1], 1, 3,   //
        4 * x[0] + 1, 2 * x[1], 3, 2,                       //
        6 * x[0] + x[1], x[0] + 4 * x[1], 2, 3,             //
        2 * x[0], 6 * x[1], 2, 3;
  }
};

/// A free block (a rank-one linear equation in two unknowns) beside a complementarity pair: the solution
/// set {z₀ + z₁ = 1} is a line, and H is singular everywhere: the Newton step is the minimum-norm one (S5′).
class RankDeficient final : public McpFunction {
 public:
  int size() const override { return 3; }
  bool bounded(int i) const override { return i == 2; }
  void evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) override {
    F.resize(3);
    F << z[0] + z[1] - 1, 2 * (z[0] + z[1] - 1), z[2] - 0.5;
    if (J != nullptr) {
      J->resize(3, 3);
      *J << 1, 1, 0, 2, 2, 0, 0, 0, 1;
    }
  }
};

TEST(FischerBurmeister, VanishesExactlyOnTheComplementaritySet) {
  EXPECT_EQ(fischer_burmeister(0, 3), 0);
  EXPECT_EQ(fischer_burmeister(2, 0), 0);
  EXPECT_EQ(fischer_burmeister(0, 0), 0);
  EXPECT_LT(fischer_burmeister(-1, 2), 0);
  EXPECT_LT(fischer_burmeister(1, -2), 0);
  EXPECT_GT(fischer_burmeister(1, 2), 0);
  // a, b > 0 far apart: φ ≈ min(a, b) with all digits, where a + b − √(a² + b²) would lose them.
  EXPECT_NEAR(fischer_burmeister(1e8, 1e-8), 1e-8, 1e-20);
}

TEST(FischerBurmeister, GradientElementMatchesCentralDifferences) {
  const double h = 1e-6;   // central differences: error O(h²) ≈ 1e-12 for these O(1) curvatures
  for (auto [a, b] : std::vector<std::pair<double, double>>{{1, 2}, {-0.5, 0.3}, {0.7, -2}, {-1, -1}}) {
    double da = 0, db = 0;
    fischer_burmeister(a, b, &da, &db);
    EXPECT_NEAR(da, (fischer_burmeister(a + h, b) - fischer_burmeister(a - h, b)) / (2 * h), 1e-8);
    EXPECT_NEAR(db, (fischer_burmeister(a, b + h) - fischer_burmeister(a, b - h)) / (2 * h), 1e-8);
  }
}

// Random LCPs with a positive definite (non-symmetric) matrix have one solution; Newton and Lemke agree.
TEST(SemismoothNewton, AgreesWithLemkeOnRandomPositiveDefiniteLcps) {
  std::mt19937 rng(20240503);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 3 + trial % 10;
    Eigen::MatrixXd B(n, n), K(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        B(i, j) = normal(rng);
        K(i, j) = normal(rng);
      }
    const Eigen::MatrixXd A = B * B.transpose() / n + Eigen::MatrixXd::Identity(n, n) + 0.5 * (K - K.transpose());
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = normal(rng);
    Lcp lcp(A, q);
    SemismoothNewton newton;
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    const SemismoothNewtonResult r = newton.solve(lcp, z);
    ASSERT_TRUE(r.converged()) << to_string(r.status) << " residual " << r.residual;
    LemkeSolver lemke;
    Eigen::VectorXd z_lemke;
    ASSERT_TRUE(lemke.solve(A, q, z_lemke).solved());
    EXPECT_LT((z - z_lemke).lpNorm<Eigen::Infinity>(), kAnswerTolerance) << "trial " << trial;
    EXPECT_LE(r.iterations, 20);   // finite termination of Newton on LCPs takes a handful of steps
  }
}

TEST(SemismoothNewton, SolvesKojimaShindoToOneOfItsTwoSolutions) {
  const Eigen::Vector4d first(std::sqrt(6.0) / 2, 0, 0, 0.5), second(1, 0, 3, 0);
  for (const Eigen::Vector4d& start :
       {Eigen::Vector4d(0, 0, 0, 0), Eigen::Vector4d(1, 1, 1, 1), Eigen::Vector4d(2, 0, 0, 0.1)}) {
    KojimaShindo F;
    SemismoothNewton newton;
    Eigen::VectorXd z = start;
    const SemismoothNewtonResult r = newton.solve(F, z);
    ASSERT_TRUE(r.converged()) << to_string(r.status) << " from " << start.transpose();
    const double distance = std::min((z - first).norm(), (z - second).norm());
    EXPECT_LT(distance, 1e-6) << z.transpose();   // the degenerate one converges linearly: looser
  }
}

TEST(SemismoothNewton, RankDeficientSystemIsSolvedByTheLeastChangeStep) {
  RankDeficient F;
  SemismoothNewton newton;
  Eigen::VectorXd z = Eigen::Vector3d(3, -1, 0);
  const SemismoothNewtonResult r = newton.solve(F, z);
  ASSERT_TRUE(r.converged()) << to_string(r.status);
  EXPECT_NEAR(z[0] + z[1], 1.0, kAnswerTolerance);
  EXPECT_NEAR(z[2], 0.5, kAnswerTolerance);
  // −H⁺Φ (S5′), like the LM step (S6), is the least-change one: it moves (z₀, z₁) along the normal of the
  // solution line.
  EXPECT_NEAR(z[0] - z[1], 4.0, kAnswerTolerance);
}

/// A linear system with an exact zero column (z₂: a slip rate left free by a zero normal impulse), a
/// large column (z₀: like a hull face's weighted multiplier, w = L/ℓ ≈ 7.5e3) and a small but non-zero
/// singular value (z₁, 1e-4): the shape of the ECP problems of scenes/fast_drop_small.xml whose residual
/// crawled at 1e-9. Levenberg–Marquardt's λ ≥ lm_min·max‖H_:j‖² = 1e-14·(1e4)² = 1e-6 exceeds σ² = 2e-8,
/// so (S6) alone shrinks the z₁ residual by 2 % per iteration (≈ 700 iterations from 1e-4 to 1e-10);
/// the minimum-norm step (S5′) solves the linear system in one.
class ZeroColumnBesideASmallSingularValue final : public McpFunction {
 public:
  int size() const override { return 3; }
  bool bounded(int) const override { return false; }
  void evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) override {
    F.resize(3);
    F << kLarge * (z[0] - 1), kSmall * (z[1] - 1), kSmall * (z[1] - 1);
    if (J != nullptr) {
      J->setZero(3, 3);
      (*J)(0, 0) = kLarge;
      (*J)(1, 1) = (*J)(2, 1) = kSmall;
    }
  }
  static constexpr double kLarge = 1e4, kSmall = 1e-4;
};

TEST(SemismoothNewton, ZeroColumnDoesNotLeaveASmallSingularValueToLevenbergMarquardt) {
  ZeroColumnBesideASmallSingularValue F;
  SemismoothNewton newton;   // default options: 50 iterations
  Eigen::VectorXd z = Eigen::Vector3d(0, 0, 7);
  const SemismoothNewtonResult r = newton.solve(F, z);
  ASSERT_TRUE(r.converged()) << to_string(r.status) << ", residual " << r.residual;
  EXPECT_NEAR(z[0], 1.0, kAnswerTolerance);
  EXPECT_NEAR(z[1], 1.0, kTolerance / ZeroColumnBesideASmallSingularValue::kSmall);
  EXPECT_EQ(z[2], 7.0);   // the free unknown is not moved: the step has no component in H's null space
}

TEST(SemismoothNewton, InfeasibleProblemStopsWithAStatus) {
  // z ≥ 0, −z − 1 ≥ 0: no solution.
  Lcp lcp(-Eigen::MatrixXd::Identity(1, 1), -Eigen::VectorXd::Ones(1));
  SemismoothNewton newton;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(1);
  const SemismoothNewtonResult r = newton.solve(lcp, z);
  EXPECT_FALSE(r.converged());
  EXPECT_GT(r.residual, 0.1);
  EXPECT_TRUE(z.allFinite());
}

TEST(SemismoothNewton, NonFiniteStartIsReported) {
  Lcp lcp(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d(1, NAN));
  SemismoothNewton newton;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(2);
  EXPECT_EQ(newton.solve(lcp, z).status, SemismoothNewtonStatus::NonFinite);
}

// The analytic Jacobian of (E1)–(E8) against central differences, at points away from the kinks of ‖b‖
// (b ≠ 0) for bodies tilted, moving and spinning, with a point contact between them.
TEST(EcpSystem, JacobianMatchesCentralDifferences) {
  ecp::GroundWorld world(0.01, ecp::kPaperGravity);
  ecp::Body a = ecp::resting_box(2.0, {0.1, 0.15, 0.05}, 0.3);
  a.R = Eigen::Quaterniond(Eigen::AngleAxisd(0.2, Eigen::Vector3d(1, -1, 0.3).normalized()));
  a.p_WL = Eigen::Vector3d(0.1, 0.2, 0.3);
  a.p_LC = Eigen::Vector3d(0.01, -0.02, 0.005);
  a.v = Eigen::Vector3d(0.3, -0.1, -0.2);
  a.omega = Eigen::Vector3d(1.0, 2.0, -0.5);
  world.add(a);
  ecp::Body b = ecp::resting_box(1.0, {0.2, 0.1, 0.1}, 0.5);
  b.R = Eigen::Quaterniond(Eigen::AngleAxisd(-0.4, Eigen::Vector3d(0.2, 1, 0).normalized()));
  b.omega = Eigen::Vector3d(-0.3, 0.1, 3.0);
  world.add(b);
  ContactProblem P = world.build();
  // A point contact between the two bodies (rows arbitrary but fixed) and a joint-limit-like row.
  Eigen::RowVectorXd n(12), s(12), t(12), l(12);
  n << -0.1, 0.2, 1, 0.1, 0.2, 0.3, -0.5, 0.2, -0.8, 0.1, -0.1, 0.2;
  s << 1, 0, 0, 0.2, 0.1, 0, -1, 0, 0, 0, 0.3, 0.1;
  t << 0, 1, 0, 0.1, -0.2, 0.1, 0, -1, 0, 0.2, 0, 0.1;
  l << 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1;
  P.nc = 1;
  P.N = n.sparseView();
  P.S = s.sparseView();
  P.T = t.sparseView();
  P.phi = Eigen::VectorXd::Constant(1, 0.001);
  P.mu = Eigen::VectorXd::Constant(1, 0.4);
  P.mu_viscous = Eigen::VectorXd::Zero(1);
  P.keys.assign(1, ContactKey{});
  P.nl = 1;
  P.L = l.sparseView();
  P.phi_L = Eigen::VectorXd::Constant(1, 0.01);
  impetus::ecp::EcpSystem system;
  system.setup(P, ecp::hull_plane(P), {1.2, 0.9, 0.08}, true);
  const int size = system.size();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Eigen::VectorXd z;
  system.initial_guess(impetus::ecp::EcpSystem::Start::Current, z);
  for (int i = 0; i < size; ++i) z[i] += 0.3 * uniform(rng);   // generic point: every b ≠ 0
  Eigen::VectorXd F, Fp, Fm;
  Eigen::MatrixXd J;
  system.evaluate(z, F, &J);
  const double h = 1e-6;   // central differences on O(1) scaled unknowns: truncation ≈ h² ≈ 1e-12
  double worst = 0;
  for (int k = 0; k < size; ++k) {
    Eigen::VectorXd zp = z, zm = z;
    zp[k] += h;
    zm[k] -= h;
    system.evaluate(zp, Fp, nullptr);
    system.evaluate(zm, Fm, nullptr);
    const Eigen::VectorXd column = (Fp - Fm) / (2 * h);
    const double error = (column - J.col(k)).lpNorm<Eigen::Infinity>() / std::max(1.0, column.lpNorm<Eigen::Infinity>());
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-6) << "column " << k << " (" << system.describe_row(k) << ")";
  }
  EXPECT_LT(worst, 1e-6);
}

}  // namespace
}  // namespace impetus::test
