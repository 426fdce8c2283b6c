// The viscous model (contact/viscous/viscous_model.hpp) on hand-built problems: the decay of a
// sliding box against the bounds (V4) of the discretisation, dissipation, momentum, the normal LCP.
#include <gtest/gtest.h>

#include <random>

#include "contact/factory.hpp"
#include "contact/viscous/viscous_model.hpp"
#include "test_no_slip_fixtures.hpp"

namespace impetus {
namespace {

using test::ContactSpec;
using test::ProblemBuilder;

constexpr double kG = 9.81;
// Roundoff of one step relative to the velocities of the problem (~1e-16 per operation, a few
// hundred operations): 1e-12 leaves margin; over k steps it grows at most linearly, see below.
constexpr double kRoundoff = 1e-12;
const Eigen::Vector3d kBoxSize(0.2, 0.2, 0.2);

/// A box on the ground z = 0 with its 4 bottom corners as contacts, each with coefficient mu_v.
ProblemBuilder sliding_box(double mass, double mu_v, double dt) {
  ProblemBuilder b;
  b.dt = dt;
  const Eigen::Vector3d C(0, 0, kBoxSize.z() / 2);
  b.add(test::free_box(mass, kBoxSize, C));
  int f = 0;
  for (const Eigen::Vector3d& p : test::face_corners(C, Eigen::Matrix3d::Identity(), kBoxSize / 2, 2, -1)) {
    ContactSpec s;
    s.p = p;
    s.mu_viscous = mu_v;
    s.key = {0, -1, f++};
    b.contacts.push_back(s);
  }
  return b;
}

/// Steps the sliding box k times (the rows do not change as it translates on the plane).
std::vector<double> slide(ViscousModel& model, double mass, double mu_v, double dt, double v0, int steps) {
  ProblemBuilder b = sliding_box(mass, mu_v, dt);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[0] = v0;
  std::vector<double> out{v0};
  ContactResult r;
  for (int k = 0; k < steps; ++k) {
    ContactProblem P = b.build(v, b.gravity_force());
    if (k > 0) P.p_N_guess = r.p_N;
    model.solve(P, r);
    EXPECT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    v = r.v_plus;
    EXPECT_LT(std::abs(v[2]) + v.tail<3>().norm(), kRoundoff) << "the box stays flat on the ground";
    out.push_back(v[0]);
  }
  return out;
}

TEST(Viscous, SlidingBoxDecaysAsExpOfMinusMuVTOverMWithinTheImplicitEulerBounds) {
  // (V4): with a = μ_v/m and t_k = k·dt, v(t_k) ≤ v_k ≤ v(t_k)·exp(a²·dt·t_k/2), and v_k is exactly
  // v₀ (1 + a dt)^(−k). μ_v v₀ < m g keeps the box from tipping (the friction moment about the
  // leading edge stays below the weight's).
  const double m = 2.0, mu_v = 3.0, v0 = 1.0;
  for (double dt : {1e-3, 1e-2}) {
    ViscousModel model;   // mu_viscous_per = pair: the 4 corners share μ_v
    const int steps = static_cast<int>(std::lround(1.0 / dt));
    const std::vector<double> v = slide(model, m, mu_v, dt, v0, steps);
    const double a = mu_v / m;
    for (int k = 1; k <= steps; ++k) {
      const double t = k * dt, exact = v0 * std::exp(-a * t);
      // Roundoff: each step's relative error ≤ kRoundoff, so k steps ≤ k·kRoundoff.
      const double slack = k * kRoundoff;
      EXPECT_GE(v[k], exact * (1 - slack)) << "dt " << dt << " step " << k;
      EXPECT_LE(v[k], exact * std::exp(a * a * dt * t / 2) * (1 + slack)) << "dt " << dt << " step " << k;
      EXPECT_NEAR(v[k], v0 * std::pow(1 + a * dt, -k), slack * v0) << "dt " << dt << " step " << k;
    }
  }
}

TEST(Viscous, PerPointCoefficientsMultiplyTheDecayRateByTheNumberOfPoints) {
  // mu_viscous_per = point: the paper's literal sum over the 4 corners, rate 4 μ_v / m (notes P9).
  const double m = 2.0, mu_v = 0.5, v0 = 1.0, dt = 1e-3;
  ViscousOptions o;
  o.distribution = ViscousDistribution::Point;
  ViscousModel model(o);
  const std::vector<double> v = slide(model, m, mu_v, dt, v0, 100);
  EXPECT_NEAR(v[100], v0 * std::pow(1 + 4 * mu_v / m * dt, -100), 100 * kRoundoff);
}

TEST(Viscous, StaysStableAndMonotoneAtAnyStep) {
  // μ_v·dt/m = 50: explicit friction would reverse the slide; the implicit step divides by 51.
  const double m = 1.0, mu_v = 5.0, dt = 10.0, v0 = 1.0;
  ViscousModel model;
  const std::vector<double> v = slide(model, m, mu_v, dt, v0, 3);
  for (int k = 1; k <= 3; ++k) {
    EXPECT_GT(v[k], 0);
    EXPECT_LT(v[k], v[k - 1]);
    EXPECT_NEAR(v[k], v0 * std::pow(1 + mu_v / m * dt, -k), kRoundoff);
  }
}

TEST(Viscous, RestingBoxIsCarriedByItsWeightWithAtMostThreeImpulses) {
  ProblemBuilder b = sliding_box(2.0, 1.0, 0.01);
  const ContactProblem P = b.build(Eigen::VectorXd::Zero(6), b.gravity_force());
  ViscousModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_NEAR(r.p_N.sum(), 2.0 * kG * P.dt, kRoundoff);
  EXPECT_LE((r.p_N.array() > 1e-12).count(), 3);   // rank(N) = 3
  EXPECT_LT(r.v_plus.norm(), kRoundoff);
}

/// Two boxes, one on the other, moving relative to each other with no ground and no gravity: the
/// viscous rows couple the two systems (dense W).
ProblemBuilder two_boxes(std::mt19937& rng, double mu_v) {
  ProblemBuilder b;
  b.add(test::free_box(1.5, kBoxSize, Eigen::Vector3d(0, 0, 0.1)));
  b.add(test::free_box(0.5, kBoxSize, Eigen::Vector3d(0.05, 0, 0.3)));
  std::uniform_real_distribution<double> angle(0, 6.28);
  int f = 0;
  for (const Eigen::Vector3d& p :
       test::face_corners(Eigen::Vector3d(0.05, 0, 0.3), Eigen::Matrix3d::Identity(), kBoxSize / 2, 2, -1)) {
    ContactSpec s;
    s.a = 1;
    s.b = 0;
    s.p = p;
    s.mu_viscous = mu_v;
    s.tangent_angle = angle(rng);
    s.key = {1, 0, f++};
    b.contacts.push_back(s);
  }
  return b;
}

TEST(Viscous, InternalFrictionConservesMomentumDissipatesAndBalancesTheImpulses) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0, 1);
  for (int trial = 0; trial < 30; ++trial) {
    ProblemBuilder b = two_boxes(rng, 0.5 + trial);
    Eigen::VectorXd v(12);
    for (int k = 0; k < 12; ++k) v[k] = normal(rng);
    const ContactProblem P = b.build(v);
    ViscousModel model;
    ContactResult r;
    model.solve(P, r);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    EXPECT_TRUE(r.report_as<ViscousReport>().dense_metric);
    // Internal impulses: total linear momentum m₁v₁ + m₂v₂ is conserved.
    const Eigen::Vector3d before = 1.5 * v.segment<3>(0) + 0.5 * v.segment<3>(6);
    const Eigen::Vector3d after = 1.5 * r.v_plus.segment<3>(0) + 0.5 * r.v_plus.segment<3>(6);
    EXPECT_LT((after - before).norm(), kRoundoff * std::max(1.0, before.norm()));
    // Friction power ≤ 0 at every contact (V1), and no energy gain from the step (φ = 0).
    const Eigen::VectorXd s = P.S * r.v_plus, t = P.T * r.v_plus;
    for (int i = 0; i < P.nc; ++i) EXPECT_LE(r.p_S[i] * s[i] + r.p_T[i] * t[i], 0.0);
    EXPECT_LE(r.report_as<ViscousReport>().friction_power, 0.0);
    EXPECT_LE(P.kinetic_energy(r.v_plus), P.kinetic_energy(v) * (1 + kRoundoff));
    // M (v⁺ − v*) = Nᵀp_N + Sᵀp_S + Tᵀp_T.
    const Eigen::VectorXd impulse = P.N.transpose() * r.p_N + P.S.transpose() * r.p_S + P.T.transpose() * r.p_T;
    for (const SystemBlock& sb : P.systems) {
      const Eigen::VectorXd lhs = *sb.M * (r.v_plus - P.v_star).segment(sb.offset, sb.size);
      EXPECT_LT((lhs - impulse.segment(sb.offset, sb.size)).norm(), kRoundoff * std::max(1.0, impulse.norm()));
    }
    // Complementarity of the normal LCP.
    const Eigen::VectorXd w = P.N * r.v_plus + P.phi / P.dt;
    for (int i = 0; i < P.nc; ++i) {
      EXPECT_GE(w[i], -1e-9);
      EXPECT_GE(r.p_N[i], -1e-12);
      EXPECT_LT(std::abs(w[i] * r.p_N[i]), 1e-9 * std::max(1.0, r.p_N.cwiseAbs().maxCoeff()));
    }
  }
}

