// The viscous model's one-contact path (contact/viscous/single_contact.hpp) against the general path of the
// same model (W = M + dt K factored, principal pivoting) on random one-contact problems, and on the physics of a
// sphere on the ground: launched sliding, its slip decays as (V4) and it tends to rolling; resting it carries
// its weight; leaving the ground it is pushed not, and its friction still acts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "contact/viscous/single_contact.hpp"
#include "contact/viscous/viscous_model.hpp"
#include "tests/contact/problem_builder.hpp"
#include "tests/contact/sphere_on_ground.hpp"

namespace impetus {
namespace {

using test::kGravity;
using test::ProblemBuilder;
using test::SphereOnGround;

// Both routes solve (V3), strictly convex in v⁺, to roundoff ≈ 1e-16·cond(W) (inertias span three decades and
// dt μ̃ A_tt reaches ~1e4 here; the two differ by ≤ 5e-12 relative on these draws): v⁺ and the impulses (unique)
// compared at 1e-9.
constexpr double kAgree = 1e-9;
const ProjectionOptions kProjection{};
const double kTolerance = kProjection.certificate_tolerance;

ViscousModel model_with(bool closed_form) {
  ViscousOptions options;
  options.single_contact_closed_form = closed_form;
  return ViscousModel(options);
}

/// test::random_one_contact with μ_v log-uniform in [1e-2, 1e4] N·s/m (dt μ_v A_tt from ~1e-6 to ~1e4: friction
/// from negligible to nearly no-slip), and 0 one time in eight.
ContactProblem random_contact(ProblemBuilder& builder, std::mt19937& rng) {
  ContactProblem P = test::random_one_contact(builder, rng, [] { return 0.5; });
  std::uniform_real_distribution<double> exponent(-2, 4);
  P.mu_viscous[0] = rng() % 8 == 0 ? 0.0 : std::pow(10.0, exponent(rng));
  return P;
}

TEST(ViscousSingleContact, MeetsTheCertificateAndTheGeneralPathsAnswerOnRandomProblems) {
  std::mt19937 rng(1016);
  constexpr int kProblems = 600;
  int pressing = 0, separating = 0, frictionless = 0;
  for (int i = 0; i < kProblems; ++i) {
    ProblemBuilder builder(0.01);
    const ContactProblem P = random_contact(builder, rng);
    SCOPED_TRACE("problem " + std::to_string(i));
    ContactResult rc, rg;
    model_with(true).solve(P, rc);
    model_with(false).solve(P, rg);
    ASSERT_EQ(rg.stats.status, SolveStatus::Solved) << rg.stats.message;
    ASSERT_EQ(rc.stats.status, SolveStatus::Solved) << rc.stats.message;

    ViscousSingleContact sc;
    Eigen::VectorXd v_plus = P.v_star;
    ASSERT_TRUE(sc.solve(P, P.mu_viscous[0], kProjection, v_plus));
    // The model returns the closed form: no pivot, the same v⁺ and p_N, W not factored.
    EXPECT_TRUE(rc.v_plus == v_plus);
    EXPECT_EQ(rc.p_N[0], sc.p_N);
    EXPECT_EQ(rc.stats.iterations, 0);
    const ViscousReport& report = rc.report_as<ViscousReport>();
    EXPECT_FALSE(report.dense_metric);
    EXPECT_EQ(report.projection.pivoting.active, rc.p_N[0] > 0 ? 1 : 0);

    // The certificate checked here from v⁺ alone: (V2) on the normal row at s_v = max(|N v_f|, |φ/dt|), with
    // the general path's s_v.
    const double s_v = sc.velocity_scale;
    EXPECT_NEAR(s_v, rg.report_as<ViscousReport>().projection.pivoting.velocity_scale, kAgree * s_v);
    const double u_N = P.N.row(0).dot(rc.v_plus) + P.phi[0] / P.dt;
    EXPECT_GE(rc.p_N[0], 0.0);
    EXPECT_GE(u_N, -kTolerance * s_v);
    EXPECT_LE(std::abs(rc.p_N[0] * u_N), kTolerance * s_v * std::max(rc.p_N[0], 1e-300));
    // (V1): M (v⁺ − v*) = Nᵀp_N + Sᵀp_S + Tᵀp_T with p_S = −dt μ̃ S v⁺ (the friction law holds by construction;
    // the equation of motion is what the closed form solved).
    const double d = P.dt * P.mu_viscous[0];
    const double dot_rounding = 1e-14 * d * rc.v_plus.lpNorm<Eigen::Infinity>();
    EXPECT_NEAR(rc.p_S[0], -d * P.S.row(0).dot(rc.v_plus), dot_rounding * P.S.row(0).cwiseAbs().sum());
    EXPECT_NEAR(rc.p_T[0], -d * P.T.row(0).dot(rc.v_plus), dot_rounding * P.T.row(0).cwiseAbs().sum());
    const Eigen::VectorXd impulse = P.N.row(0).transpose() * rc.p_N[0] + P.S.row(0).transpose() * rc.p_S[0] +
                                    P.T.row(0).transpose() * rc.p_T[0];
    Eigen::VectorXd dv(P.nv);
    P.solve_M(impulse, dv);
    EXPECT_LE((rc.v_plus - P.v_star - dv).lpNorm<Eigen::Infinity>(), kAgree * std::max(1.0, dv.lpNorm<Eigen::Infinity>()));
    EXPECT_LE(report.friction_power, 0.0);

    // The general path's answer.
    const double v_scale = std::max(P.v_star.lpNorm<Eigen::Infinity>(), std::abs(P.phi[0] / P.dt));
    EXPECT_LE((rc.v_plus - rg.v_plus).lpNorm<Eigen::Infinity>(), kAgree * v_scale)
        << "closed " << rc.v_plus.transpose() << "\ngeneral " << rg.v_plus.transpose();
    const double p_scale = std::max({1e-12, std::abs(rg.p_N[0]), std::abs(rg.p_S[0]), std::abs(rg.p_T[0])});
    EXPECT_NEAR(rc.p_N[0], rg.p_N[0], kAgree * p_scale);
    EXPECT_NEAR(rc.p_S[0], rg.p_S[0], kAgree * p_scale);
    EXPECT_NEAR(rc.p_T[0], rg.p_T[0], kAgree * p_scale);

    frictionless += P.mu_viscous[0] == 0;
    pressing += rc.p_N[0] > 0;
    separating += rc.p_N[0] == 0;
  }
  // Every regime met, or the comparison says little.
  EXPECT_GT(pressing, kProblems / 10);
  EXPECT_GT(separating, kProblems / 10);
  EXPECT_GT(frictionless, kProblems / 20);
}

TEST(ViscousSingleContact, RowsDependentOnTheNormalAreSolvedExactly) {
  // A point mass m on a line (nv = 1) and in a plane (nv = 2), its normal e₁ and its viscous row S = e₁ too
  // (a frame the collision stage would not give, but a problem the model accepts), T = 0 (nv = 1) or e₂. Then
  // W = m + d on e₁ (and e₂), SPD whatever the rows: the closed form takes it, as the general path does.
  const double m = 2.0, dt = 1e-3, mu_v = 50.0, d = dt * mu_v;
  for (const int nv : {1, 2}) {
    SCOPED_TRACE("nv " + std::to_string(nv));
    ProblemBuilder builder(dt);
    builder.add_system(m * Eigen::MatrixXd::Identity(nv, nv));
    Eigen::RowVectorXd n = Eigen::RowVectorXd::Zero(nv), t = n;
    n[0] = 1;
    if (nv > 1) t[1] = 1;
    builder.contact(n, n, t, 0.0, 0.5);
    Eigen::VectorXd v = Eigen::VectorXd::Constant(nv, 0.3), v_star = v;
    v_star[0] -= kGravity * dt + 0.5;
    ContactProblem P = builder.build(v, v_star);
    P.mu_viscous[0] = mu_v;
    ContactResult rc, rg;
    model_with(true).solve(P, rc);
    model_with(false).solve(P, rg);
    ViscousSingleContact sc;
    Eigen::VectorXd v_plus = P.v_star;
    EXPECT_TRUE(sc.solve(P, mu_v, kProjection, v_plus));
    // The normal row is pressed to rest (φ = 0), so its friction is 0 and p_N takes the whole m v*₁.
    EXPECT_NEAR(rc.v_plus[0], 0.0, kAgree);
    EXPECT_NEAR(rc.p_N[0], -m * v_star[0], kAgree);
    EXPECT_NEAR(rc.p_S[0], 0.0, kAgree);
    if (nv > 1) {
      EXPECT_NEAR(rc.v_plus[1], m * v_star[1] / (m + d), kAgree);   // (V4)'s one step on e₂
    }
    EXPECT_LE((rc.v_plus - rg.v_plus).lpNorm<Eigen::Infinity>(), kAgree);
    EXPECT_NEAR(rc.p_N[0], rg.p_N[0], kAgree);
  }
}

// ------------------------------------------------------------------ a sphere on the ground

constexpr double kMass = SphereOnGround::kMass, kRadius = SphereOnGround::kRadius, kDt = SphereOnGround::kDt;
// Each step's impulses and velocities against the analytic ones, relative: the closed form's rounding.
constexpr double kRelative = 1e-12;
constexpr double kMuViscous = 40.0;   // N·s/m: (7/2) μ_v dt / m = 0.07 per step

ContactProblem sphere_problem(SphereOnGround& sphere, double touch_margin = std::numeric_limits<double>::infinity()) {
  ContactProblem P = sphere.problem(touch_margin);
  P.mu_viscous[0] = kMuViscous;
  return P;
}

TEST(ViscousSingleContact, ASphereLaunchedSlidingDecaysToRollingAsTheImplicitStep) {
  // The friction acts on the contact point's slip u = v_t + ω × r, r = (0, 0, −R): an impulse p_t there moves u
  // by a p_t, a = 1/m + R²/I = 7/(2m) (I = (2/5) m R²), and the normal row (r ∥ n) is not coupled to it. (V1)
  // is then p_t = −d u⁺, u⁺ = u + a p_t: u_{k+1} = u_k / (1 + x), x = a d = (7/2) μ_v dt / m — the decay (V4)
  // of a point of mass 1/a. The impulse acts at the contact point, so m R v + I ω (per axis) is kept: with
  // ω₀ = 0, v = (5/7) v₀ + (2/7) u. Hence, with u₀ = v₀,
  //     u_k = v₀ (1 + x)^(−k),   v_k = v₀ (5/7 + (2/7)(1 + x)^(−k)),   p_t,k = −d u_k,   p_N = m g dt.
  SphereOnGround sphere;
  const Eigen::Vector2d v0(0.8, -0.6);
  sphere.v.head<2>() = v0;
  const ViscousModel model = model_with(true);
  const double d = kDt * kMuViscous, x = 3.5 * d / kMass, p_weight = kMass * kGravity * kDt;
  for (int k = 1; k <= 100; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    ContactResult r;
    const double kinetic = 0.5 * sphere.v.dot(sphere.M * sphere.v);
    model.solve(sphere_problem(sphere), r);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved);
    ASSERT_EQ(r.stats.iterations, 0);
    sphere.v = r.v_plus;
    const double decay = std::pow(1 + x, -k);
    // Roundoff of each step relative to v₀, accumulated over k steps.
    const double slack = k * kRelative;
    EXPECT_LE((sphere.slip() - decay * v0).norm(), slack);
    EXPECT_LE((sphere.v.head<2>() - (5.0 / 7.0 + 2.0 / 7.0 * decay) * v0).norm(), slack);
    EXPECT_NEAR(sphere.v[2], 0.0, kRelative);
    EXPECT_NEAR(r.p_N[0], p_weight, kRelative * p_weight);
    const Eigen::Vector2d p_t(r.p_S[0], r.p_T[0]);
    EXPECT_LE((p_t + d * decay * v0).norm(), d * slack);
    // The power of friction, −μ_v |u⁺|², and the energy it takes.
    const ViscousReport& report = r.report_as<ViscousReport>();
    EXPECT_LE(report.friction_power, 0.0);
    EXPECT_NEAR(report.friction_power, -kMuViscous * (decay * v0).squaredNorm(), 2 * kMuViscous * slack);
    EXPECT_LE(0.5 * r.v_plus.dot(sphere.M * r.v_plus), kinetic);
  }
}

TEST(ViscousSingleContact, ARestingSphereCarriesItsWeight) {
  test::expect_a_resting_sphere_carries_its_weight(model_with(true), kRelative);
}

TEST(ViscousSingleContact, ASeparatingContactPushesNotAndItsFrictionStillActs) {
  // Leaving the ground at 1 m/s with a sideways slip, within the collision margin or beyond it: the model has
  // no margin (V1 holds at every contact of the problem), so p_N = 0 and the slip decays by one step of (V4),
  // u⁺ = u/(1 + x), while the normal velocity is v*'s.
  for (const double margin : {1e-4, std::numeric_limits<double>::infinity()}) {
    SCOPED_TRACE("margin " + std::to_string(margin));
    SphereOnGround sphere(2e-4);
    sphere.v << 0.5, 0.0, 1.0, 0.0, 0.0, 0.0;
    const ContactProblem P = sphere_problem(sphere, margin);
    ContactResult r;
    model_with(true).solve(P, r);
    ASSERT_EQ(r.stats.iterations, 0);
    EXPECT_EQ(r.p_N[0], 0.0);
    EXPECT_EQ(r.v_plus[2], P.v_star[2]);
    sphere.v = r.v_plus;
    const double x = 3.5 * kDt * kMuViscous / kMass;
    EXPECT_NEAR(sphere.slip()[0], 0.5 / (1 + x), kRelative);
    EXPECT_NEAR(sphere.slip()[1], 0.0, kRelative);
  }
}

TEST(ViscousSingleContact, TheLemkeSolverPivotsOnOneContactToo) {
  ViscousOptions options;
  options.projection.solver = ProjectionSolver::Lemke;
  test::expect_the_lemke_solver_pivots_on_one_contact<ViscousReport>(model_with(true), ViscousModel(options), kAgree);
}

}  // namespace
}  // namespace impetus
