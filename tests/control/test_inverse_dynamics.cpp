// The inverse-dynamics variants of seed 004 (control/inverse_dynamics/) on a problem with an analytic
// answer: a body on a leg of actuated length standing on the ground, and each variant against its twin
// forward contact model (the right inverse), with the sign conventions of id_problem.hpp (ID1).
//
// The system: coordinates v = [x, y, z, ℓ]: the horizontal position of body and foot (they move together),
// the body's height z and the leg length ℓ (actuated, P = e₃ᵀ); the foot is at (x, y, z − ℓ). With body
// mass m_b and foot mass m_f, m = m_b + m_f,
//   M = [[m, 0, 0, 0], [0, m, 0, 0], [0, 0, m, −m_f], [0, 0, −m_f, m_f]],   h = [0, 0, m g, −m_f g],
//   N = [0, 0, 1, −1] (the foot's height rate),  S = [1, 0, 0, 0],  T = [0, 1, 0, 0].
// Holding the leg (q̇_des = 0) with the foot on the ground (φ = 0) and the body at rest:
//   p_N = m g dt,   τ = m_b g dt  (the leg pushes the body up: the sign the paper's −Pᵀτ flips),
// and a horizontal velocity v_x is stopped (p_S = −m v_x) when μ p_N ≥ m v_x, else p_S = −μ p_N.
#include <gtest/gtest.h>

#include "contact/factory.hpp"
#include "control/inverse_dynamics/id_baselines.hpp"
#include "tests/control/leg_problem.hpp"