TEST(Viscous, PivotingAndLemkeAgree) {
  std::mt19937 rng(8);
  std::normal_distribution<double> normal(0, 1);
  ViscousOptions lemke_options;
  lemke_options.projection.solver = ProjectionSolver::Lemke;
  ViscousModel pivoting, lemke(lemke_options);
  for (int trial = 0; trial < 20; ++trial) {
    ProblemBuilder b = two_boxes(rng, 2.0);
    for (ContactSpec& c : b.contacts) c.phi = 0.001 * normal(rng);
    Eigen::VectorXd v(12);
    for (int k = 0; k < 12; ++k) v[k] = normal(rng);
    const ContactProblem P = b.build(v, b.gravity_force());
    ContactResult r1, r2;
    pivoting.solve(P, r1);
    lemke.solve(P, r2);
    ASSERT_EQ(r1.stats.status, SolveStatus::Solved) << r1.stats.message;
    ASSERT_EQ(r2.stats.status, SolveStatus::Solved) << r2.stats.message;
    constexpr double kLemkeAgreement = 1e-6;   // Lemke's certificate (lemke.hpp)
    EXPECT_LT((r1.v_plus - r2.v_plus).norm(), kLemkeAgreement * std::max(1.0, v.norm()));
  }
}

TEST(Viscous, OptionsParseAndRefuseUnknownKeysAndBadValues) {
  EXPECT_EQ(ViscousOptions::parse({{"mu_viscous_per", "point"}}).distribution, ViscousDistribution::Point);
  EXPECT_EQ(ViscousOptions::parse({}).distribution, ViscousDistribution::Pair);
  EXPECT_THROW(ViscousOptions::parse({{"mu_viscous_per", "contact"}}), OptionError);
  EXPECT_THROW(ViscousOptions::parse({{"stick_gap", "0"}}), OptionError);
  EXPECT_EQ(make_contact_model("viscous", {{"max_pivots", "10"}})->name(), "viscous");
}

}  // namespace
}  // namespace impetus
