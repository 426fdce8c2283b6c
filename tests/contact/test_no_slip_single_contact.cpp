// The no-slip model's one-contact path (contact/no_slip/single_contact.hpp) against the general path of the
// same model (FIND-INDICES, principal pivoting) on random one-contact problems, and on the physics of a sphere on
// the ground: launched sliding it rolls from the first step, resting it carries its weight, leaving it is free.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "contact/no_slip/no_slip_model.hpp"
#include "contact/no_slip/single_contact.hpp"
#include "tests/contact/problem_builder.hpp"
#include "tests/contact/sphere_on_ground.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::kGravity;
using test::ProblemBuilder;
using test::SphereOnGround;

// Both routes solve (NS4), strictly convex in v⁺, to roundoff ≈ 1e-16·cond(W) (inertias span three decades
// here, cond(W) ≲ 1e6): v⁺ and the impulses (unique: G = [S; T] and N independent) compared at 1e-9.
constexpr double kAgree = 1e-9;
const ProjectionOptions kProjection{};
const double kTolerance = kProjection.certificate_tolerance;

NoSlipModel model_with(bool closed_form) {
  NoSlipOptions options;
  options.single_contact_closed_form = closed_form;
  return NoSlipModel(options);
}

/// test::random_one_contact at μ = 0.5; one time in four the collision margin is below φ, so the contact has
/// its normal row only.
ContactProblem random_contact(ProblemBuilder& builder, std::mt19937& rng) {
  ContactProblem P = test::random_one_contact(builder, rng, [] { return 0.5; });
  if (rng() % 4 == 0) P.touch_margin = P.phi[0] - 1e-4;
  return P;
}

TEST(NoSlipSingleContact, MeetsTheCertificateAndTheGeneralPathsAnswerOnRandomProblems) {
  std::mt19937 rng(1016);
  constexpr int kProblems = 600;
  int pressing = 0, separating = 0, normal_only = 0;
  for (int i = 0; i < kProblems; ++i) {
    ProblemBuilder builder(0.01);
    const ContactProblem P = random_contact(builder, rng);
    SCOPED_TRACE("problem " + std::to_string(i));
    ContactResult rc, rg;
    model_with(true).solve(P, rc);
    model_with(false).solve(P, rg);
    ASSERT_EQ(rg.stats.status, SolveStatus::Solved) << rg.stats.message;
    ASSERT_EQ(rc.stats.status, SolveStatus::Solved) << rc.stats.message;

    NoSlipSingleContact sc;
    Eigen::VectorXd v_plus = P.v_star;
    ASSERT_TRUE(sc.solve(P, P.touch_margin, NoSlipOptions{}.equality_dependence_tolerance, kProjection, v_plus));
    // The model returns the closed form: no pivot, the same v⁺ and impulses.
    EXPECT_TRUE(rc.v_plus == v_plus);
    EXPECT_EQ(rc.p_N[0], sc.p[0]);
    EXPECT_EQ(rc.stats.iterations, 0);
    const bool sticks = P.phi[0] <= P.touch_margin;
    EXPECT_EQ(sc.sticks, sticks);
    EXPECT_EQ(rc.report_as<NoSlipReport>().indices.rank, sticks ? 2 : 0);

    // The certificate checked here from v⁺ alone: (NS3) on the normal row, (NS2) on the no-slip rows.
    const double s_v = sc.velocity_scale;
    const double u_N = P.N.row(0).dot(rc.v_plus) + P.phi[0] / P.dt;
    EXPECT_GE(rc.p_N[0], 0.0);
    EXPECT_GE(u_N, -kTolerance * s_v);
    EXPECT_LE(std::abs(rc.p_N[0] * u_N), kTolerance * s_v * std::max(rc.p_N[0], 1e-300));
    if (sticks) {
      EXPECT_LE(std::abs(P.S.row(0).dot(rc.v_plus)), kTolerance * s_v);
      EXPECT_LE(std::abs(P.T.row(0).dot(rc.v_plus)), kTolerance * s_v);
    } else {
      EXPECT_EQ(rc.p_S[0], 0.0);
      EXPECT_EQ(rc.p_T[0], 0.0);
    }
    // (NS1): v⁺ − v* = M⁻¹Gᵀp.
    const Eigen::VectorXd impulse = P.N.row(0).transpose() * rc.p_N[0] + P.S.row(0).transpose() * rc.p_S[0] +
                                    P.T.row(0).transpose() * rc.p_T[0];
    Eigen::VectorXd dv(P.nv);
    P.solve_M(impulse, dv);
    EXPECT_LE((rc.v_plus - P.v_star - dv).lpNorm<Eigen::Infinity>(), kAgree * std::max(1.0, dv.lpNorm<Eigen::Infinity>()));

    // The general path's answer.
    const double v_scale = std::max(P.v_star.lpNorm<Eigen::Infinity>(), std::abs(P.phi[0] / P.dt));
    EXPECT_LE((rc.v_plus - rg.v_plus).lpNorm<Eigen::Infinity>(), kAgree * v_scale)
        << "closed " << rc.v_plus.transpose() << "\ngeneral " << rg.v_plus.transpose();
    const double p_scale = std::max({1e-12, std::abs(rg.p_N[0]), std::abs(rg.p_S[0]), std::abs(rg.p_T[0])});
    EXPECT_NEAR(rc.p_N[0], rg.p_N[0], kAgree * p_scale);
    EXPECT_NEAR(rc.p_S[0], rg.p_S[0], kAgree * p_scale);
    EXPECT_NEAR(rc.p_T[0], rg.p_T[0], kAgree * p_scale);

    normal_only += !sticks;
    pressing += sticks && rc.p_N[0] > 0;
    separating += sticks && rc.p_N[0] == 0;
  }
  // Every regime met, or the comparison says little.
  EXPECT_GT(pressing, kProblems / 10);
  EXPECT_GT(separating, kProblems / 10);
  EXPECT_GT(normal_only, kProblems / 10);
}