namespace impetus {
namespace {

using namespace test_leg;

class Variant : public ::testing::TestWithParam<int> {
 protected:
  Twin twin = twins()[GetParam()];
};

TEST_P(Variant, SignsOfAStandingLegAreThePhysicalOnes) {
  // At rest, sticking: p_N = m g dt > 0 (the ground pushes up), τ = m_b g dt > 0 (the leg pushes the
  // body up), no friction; v⁺ = 0. With the paper's −Pᵀτ τ would come out negative.
  LegProblem leg(0.0, 1.0);
  auto solver = twin.make();
  InverseDynamicsSolution s;
  solver->solve(leg.id, s);
  ASSERT_NE(s.stats.status, SolveStatus::Failed) << s.stats.message;
  const double m = kBodyMass + kFootMass;
  EXPECT_NEAR(s.p_N[0], m * kG * kDt, kImpulseTolerance);
  EXPECT_GT(s.p_N[0], 0);
  EXPECT_NEAR(s.tau[0], kBodyMass * kG * kDt, kImpulseTolerance);
  EXPECT_GT(s.tau[0], 0);
  EXPECT_NEAR(s.p_S[0], 0, kImpulseTolerance);
  EXPECT_LT(s.v_plus.cwiseAbs().maxCoeff(), kVelocityTolerance);
}

TEST_P(Variant, AStickingFootStopsTheBody) {
  // v_x = 0.05 m/s, μ = 10: μ p_N = 0.44 N·s ≥ m v_x = 0.225 N·s, so the foot sticks.
  LegProblem leg(0.05, 10.0);
  auto solver = twin.make();
  InverseDynamicsSolution s;
  solver->solve(leg.id, s);
  ASSERT_NE(s.stats.status, SolveStatus::Failed) << s.stats.message;
  const double m = kBodyMass + kFootMass;
  EXPECT_NEAR(s.p_S[0], -m * 0.05, kImpulseTolerance);
  EXPECT_NEAR(s.p_N[0], m * kG * kDt, kImpulseTolerance);
  EXPECT_NEAR(s.v_plus[0], 0, kVelocityTolerance);
}

TEST_P(Variant, ASlidingFootLosesMuTimesTheNormalImpulse) {
  // v_x = 1 m/s, μ = 0.2: μ m g dt = 0.0088 N·s < m v_x: Coulomb variants slide with p_S = −μ p_N along
  // the pyramid's edge t1; no-slip variants stop the body.
  if (!twin.coulomb) GTEST_SKIP() << "no-slip variant";
  const double mu = 0.2;
  LegProblem leg(1.0, mu);
  auto solver = twin.make();
  InverseDynamicsSolution s;
  solver->solve(leg.id, s);
  ASSERT_NE(s.stats.status, SolveStatus::Failed) << s.stats.message;
  EXPECT_NEAR(s.p_S[0], -mu * s.p_N[0], kImpulseTolerance);
  EXPECT_GT(s.p_N[0], 0);
  EXPECT_NEAR(s.v_plus[3], 0, kVelocityTolerance);   // P v⁺ = q̇_des
}

TEST_P(Variant, WithoutContactIsTheContactFreeInverseDynamics) {
  // A robot with every foot in the air (nc = 0, as after a dropped box or in a trot's flight): no impulse
  // to predict, so τ is the contact-free ID's and P v⁺ = q̇_des.
  LegProblem leg(0.0, 1.0);
  ContactProblem& p = leg.problem;
  p.nc = 0;
  p.N.resize(0, 4);
  p.S.resize(0, 4);
  p.T.resize(0, 4);
  p.phi.resize(0);
  p.mu.resize(0);
  p.mu_viscous.resize(0);
  p.keys.clear();
  p.p_N_guess.resize(0);
  p.p_S_guess.resize(0);
  p.p_T_guess.resize(0);
  leg.id.qd_des[0] = 0.3;
  auto solver = twin.make();
  InverseDynamicsSolution s;
  solver->solve(leg.id, s);
  EXPECT_EQ(s.stats.status, SolveStatus::Solved) << s.stats.message;
  IdNoContact none;
  InverseDynamicsSolution free;
  none.solve(leg.id, free);
  EXPECT_NEAR(s.tau[0], free.tau[0], 1e-12);
  EXPECT_NEAR(s.v_plus[3], 0.3, kVelocityTolerance);
}

TEST_P(Variant, IsARightInverseOfItsForwardModel) {
  // τ from the ID, applied in the forward model on the same problem: P v⁺ = q̇_des and the same p_N.
  for (const double vx : {0.0, 0.05, 1.0})
    for (const double mu : {0.2, 10.0})
      for (const double qd : {0.0, 0.3, -0.3}) {
        SCOPED_TRACE("vx " + std::to_string(vx) + " mu " + std::to_string(mu) + " qd_des " + std::to_string(qd));
        // μ = ∞ is μ = 100 for the forward max_dissipation (the paper's own "μ = ∞" runs, notes 004 §5.4):
        // far above the 0.2 N·s / 0.044 N·s ≈ 5 this leg can need, and within the range of its checks.
        LegProblem leg(vx, twin.coulomb ? mu : 100.0);
        leg.id.qd_des[0] = qd;
        auto solver = twin.make();
        InverseDynamicsSolution s;
        solver->solve(leg.id, s);
        ASSERT_NE(s.stats.status, SolveStatus::Failed) << s.stats.message;
        const ModelOptions& options = twin.options;
        const ContactResult forward = leg.forward(twin.model, options, s.tau);
        EXPECT_NEAR(forward.v_plus[3], qd, kVelocityTolerance);
        EXPECT_NEAR(forward.p_N[0], s.p_N[0], 0.01 * std::abs(s.p_N[0]) + kImpulseTolerance);
        EXPECT_NEAR((forward.v_plus - s.v_plus).cwiseAbs().maxCoeff(), 0, 10 * kVelocityTolerance);
      }
}

INSTANTIATE_TEST_SUITE_P(IdVariants, Variant, ::testing::Range(0, static_cast<int>(twins().size())),
                         [](const ::testing::TestParamInfo<int>& info) { return twins()[info.param].controller; });

TEST(IdBaselines, NoContactIgnoresTheGroundAndSensedUsesTheMeasuredImpulse) {
  // id_no_contact: p = 0, so the leg falls freely with the body and holding its length takes no effort,
  // τ = 0; id_sensed with the true impulse recovers τ = m_b g dt.
  LegProblem leg(0.0, 1.0);
  IdNoContact none;
  InverseDynamicsSolution s;
  none.solve(leg.id, s);
  EXPECT_NEAR(s.tau[0], 0.0, 1e-12);
  IdSensed sensed;
  leg.id.sensed = Eigen::Vector3d((kBodyMass + kFootMass) * kG * kDt, 0, 0);
  sensed.solve(leg.id, s);
  EXPECT_NEAR(s.tau[0], kBodyMass * kG * kDt, 1e-12);
}

TEST(IdLcpNoSlip, InconsistentDesiredVelocityGetsTheClosestConsistentTarget) {
  // §4.5: a ceiling on the body (second contact, N₂ = [0, 0, −1, 0]: the body may only move down) and
  // the foot on the ground (N₁ v = ż − ℓ̇ ≥ 0): lengthening the leg (q̇_des = +1) asks ż ≥ 1 and ż ≤ 0.
  // The consistent targets (NS-LS1) are C = { ℓ̇ ≤ 0 }, so the closest is q̇′ = 0 in any metric: the leg
  // held between floor and ceiling, v⁺ = 0. Its impulses are indeterminate (p₁ − p₂ = m g dt, τ = p₁ −
  // m_f g dt: any squeeze p₂ ≥ 0); Stage II's least ‖τ‖ is p₂ = 0, τ = m_b g dt — not τ_c, the old fallback.
  LegProblem leg(0.0, 1.0);
  ContactProblem& p = leg.problem;
  p.nc = 2;
  SparseRows N(2, 4), S(2, 4), T(2, 4);
  N.insert(0, 2) = 1;
  N.insert(0, 3) = -1;
  N.insert(1, 2) = -1;
  S.insert(0, 0) = 1;
  S.insert(1, 0) = 1;
  T.insert(0, 1) = 1;
  T.insert(1, 1) = 1;
  p.N = N;
  p.S = S;
  p.T = T;
  p.phi = Eigen::Vector2d::Zero();
  p.mu = Eigen::Vector2d::Ones();
  p.mu_viscous = Eigen::Vector2d::Zero();
  p.keys = {ContactKey{0, -1, 0}, ContactKey{0, 1, 0}};
  p.p_N_guess = p.p_S_guess = p.p_T_guess = Eigen::Vector2d::Zero();
  leg.id.qd_des[0] = 1;
  IdLcpNoSlip solver;
  InverseDynamicsSolution s;
  solver.solve(leg.id, s);
  EXPECT_EQ(s.stats.status, SolveStatus::Fallback) << s.stats.message;
  EXPECT_EQ(s.stats.message.rfind(IdLcpNoSlip::kLeastSquaresMessage, 0), 0u) << s.stats.message;
  EXPECT_EQ(s.fallbacks, 1);
  const double m = kBodyMass + kFootMass;
  EXPECT_LT(s.v_plus.cwiseAbs().maxCoeff(), kVelocityTolerance);
  EXPECT_NEAR(s.tau[0], kBodyMass * kG * kDt, kImpulseTolerance);
  EXPECT_NEAR(s.p_N[0], m * kG * kDt, kImpulseTolerance);
  EXPECT_NEAR(s.p_N[1], 0, kImpulseTolerance);
  // The twin steps to the closest target under that τ: ℓ̇ = 0, not the ℓ̇ = 1 asked.
  const ContactResult forward = leg.forward("no_slip", {}, s.tau);
  EXPECT_NEAR(forward.v_plus[3], 0, kVelocityTolerance);

  // The consistent target (shortening the leg lifts the foot) is solved without a fallback.
  leg.id.qd_des[0] = -1;
  solver.solve(leg.id, s);
  EXPECT_EQ(s.stats.status, SolveStatus::Solved) << s.stats.message;
  EXPECT_NEAR(s.v_plus[3], -1, kVelocityTolerance);
}

TEST(IdLcpNoSlip, LegsCommandedApartGetTheLeastSquaresTargetInTheInertiaMetric) {
  // Two legs of actuated lengths ℓ₁, ℓ₂ under a body at x (unactuated), feet at x − ℓ₁ and x + ℓ₂, both
  // stuck to the ground (no-slip): coordinates v = [x, ℓ₁, ℓ₂, z, y], foot masses m₁ ≠ m₂,
  //   KE = ½ m_b ẋ² + ½ m₁ (ẋ − ℓ̇₁)² + ½ m₂ (ẋ + ℓ̇₂)² + ½ m (ż² + ẏ²),
  //   S₁ = [1, −1, 0, 0, 0], S₂ = [1, 0, 1, 0, 0], N_i = e_z, T_i = e_y.
  // Sticking feet ask ẋ = ℓ̇₁ = −ℓ̇₂: the consistent targets are the line C = { s d }, d = (1, −1), and both
  // legs lengthening, q̇_des = (a, a), is off it. (NS-LS2)'s metric G⁻¹ = (P M⁻¹ Pᵀ)⁻¹ is the Schur
  // complement of M on the legs, W = diag(m₁, m₂) − c cᵀ / (m_b + m₁ + m₂), c = (−m₁, m₂), so
  //   q̇′ = s d,  s = dᵀW q̇_des / dᵀW d,   and  (q̇_des − q̇′)ᵀ W d = 0  (the miss is W-orthogonal to C);
  // the Euclidean projection would be s = 0 here, so the test tells the metrics apart.
  const double m_b = 4.0, m1 = 0.5, m2 = 1.5, m = m_b + m1 + m2, a = 0.1;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(5, 5);
  M(0, 0) = m;
  M(0, 1) = M(1, 0) = -m1;
  M(0, 2) = M(2, 0) = m2;
  M(1, 1) = m1;
  M(2, 2) = m2;
  M(3, 3) = M(4, 4) = m;
  const Eigen::LLT<Eigen::MatrixXd> M_llt(M);
  ContactProblem p;
  p.dt = kDt;
  p.nv = 5;
  p.systems = {SystemBlock{0, 5, &M, &M_llt}};
  p.v = Eigen::VectorXd::Zero(5);
  Eigen::VectorXd h = Eigen::VectorXd::Zero(5);
  h[3] = m * kG;
  p.v_star = p.v - kDt * M_llt.solve(h);
  p.nc = 2;
  p.N.resize(2, 5);
  p.S.resize(2, 5);
  p.T.resize(2, 5);
  for (int i = 0; i < 2; ++i) {
    p.N.insert(i, 3) = 1;
    p.T.insert(i, 4) = 1;
    p.S.insert(i, 0) = 1;
  }
  p.S.insert(0, 1) = -1;
  p.S.insert(1, 2) = 1;
  p.phi = Eigen::Vector2d::Zero();
  p.mu = Eigen::Vector2d::Ones();
  p.mu_viscous = Eigen::Vector2d::Zero();
  p.keys = {ContactKey{0, -1, 0}, ContactKey{0, -1, 1}};
  p.L.resize(0, 5);
  p.p_N_guess = p.p_S_guess = p.p_T_guess = Eigen::Vector2d::Zero();
  InverseDynamicsProblem id;
  id.contact = &p;
  id.actuated = {1, 2};
  id.qd_des = Eigen::Vector2d(a, a);

  IdLcpNoSlip solver;
  InverseDynamicsSolution s;
  solver.solve(id, s);
  ASSERT_EQ(s.stats.status, SolveStatus::Fallback) << s.stats.message;
  EXPECT_EQ(s.stats.message.rfind(IdLcpNoSlip::kLeastSquaresMessage, 0), 0u) << s.stats.message;

  const Eigen::Vector2d c(-m1, m2), d(1, -1);
  const Eigen::Matrix2d W = Eigen::Vector2d(m1, m2).asDiagonal().toDenseMatrix() - c * c.transpose() / m;
  const double s_ls = d.dot(W * id.qd_des) / d.dot(W * d);
  const Eigen::Vector2d target = s_ls * d, reached(s.v_plus[1], s.v_plus[2]);
  EXPECT_NEAR(s_ls, -0.05, 1e-12);   // by hand: W = [[11/24, 1/8], [1/8, 9/8]], dᵀW d = 4/3, dᵀW q̇_des = −a·2/3
  EXPECT_NEAR((reached - target).cwiseAbs().maxCoeff(), 0, kVelocityTolerance);
  EXPECT_NEAR((id.qd_des - reached).dot(W * d), 0, kVelocityTolerance * d.dot(W * d));
  // The feet stick and the ground carries the weight (the normals' split between the feet is free).
  EXPECT_NEAR(s.v_plus[0] - s.v_plus[1], 0, kVelocityTolerance);
  EXPECT_NEAR(s.v_plus[0] + s.v_plus[2], 0, kVelocityTolerance);
  EXPECT_NEAR(s.p_N.sum(), m * kG * kDt, kImpulseTolerance);

  // Right inverse of the closest target: the forward no-slip step under τ reaches q̇′.
  ContactProblem applied = p;
  Eigen::VectorXd e = Eigen::VectorXd::Zero(5);
  e[1] = s.tau[0];
  e[2] = s.tau[1];
  applied.v_star += M_llt.solve(e);
  ContactResult forward;
  make_contact_model("no_slip", {})->solve(applied, forward);
  EXPECT_NEAR((Eigen::Vector2d(forward.v_plus[1], forward.v_plus[2]) - target).cwiseAbs().maxCoeff(), 0,
              kVelocityTolerance);
}

}  // namespace
}  // namespace impetus
