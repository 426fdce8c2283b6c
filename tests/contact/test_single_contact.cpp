// The closed form of a one-contact island (contact/max_dissipation/single_contact.hpp) against the
// general interior point of the same model, on random problems: a box or two boxes touching at one
// point, random inertia, frame, v*, gap and μ. The closed form must be the optimum: feasible, with
// phase I's complementarity, and no more kinetic energy than the interior point's answer, from which
// its v⁺ can then differ only as far as that energy gap allows.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/max_dissipation/single_contact.hpp"
#include "tests/contact/problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::ProblemBuilder;

// The closed form meets its optimality conditions to 1e-10 of the velocity scale (kCertificate of
// single_contact.cpp); feasibility is checked at ten times that, leaving room for the rounding of
// v⁺ = v* + M⁻¹Gᵀp over inertias spanning three decades.
constexpr double kFeasible = 1e-9;
// The interior point stops at a relative gap of 1e-11 and residuals of 1e-8 of its scales
// (MaxDissipationOptions), so its kinetic energy may lie below the optimum by its constraint
// violation times the multipliers: 1e-8 of the energy scale bounds it with a margin of ten.
constexpr double kEnergy = 1e-8;
// The interior point's impulses converge like √gap on degenerate programs (test_max_dissipation.cpp,
// kTwoRoutes): compared at 3e-4 of the impulse scale max(κ, m̄ v̄) of its acceptance checks (MD9).
constexpr double kTwoRoutes = 3e-4;
// A closed form of two or three operations on numbers of one magnitude: a few units in the last place.
constexpr double kRounding = 1e-14;

struct RandomContact {
  ProblemBuilder builder{0.01};
  const ContactProblem* problem = nullptr;
};

/// One contact between a random box and the ground (or a second random box), random frame at a
/// random point, v* of ~1 m/s, φ in ±1 mm (exactly 0 one time in four), μ in [0, 1.2] (0 one time in eight).
void make_random(RandomContact& rc, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1), mass(0.05, 50), half(0.02, 1), mu(0, 1.2);
  const bool two_bodies = rng() % 2 == 0;
  const int bodies = two_bodies ? 2 : 1;
  for (int k = 0; k < bodies; ++k) rc.builder.add_system(box_inertia(mass(rng), Eigen::Vector3d(half(rng), half(rng), half(rng))));
  const Eigen::Quaterniond q = Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized();
  const Eigen::Matrix3d frame = q.toRotationMatrix();
  const Eigen::Vector3d n = frame.col(0), s = frame.col(1), t = frame.col(2);
  const int nv = 6 * bodies;
  auto row = [&](const Eigen::Vector3d& d, const Eigen::Vector3d& r1, const Eigen::Vector3d& r2) {
    Eigen::RowVectorXd out = Eigen::RowVectorXd::Zero(nv);
    out.head(6) = box_row(r1, d);
    if (two_bodies) out.tail(6) = -box_row(r2, d);
    return out;
  };
  const Eigen::Vector3d r1(U(rng), U(rng), U(rng)), r2(U(rng), U(rng), U(rng));
  const double phi = rng() % 4 == 0 ? 0.0 : 1e-3 * U(rng);
  const double friction = rng() % 8 == 0 ? 0.0 : mu(rng);
  rc.builder.contact(row(n, r1, r2), row(s, r1, r2), row(t, r1, r2), phi, friction);
  Eigen::VectorXd v_star(nv);
  for (int j = 0; j < nv; ++j) v_star[j] = U(rng);
  rc.problem = &rc.builder.build(v_star, v_star);
}

double row_dot(const SparseRows& X, const Eigen::VectorXd& v) { return (X * v)[0]; }