TEST(NoSlipSingleContact, DependentNoSlipRowsGoToTheGeneralPath) {
  // A point mass on a line (nv = 1) and a planar point (nv = 2, T = 0): FIND-INDICES keeps fewer than two
  // no-slip rows, so the closed form declines and the model's answer is the general path's, bit for bit.
  for (const int nv : {1, 2, 3}) {
    ProblemBuilder builder(1e-3);
    builder.add_system(2.0 * Eigen::MatrixXd::Identity(nv, nv));
    Eigen::RowVectorXd n = Eigen::RowVectorXd::Zero(nv), s = n, t = n;
    n[0] = 1;
    if (nv > 1) s[1] = 1;
    if (nv > 2) {   // T = S + e₃: independent, but not orthogonal to S
      t[1] = 1;
      t[2] = 1;
    }
    builder.contact(n, s, t, 0.0, 0.5);
    Eigen::VectorXd v = Eigen::VectorXd::Constant(nv, 0.3), v_star = v;
    v_star[0] -= kGravity * 1e-3 + 0.5;
    const ContactProblem& P = builder.build(v, v_star);
    ContactResult rc, rg;
    model_with(true).solve(P, rc);
    model_with(false).solve(P, rg);
    NoSlipSingleContact sc;
    Eigen::VectorXd v_plus = P.v_star;
    const bool closed = sc.solve(P, P.touch_margin, NoSlipOptions{}.equality_dependence_tolerance, kProjection, v_plus);
    EXPECT_EQ(closed, nv == 3) << nv;
    if (!closed) {
      EXPECT_TRUE(rc.v_plus == rg.v_plus && rc.p_N == rg.p_N && rc.p_S == rg.p_S && rc.p_T == rg.p_T);
    }
    EXPECT_NEAR(rc.v_plus[0], 0.0, kAgree);   // the normal row is pressed to rest either way
  }
}

// ------------------------------------------------------------------ a sphere on the ground

constexpr double kMass = SphereOnGround::kMass, kRadius = SphereOnGround::kRadius, kDt = SphereOnGround::kDt;
// Each step's impulses and velocities against the analytic ones, relative: the closed form's rounding.
constexpr double kRelative = 1e-12;


