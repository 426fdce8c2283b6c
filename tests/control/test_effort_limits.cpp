// Effort limits inside the inverse dynamics (control/inverse_dynamics/effort_limits.hpp): a held joint gets
// exactly its limit and the impulses the twin forward model gives under the τ returned; without contact the
// held set is the box QP's (EL2); a call within the limits is the plain solve to the bit.
#include <gtest/gtest.h>

#include <random>

#include "control/inverse_dynamics/effort_limits.hpp"
#include "control/inverse_dynamics/id_baselines.hpp"
#include "tests/control/leg_problem.hpp"

namespace impetus {
namespace {

using namespace test_leg;

class LimitedVariant : public ::testing::TestWithParam<int> {
 protected:
  Twin twin = twins()[GetParam()];
};

TEST_P(LimitedVariant, LegAboveItsLimitGetsTheLimitAndTheTwinsImpulses) {
  // Holding the leg (q̇_des = 0) needs a leg force m_b g = 39.2 N; with a 30 N limit the leg pushes 30 N:
  // the foot stays on the ground, so the body and the leg length move alike, and by the body's and the
  // foot's momentum over the step
  //   ż⁺ = ℓ̇⁺ = (F̄/m_b − g) dt,   p_N = (F̄ + m_f g) dt,   τ = F̄ dt.
  // ℓ̇⁺ < q̇_des with τ at its upper limit: (EL3) holds. The twin forward model under that τ gives the same.
  constexpr double kLimit = 30.0;   // N, below m_b g
  for (const double mu : {0.2, 10.0}) {
    SCOPED_TRACE("mu " + std::to_string(mu));
    LegProblem leg(0.0, twin.coulomb ? mu : 100.0);
    leg.id.effort = Eigen::VectorXd::Constant(1, kLimit);
    auto solver = twin.make();
    EffortLimits limits;
    InverseDynamicsSolution s;
    limits.solve(*solver, leg.id, leg.problem, s);
    ASSERT_NE(s.stats.status, SolveStatus::Failed) << s.stats.message;
    ASSERT_EQ(s.saturated.size(), 1);
    EXPECT_EQ(s.saturated[0], 1);
    EXPECT_EQ(s.tau[0], kLimit * kDt);
    EXPECT_EQ(s.effort_rounds, 2);
    const double v_z = (kLimit / kBodyMass - kG) * kDt;
    EXPECT_NEAR(s.p_N[0], (kLimit + kFootMass * kG) * kDt, kImpulseTolerance);
    EXPECT_NEAR(s.v_plus[2], v_z, kVelocityTolerance);
    EXPECT_NEAR(s.v_plus[3], v_z, kVelocityTolerance);
    const ContactResult forward = leg.forward(twin.model, twin.options, s.tau);
    EXPECT_NEAR(forward.p_N[0], s.p_N[0], 0.01 * std::abs(s.p_N[0]) + kImpulseTolerance);
    EXPECT_NEAR((forward.v_plus - s.v_plus).cwiseAbs().maxCoeff(), 0, 10 * kVelocityTolerance);
  }
}

TEST_P(LimitedVariant, WithinItsLimitIsThePlainSolveToTheBit) {
  // A limit above every τ asked, or none: no second solve, the same bits. Holding the leg asks m_b g =
  // 39.2 N; lengthening it at 0.3 m/s within the step, m_b (g + 0.3/dt) ≈ 1240 N.
  for (const double limit : {2000.0, 0.0}) {
    for (const double qd : {0.0, 0.3}) {
      LegProblem leg(0.05, twin.coulomb ? 0.5 : 100.0);
      leg.id.qd_des[0] = qd;
      auto plain_solver = twin.make();
      InverseDynamicsSolution plain;
      plain_solver->solve(leg.id, plain);
      leg.id.effort = Eigen::VectorXd::Constant(1, limit);
      auto solver = twin.make();
      EffortLimits limits;
      InverseDynamicsSolution s;
      limits.solve(*solver, leg.id, leg.problem, s);
      EXPECT_EQ(s.effort_rounds, 1);
      EXPECT_EQ(s.saturated, Eigen::VectorXi::Zero(1));
      EXPECT_EQ(s.tau, plain.tau);
      EXPECT_EQ(s.p_N, plain.p_N);
      EXPECT_EQ(s.p_S, plain.p_S);
      EXPECT_EQ(s.p_T, plain.p_T);
      EXPECT_EQ(s.v_plus, plain.v_plus);
      EXPECT_EQ(s.stats.status, plain.stats.status);
      EXPECT_EQ(s.stats.iterations, plain.stats.iterations);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(IdVariants, LimitedVariant, ::testing::Range(0, static_cast<int>(twins().size())),
                         [](const ::testing::TestParamInfo<int>& info) { return twins()[info.param].controller; });

TEST(EffortLimits, SensedImpulsesAboveTheLimitKeepTheSensedImpulses) {
  // id_sensed with the true impulse asks τ = m_b g dt (test_inverse_dynamics.cpp); with a 30 N limit it
  // gets 30 N·dt and predicts the sensed impulse it was given, unchanged.
  LegProblem leg(0.0, 1.0);
  const double p_N = (kBodyMass + kFootMass) * kG * kDt;
  leg.id.sensed = Eigen::Vector3d(p_N, 0, 0);
  leg.id.effort = Eigen::VectorXd::Constant(1, 30.0);
  IdSensed sensed;
  EffortLimits limits;
  InverseDynamicsSolution s;
  limits.solve(sensed, leg.id, leg.problem, s);
  EXPECT_EQ(s.saturated[0], 1);
  EXPECT_EQ(s.tau[0], 30.0 * kDt);
  EXPECT_EQ(s.p_N[0], p_N);
}

// A floating body and a chain of three driven joints without contact: nv = 5, M random SPD (seeded), v*
// and q̇_des random. τ is then the box QP (EL2) of the header, strictly convex (G = P M⁻¹ Pᵀ ≻ 0), whose
// optimum is the one assignment of each joint to {free, +τ̄, −τ̄} meeting (EL3): found here by trying all 27.
struct ChainProblem {
  Eigen::MatrixXd M;
  Eigen::LLT<Eigen::MatrixXd> M_llt;
  ContactProblem problem;
  InverseDynamicsProblem id;

  explicit ChainProblem(std::mt19937& random) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    constexpr int nv = 5;
    Eigen::MatrixXd A(nv, nv);
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j < nv; ++j) A(i, j) = u(random);
    M = A * A.transpose() + 0.5 * Eigen::MatrixXd::Identity(nv, nv);
    M_llt.compute(M);
    problem.dt = kDt;
    problem.clear_rows(nv);
    problem.nv = nv;
    problem.systems = {SystemBlock{0, nv, &M, &M_llt}};
    problem.v = Eigen::VectorXd::Zero(nv);
    problem.v_star = Eigen::VectorXd::NullaryExpr(nv, [&] { return u(random); });
    id.contact = &problem;
    id.actuated = {1, 2, 4};
    id.qd_des = Eigen::VectorXd::NullaryExpr(3, [&] { return u(random); });
  }
};

/// The optimum of (EL2) by enumeration: τ (impulses) and the held signs.
void box_optimum(const ChainProblem& chain, const Eigen::VectorXd& bound, Eigen::VectorXd& tau, Eigen::VectorXi& held) {
  const std::vector<int>& P = chain.id.actuated;
  const int na = static_cast<int>(P.size());
  const Eigen::MatrixXd Minv = chain.M_llt.solve(Eigen::MatrixXd::Identity(chain.problem.nv, chain.problem.nv));
  Eigen::MatrixXd G(na, na);
  Eigen::VectorXd r(na);
  for (int a = 0; a < na; ++a) {
    r[a] = chain.id.qd_des[a] - chain.problem.v_star[P[a]];
    for (int b = 0; b < na; ++b) G(a, b) = Minv(P[a], P[b]);
  }
  int found = 0;
  for (int code = 0; code < 27; ++code) {
    Eigen::VectorXi s(na);
    for (int a = 0, c = code; a < na; ++a, c /= 3) s[a] = c % 3 - 1;
    // Free joints: G_FF τ_F = r_F − G_FS τ_S.
    std::vector<int> F;
    Eigen::VectorXd t = Eigen::VectorXd::Zero(na);
    for (int a = 0; a < na; ++a) {
      if (s[a] == 0) F.push_back(a);
      else t[a] = s[a] * bound[a];
    }
    const int nf = static_cast<int>(F.size());
    Eigen::MatrixXd G_FF(nf, nf);
    Eigen::VectorXd rhs(nf);
    for (int i = 0; i < nf; ++i) {
      rhs[i] = r[F[i]] - G.row(F[i]).dot(t);
      for (int j = 0; j < nf; ++j) G_FF(i, j) = G(F[i], F[j]);
    }
    if (nf > 0) {
      const Eigen::VectorXd t_F = G_FF.llt().solve(rhs);
      for (int i = 0; i < nf; ++i) t[F[i]] = t_F[i];
    }
    const Eigen::VectorXd gradient = G * t - r;   // P v⁺ − q̇_des
    bool kkt = true;
    for (int a = 0; a < na; ++a)
      kkt = kkt && (s[a] == 0 ? std::abs(t[a]) <= bound[a] : s[a] * gradient[a] <= 0);
    if (kkt) {
      tau = t;
      held = s;
      ++found;
    }
  }
  ASSERT_EQ(found, 1) << "a strictly convex box QP has one KKT point";
}

TEST(EffortLimits, WithoutContactTheHeldJointsAreTheBoxQpsOptimum) {
  // Limits drawn between 0.2 and 1.2 times the unlimited |τ_a|, so that one, two or three joints are held
  // and holding one can bring another back inside. Tolerance: the optimum's τ is a 3×3 solve of entries
  // ~1 (G ~ 1, r ~ 1): 1e-12 relative to max|τ| is ~10³ roundings.
  constexpr double kRelativeTolerance = 1e-12;
  std::mt19937 random(2026);
  std::uniform_real_distribution<double> fraction(0.2, 1.2);
  int held_cases = 0, returned_cases = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    ChainProblem chain(random);
    IdNoContact solver;
    InverseDynamicsSolution unlimited;
    solver.solve(chain.id, unlimited);
    chain.id.effort.resize(3);
    for (int a = 0; a < 3; ++a) chain.id.effort[a] = fraction(random) * std::abs(unlimited.tau[a]) / kDt;
    EffortLimits limits;
    InverseDynamicsSolution s;
    limits.solve(solver, chain.id, chain.problem, s);
    ASSERT_EQ(s.stats.status, SolveStatus::Solved) << s.stats.message;
    Eigen::VectorXd tau;
    Eigen::VectorXi held;
    box_optimum(chain, chain.id.effort * kDt, tau, held);
    EXPECT_EQ(s.saturated, held);
    EXPECT_LE((s.tau - tau).cwiseAbs().maxCoeff(), kRelativeTolerance * tau.cwiseAbs().maxCoeff());
    for (int a = 0; a < 3; ++a) EXPECT_LE(std::abs(s.tau[a]), chain.id.effort[a] * kDt);
    const int n_held = static_cast<int>((held.array() != 0).count());
    held_cases += n_held > 0;
    returned_cases += s.effort_rounds > 1 + n_held;   // some joint was held, then driven again
  }
  // The draw exercises both changes of the rule (with libstdc++'s distributions: 199 of the 200 trials hold
  // a joint, 40 drive a held one again).
  EXPECT_GT(held_cases, 100);
  EXPECT_GT(returned_cases, 0);
}

}  // namespace
}  // namespace impetus