TEST(SingleContact, IsTheOptimumOfBothPhasesOnRandomProblems) {
  MaxDissipationOptions general_options;
  general_options.single_contact_closed_form = false;
  const MaxDissipationModel general(general_options), closed;
  std::mt19937 rng(16);
  constexpr int kProblems = 400;
  int certified = 0;
  for (int k = 0; k < kProblems; ++k) {
    RandomContact rc;
    make_random(rc, rng);
    const ContactProblem& P = *rc.problem;
    SCOPED_TRACE("problem " + std::to_string(k));
    SingleContact sc;
    ContactResult rg, rc_result;
    general.solve(P, rg);
    closed.solve(P, rc_result);
    if (!solve_single_contact(P, sc)) {
      // Declined: the model must then give the general path's answer, bit for bit.
      EXPECT_TRUE(rc_result.v_plus == rg.v_plus && rc_result.p_N == rg.p_N && rc_result.p_S == rg.p_S &&
                  rc_result.p_T == rg.p_T);
      continue;
    }
    ++certified;
    ASSERT_EQ(rg.stats.status, SolveStatus::Solved) << rg.stats.message;
    ASSERT_EQ(rc_result.stats.status, SolveStatus::Solved) << rc_result.stats.message;
    EXPECT_LE(sc.residual, kFeasible);
    const double c = P.phi[0] / P.dt;
    const double vscale = std::max({P.v_star.lpNorm<Eigen::Infinity>(), std::abs(c), std::abs(row_dot(P.N, P.v_star))});
    double trace = 0;
    for (const SystemBlock& s : P.systems) trace += s.M->trace();
    const double pbar = std::max(sc.p_N_one, trace / P.nv * vscale);

    // Phase I: 0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0, and κ as the interior point found it.
    const double kappa = sc.p_N_one;
    const double w1 = row_dot(P.N, sc.v_one) + c;
    EXPECT_GE(kappa, 0.0);
    EXPECT_GE(w1, -kFeasible * vscale);
    EXPECT_LE(kappa * std::abs(w1), kFeasible * vscale * std::max(kappa, 1e-300));
    const double kappa_general = rg.report_as<MaxDissipationReport>().kappa;
    EXPECT_NEAR(kappa, kappa_general, kTwoRoutes * pbar);

    // Phase II: feasible (gap row, budget, cone) and no more kinetic energy than the interior point's.
    const Eigen::Vector3d& p = sc.p;
    EXPECT_GE(row_dot(P.N, sc.v_two) + c, -kFeasible * vscale);
    EXPECT_LE(p[0], kappa * (1 + kFeasible));
    EXPECT_LE(std::hypot(p[1], p[2]), std::max(P.mu[0], 0.0) * p[0] + kFeasible * kappa);
    const double ke_closed = P.kinetic_energy(sc.v_two), ke_general = P.kinetic_energy(rg.v_plus);
    const double energy_scale = std::max(P.kinetic_energy(P.v_star), 1e-300);
    EXPECT_LE(ke_closed, ke_general + kEnergy * energy_scale);
    // Optimality of v_closed over a convex set containing (nearly) v_general: ½‖v_g − v_c‖²_M ≤ KE_g − KE_c.
    const double distance = P.kinetic_energy(rg.v_plus - sc.v_two);
    EXPECT_LE(distance, std::max(ke_general - ke_closed, 0.0) + kEnergy * energy_scale);
    EXPECT_NEAR(p[0], rg.p_N[0], kTwoRoutes * pbar);
    EXPECT_NEAR(p[1], rg.p_S[0], kTwoRoutes * pbar);
    EXPECT_NEAR(p[2], rg.p_T[0], kTwoRoutes * pbar);

    // The model returns the closed form and counts no interior-point iteration.
    EXPECT_TRUE(rc_result.v_plus == sc.v_two);
    EXPECT_EQ(rc_result.p_N[0], p[0]);
    EXPECT_EQ(rc_result.stats.iterations, 0);
    EXPECT_TRUE(rc_result.report_as<MaxDissipationReport>().phase_two_accepted);
  }
  // The path must carry most islands, or the comparison above says little: it declines only an
  // optimum with p_N < κ (friction lifting a penetrating or touching contact, SC4) or a degenerate A.
  EXPECT_GE(certified, kProblems / 2);
  RecordProperty("certified", certified);
}

TEST(SingleContact, ARestingSphereKeepsItsWeightAndNoSlip) {
  // A sphere (radius ρ, mass m) resting on the ground under gravity: κ = m g dt, no friction needed,
  // v⁺ = 0 — the case of every island of scenes/spheres_rest1000.xml.
  const double m = 2.0, radius = 0.1, dt = 0.001, g = 9.81;
  ProblemBuilder b(dt);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
  M.topLeftCorner(3, 3) = m * Eigen::Matrix3d::Identity();
  M.bottomRightCorner(3, 3) = 0.4 * m * radius * radius * Eigen::Matrix3d::Identity();
  b.add_system(M);
  const Eigen::Vector3d r(0, 0, -radius);
  b.contact(box_row(r, Eigen::Vector3d::UnitZ()), box_row(r, Eigen::Vector3d::UnitX()), box_row(r, Eigen::Vector3d::UnitY()),
            0.0, 0.5);
  Eigen::VectorXd v_star = Eigen::VectorXd::Zero(6);
  v_star[2] = -g * dt;
  const ContactProblem& P = b.build(Eigen::VectorXd::Zero(6), v_star);
  SingleContact sc;
  ASSERT_TRUE(solve_single_contact(P, sc));
  EXPECT_NEAR(sc.p_N_one, m * g * dt, kRounding * m * g * dt);
  EXPECT_NEAR(sc.p[0], m * g * dt, kRounding * m * g * dt);
  EXPECT_NEAR(sc.v_two.norm(), 0.0, kRounding * g * dt);
}

}  // namespace
}  // namespace impetus