TEST(NoSlipSingleContact, ASphereLaunchedSlidingRollsFromTheFirstStep) {
  // (NS2) holds at once: no slip after the first step. The impulse acts at the contact point, so the angular
  // momentum about it, m v R + I ω = m v₀ R, is kept: rolling (v = ωR) at v = v₀ m R² / (m R² + I) = 5/7 v₀,
  // then no friction is needed and nothing changes.
  SphereOnGround sphere;
  const Eigen::Vector2d v0(0.8, -0.6);
  sphere.v.head<2>() = v0;
  const NoSlipModel model = model_with(true);
  const double p_weight = kMass * kGravity * kDt;
  for (int step = 0; step < 50; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    ContactResult r;
    const double kinetic = 0.5 * sphere.v.dot(sphere.M * sphere.v);
    model.solve(sphere.problem(), r);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved);
    ASSERT_EQ(r.stats.iterations, 0);
    sphere.v = r.v_plus;
    EXPECT_LE(sphere.slip().norm(), kRelative);
    EXPECT_NEAR(r.p_N[0], p_weight, kRelative * p_weight);
    EXPECT_NEAR(sphere.v[0], 5.0 / 7.0 * v0[0], kRelative);
    EXPECT_NEAR(sphere.v[1], 5.0 / 7.0 * v0[1], kRelative);
    EXPECT_NEAR(sphere.v[2], 0.0, kRelative);
    EXPECT_LE(0.5 * r.v_plus.dot(sphere.M * r.v_plus), kinetic * (1 + kRelative));   // no energy gain
    // The friction of the first step stops the slip: p_t = −m (v₀ − v₁) = −(2/7) m v₀; none after.
    const Eigen::Vector2d p_t(r.p_S[0], r.p_T[0]);
    const Eigen::Vector2d expected = step == 0 ? Eigen::Vector2d(-2.0 / 7.0 * kMass * v0) : Eigen::Vector2d::Zero();
    EXPECT_LE((p_t - expected).norm(), kRelative * kMass);
  }
}

TEST(NoSlipSingleContact, ARestingSphereCarriesItsWeight) {
  test::expect_a_resting_sphere_carries_its_weight(model_with(true), kRelative);
}

TEST(NoSlipSingleContact, ASeparatingContactPushesNot) {
  // Leaving the ground at 1 m/s with a sideways slip. Beyond the collision margin the contact has its normal
  // row only, and separating it gets p = 0: v⁺ = v*. Within the margin it still sticks (the paper's lock holds
  // every contact): p_N = 0, and the no-slip rows alone stop the slip.
  for (const double margin : {1e-4, std::numeric_limits<double>::infinity()}) {
    SphereOnGround sphere(2e-4);
    sphere.v << 0.5, 0.0, 1.0, 0.0, 0.0, 0.0;
    const ContactProblem P = sphere.problem(margin);
    ContactResult r;
    model_with(true).solve(P, r);
    ASSERT_EQ(r.stats.iterations, 0);
    EXPECT_EQ(r.p_N[0], 0.0);
    if (std::isfinite(margin)) {
      EXPECT_EQ(r.p_S[0], 0.0);
      EXPECT_EQ(r.p_T[0], 0.0);
      EXPECT_TRUE(r.v_plus == P.v_star);
    } else {
      sphere.v = r.v_plus;
      EXPECT_LE(sphere.slip().norm(), kRelative);
      EXPECT_NEAR(r.p_S[0], -2.0 / 7.0 * kMass * 0.5, kRelative);
      EXPECT_EQ(r.v_plus[2], P.v_star[2]);
    }
  }
}

TEST(NoSlipSingleContact, TheLemkeSolverPivotsOnOneContactToo) {
  NoSlipOptions options;
  options.projection.solver = ProjectionSolver::Lemke;
  test::expect_the_lemke_solver_pivots_on_one_contact<NoSlipReport>(model_with(true), NoSlipModel(options), kAgree);
}

}  // namespace
}  // namespace impetus
