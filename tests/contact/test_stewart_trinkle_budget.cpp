// The work budget of Stewart–Trinkle (stewart_trinkle.hpp, ST12) and of Lemke (lemke.hpp,
// LemkeOptions::pivot_budget): a solve that needs more than its budget stops, falls back and says so; and the
// sparse method (sparse_newton.hpp, ST13) that solves an LCP above max_lemke_size to the same certificate,
// or gives up (its progress tests) and falls back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/dump/problem_dump.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/stewart_trinkle/sparse_newton.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

using test::kGravity;
using test::ProblemBuilder;

constexpr double kDt = 1e-3;     // s
constexpr double kMass = 1.0;    // kg
constexpr double kMu = 0.5;
// Non-penetration of the fallback's answer, relative to the step's velocity scale g·dt: max_dissipation
// meets (ST2) to its interior point's tolerance (1e-8 relative, max_dissipation.hpp), far inside this.
constexpr double kRelative = 1e-6;

/// A column of `count` point masses (3 DoF each) resting on each other and on the ground, every contact
/// touching (φ = 0) and loaded by the weight above it: the LCP's solution has every p_N > 0, so Lemke needs
/// at least one pivot per contact.
/// The same column with gaps φ = `gap` and velocities v⁻ = v, v* = v_star (3·count).
const ContactProblem& column_of_masses(ProblemBuilder& b, int count, double gap, const Eigen::VectorXd& v,
                                       const Eigen::VectorXd& v_star) {
  for (int i = 0; i < count; ++i) b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
  const int nv = 3 * count;
  const auto row = [&](int axis, int upper, int lower) {
    Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(nv);
    r[3 * upper + axis] = 1;
    if (lower >= 0) r[3 * lower + axis] = -1;
    return r;
  };
  for (int i = 0; i < count; ++i) b.contact(row(2, i, i - 1), row(0, i, i - 1), row(1, i, i - 1), gap, kMu);
  return b.build(v, v_star);
}

const ContactProblem& column_of_masses(ProblemBuilder& b, int count) {
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(3 * count);
  Eigen::VectorXd v_star = v;
  for (int i = 0; i < count; ++i) v_star[3 * i + 2] = -kGravity * kDt;
  return column_of_masses(b, count, 0.0, v, v_star);
}

/// N v⁺ + φ/dt ≥ 0 within kRelative of g·dt, and every p_N ≥ 0.
void expect_non_penetrating(const ContactProblem& p, const ContactResult& r) {
  const Eigen::VectorXd gap_rate = p.N * r.v_plus + p.phi / p.dt;
  for (int c = 0; c < p.nc; ++c) {
    EXPECT_GE(r.p_N[c], 0.0) << "contact " << c;
    EXPECT_GE(gap_rate[c], -kRelative * kGravity * kDt) << "contact " << c;
  }
}

TEST(LemkeBudget, AnAttemptStopsAtTheBudgetAndNoRetryStarts) {
  // A z + q with A = I + 𝟙𝟙ᵀ (positive definite) and q = −𝟙: z = 𝟙/(n + 1) > 0, so Lemke pivots every z_i
  // in, n pivots at least. With a budget of n/2 it must stop within it and say so.
  const int n = 40;
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n) + Eigen::MatrixXd::Ones(n, n);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(n);
  Eigen::VectorXd z;
  LemkeOptions options;
  options.pivot_budget = n / 2;
  LemkeSolver lemke(options);
  const LemkeResult r = lemke.solve(A, q, z);
  EXPECT_FALSE(r.solved());
  EXPECT_TRUE(r.budget_spent);
  EXPECT_LE(r.pivots, options.pivot_budget);
  EXPECT_EQ(r.attempts, 1);   // no Tikhonov retry once the budget is spent
  EXPECT_TRUE(z.allFinite());

  options.pivot_budget = 0;   // no budget: the same problem is solved
  LemkeSolver unlimited(options);
  const LemkeResult solved = unlimited.solve(A, q, z);
  ASSERT_TRUE(solved.solved());
  EXPECT_FALSE(solved.budget_spent);
  EXPECT_GE(solved.pivots, n);
}

TEST(StewartTrinkleBudget, ASpentPivotBudgetFallsBackToMaxDissipationAndSaysSo) {
  ProblemBuilder b(kDt);
  const ContactProblem& p = column_of_masses(b, 12);
  StewartTrinkleOptions options;
  options.warm_start = false;
  options.pivot_budget = 3;   // fewer pivots than loaded contacts
  const StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Fallback);
  EXPECT_NE(r.stats.message.find("pivot budget of 3"), std::string::npos) << r.stats.message;
  EXPECT_NE(r.stats.message.find("max_dissipation"), std::string::npos) << r.stats.message;
  expect_non_penetrating(p, r);
  // The column carries its weight: the ground contact the whole column's, m g dt per mass.
  EXPECT_NEAR(r.p_N[0], 12 * kMass * kGravity * kDt, kRelative * 12 * kMass * kGravity * kDt);

  options.pivot_budget = 0;   // automatic: solved by Lemke
  const StewartTrinkleModel automatic(options);
  ContactResult solved;
  automatic.solve(p, solved);
  EXPECT_EQ(solved.stats.status, SolveStatus::Solved) << solved.stats.message;
}

TEST(StewartTrinkleBudget, AnLcpAboveMaxLemkeSizeFallsBackWithoutLemke) {
  ProblemBuilder b(kDt);
  const ContactProblem& p = column_of_masses(b, 12);   // 12 groups × (1 + 4 + 1) = 72 unknowns
  StewartTrinkleOptions options;
  options.max_lemke_size = 71;
  options.sparse_iterations = 0;   // no sparse method (ST13): straight to the fallback
  const StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Fallback);
  EXPECT_NE(r.stats.message.find("72 unknowns above max_lemke_size 71"), std::string::npos) << r.stats.message;
  expect_non_penetrating(p, r);

  options.max_lemke_size = 72;
  const StewartTrinkleModel at_size(options);
  ContactResult solved;
  at_size.solve(p, solved);
  EXPECT_EQ(solved.stats.status, SolveStatus::Solved) << solved.stats.message;
}

/// (ST2), (ST5) and complementarity of the result, checked here from the rows rather than taken from the
/// solver, in the certificate's own measures (lemke.hpp L6): ρ ≤ tolerance against the LCP's data scale
/// w_ref = ‖q‖∞ (velocities: the rows of U v* + φ/dt and F v*) and its impulse scale P (k = 4). The pyramid
/// rows (ST5) are certified as a(μ p_N − Eᵀp_F) ≥ −ρ w_ref, scaled by (ST7)'s a = mean diag(N W Nᵀ): in
/// impulses their slack is ρ w_ref / a, which is not ρ P (a pile's weight per contact can be far below a
/// stopping impulse w_ref / a), so |p_S| + |p_T| ≤ μ p_N is checked against that slack.
void expect_certified(const ContactProblem& p, const ContactResult& r, double tolerance) {
  const Eigen::VectorXd gap_rate = p.N * r.v_plus + p.phi / p.dt;
  const Eigen::VectorXd q_N = p.N * p.v_star + p.phi / p.dt;
  const double w_ref = std::max({q_N.lpNorm<Eigen::Infinity>(), (p.S * p.v_star).lpNorm<Eigen::Infinity>(),
                                 (p.T * p.v_star).lpNorm<Eigen::Infinity>()});
  // a over contacts: (ST7) takes it over groups (ST9), which merge no contact of these problems.
  double a = 0;
  Eigen::VectorXd n, W_n;
  for (int c = 0; c < p.nc; ++c) {
    n = p.N.row(c).transpose();
    p.solve_M(n, W_n);
    a += n.dot(W_n) / p.nc;
  }
  const double P = r.p_N.maxCoeff();
  for (int c = 0; c < p.nc; ++c) {
    EXPECT_GE(r.p_N[c], -tolerance * P) << "contact " << c;   // (L6): z ≥ −ρ‖z‖∞ (a sparse solve's roundoff)
    EXPECT_GE(gap_rate[c], -tolerance * w_ref) << "contact " << c;
    EXPECT_LE(std::abs(r.p_N[c] * gap_rate[c]), tolerance * w_ref * P) << "contact " << c;
    EXPECT_LE(std::abs(r.p_S[c]) + std::abs(r.p_T[c]), p.mu[c] * r.p_N[c] + tolerance * w_ref / a)
        << "contact " << c;
  }
}

TEST(StewartTrinkleSparse, AColumnAboveTheSizeIsSolvedSparseToTheCertificate) {
  ProblemBuilder b(kDt);
  const ContactProblem& p = column_of_masses(b, 12);
  StewartTrinkleOptions options;
  options.max_lemke_size = 1;   // every LCP goes to (ST13)
  const StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LE(r.stats.residual, options.tolerance);
  expect_certified(p, r, options.tolerance);
  // The column at rest: every mass stops (v⁺ = 0), contact i carries the 12 − i masses above it.
  for (int i = 0; i < 12; ++i)
    EXPECT_NEAR(r.p_N[i], (12 - i) * kMass * kGravity * kDt, options.tolerance * 12 * kMass * kGravity * kDt) << i;
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), options.tolerance * kGravity * kDt * 12);
}

TEST(StewartTrinkleSparse, AColumnComingApartTakesNoImpulseAndOneClosingGapIsSolved) {
  // Twelve masses 1 cm apart, each rising faster than the one below and sliding sideways against it: every
  // contact separates within the step (q_N > 0), so z = 0 with λ̂ the sliding speeds solves (ST6) — found
  // without the island's matrix (ST11 with no group). Then the fifth mass falls onto the fourth fast enough
  // to close its gap within the step: that group is loaded and the general path solves the island.
  const int count = 12, nv = 3 * count;
  const auto column = [&](ProblemBuilder& b, double closing) -> const ContactProblem& {
    Eigen::VectorXd v_star(nv);
    for (int i = 0; i < count; ++i) v_star.segment<3>(3 * i) = Eigen::Vector3d(0.1 * i, -0.05 * i, 0.2 * i);
    v_star[3 * 4 + 2] = v_star[3 * 3 + 2] - closing;
    return column_of_masses(b, count, 0.01, v_star, v_star);
  };
  StewartTrinkleOptions options;
  options.max_lemke_size = 1;   // every LCP goes to (ST13)
  const StewartTrinkleModel model(options);

  ProblemBuilder apart(kDt);
  const ContactProblem& p = column(apart, -0.1);
  StewartTrinkleLcp lcp, dense;
  group_stewart_trinkle_rows(p, options.friction_edges, options.merge_tolerance, lcp);
  StewartTrinkleSparseNewton sparse;
  SparseNewtonReport report;
  ASSERT_TRUE(sparse.solve_separating(p, lcp, options.tolerance, report));
  // Its z solves the whole (ST6), assembled densely: p = 0, and λ̂ > 0 on every group that slides.
  assemble_stewart_trinkle_lcp(p, options.friction_edges, options.merge_tolerance, dense);
  EXPECT_NEAR(lcp.balance, dense.balance, 1e-12 * dense.balance);
  ASSERT_EQ(sparse.z.size(), dense.size);
  EXPECT_TRUE(sparse.z.head(dense.offset_lambda).isZero(0));
  EXPECT_TRUE((sparse.z.tail(dense.nf).tail(count - 1).array() > 0).all());   // the ground contact does not slide
  const Eigen::VectorXd Az = dense.A * sparse.z, w = Az + dense.q;
  EXPECT_LE(lcp_certificate(dense.q, sparse.z, w, Az.lpNorm<Eigen::Infinity>()), options.tolerance);
  ContactResult r;
  model.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_EQ(r.stats.iterations, 0);
  EXPECT_LE(r.stats.residual, options.tolerance);
  EXPECT_EQ(r.v_plus, p.v_star);
  EXPECT_TRUE(r.p_N.isZero(0) && r.p_S.isZero(0) && r.p_T.isZero(0));

  ProblemBuilder closing(kDt);
  const ContactProblem& c = column(closing, 20.0);   // 2 cm in the step against a 1 cm gap
  group_stewart_trinkle_rows(c, options.friction_edges, options.merge_tolerance, lcp);
  EXPECT_FALSE(sparse.solve_separating(c, lcp, options.tolerance, report));
  model.solve(c, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  expect_certified(c, r, options.tolerance);
  EXPECT_GT(r.p_N[4], 0.0);
  EXPECT_NEAR(c.N.row(4).dot(r.v_plus) + c.phi[4] / kDt, 0.0, options.tolerance * 20.0);
}

TEST(StewartTrinkleSparse, ARealPileIsSolvedSparseToTheCertificate) {
  // Step 299 of scenes/granular_small.xml under stewart_trinkle (impetus run … --dump-problems): 27 spheres
  // settling in their box, nv = 162, 83 contacts, one island; Lemke takes 252 pivots. Solved here by (ST13)
  // alone (max_lemke_size 1), with its own guesses (the run's previous impulses) as the start.
  const ProblemDump dump = read_problem_dump(IMPETUS_SOURCE_DIR "/tests/contact/data/granular_small_st_step299.icp");
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& p = dump.problems.front()->problem;
  StewartTrinkleOptions options;
  options.max_lemke_size = 1;
  const StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LE(r.stats.residual, options.tolerance);
  expect_certified(p, r, options.tolerance);
}

TEST(StewartTrinkleSparse, APileItCannotCertifyFallsBackToMaxDissipationAndIsCounted) {
  // Step 260 of scenes/granular_small.xml under stewart_trinkle with max_lemke_size 1 (impetus run …
  // --dump-problems): 77 contacts, 462 unknowns. Stage 1's basis is singular (statically indeterminate
  // contacts); in the native build the Fischer–Burmeister iteration stops at ρ ≈ 0.6, but whether (ST13)
  // certifies a given pile hangs on rounding (the portable build, -DIMPETUS_NATIVE=OFF, certifies this one at
  // 1e-6). A certificate tolerance of 0 is one no iterate meets on any machine, so (ST13) runs to its stopping
  // rules and is not certified, and the island is max_dissipation's (whose own tolerance is its default):
  // status Fallback (what the step counts), its answer max_dissipation's own.
  const ProblemDump dump = read_problem_dump(IMPETUS_SOURCE_DIR "/tests/contact/data/granular_small_st_step260.icp");
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& p = dump.problems.front()->problem;
  StewartTrinkleOptions options;
  options.max_lemke_size = 1;
  options.tolerance = 0;
  const double tolerance = StewartTrinkleOptions{}.tolerance;   // the checks of max_dissipation's answer below
  const StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Fallback) << r.stats.message;
  EXPECT_NE(r.stats.message.find("sparse Newton (ST13) not certified"), std::string::npos) << r.stats.message;
  EXPECT_NE(r.stats.message.find("max_dissipation (its certificate met)"), std::string::npos) << r.stats.message;

  const MaxDissipationModel max_dissipation;
  ContactResult direct;
  max_dissipation.solve(p, direct);
  ASSERT_EQ(direct.stats.status, SolveStatus::Solved) << direct.stats.message;
  EXPECT_EQ(r.v_plus, direct.v_plus);   // the same solve, to the bit
  EXPECT_EQ(r.p_N, direct.p_N);
  // max_dissipation's answer meets (ST2) and the Coulomb cone (max_dissipation.hpp, relative 1e-8, inside
  // the model tolerance used here).
  const double V = p.v_star.lpNorm<Eigen::Infinity>() + p.phi.lpNorm<Eigen::Infinity>() / p.dt;
  const double P = r.p_N.maxCoeff();
  const Eigen::VectorXd gap_rate = p.N * r.v_plus + p.phi / p.dt;
  for (int c = 0; c < p.nc; ++c) {
    EXPECT_GE(r.p_N[c], -tolerance * P) << "contact " << c;
    EXPECT_GE(gap_rate[c], -tolerance * V) << "contact " << c;
    EXPECT_LE(std::hypot(r.p_S[c], r.p_T[c]), p.mu[c] * r.p_N[c] + tolerance * P) << "contact " << c;
  }
}

TEST(StewartTrinkleSparse, AboveNewtonSizeOnlyTheActiveSetsRun) {
  // Step 299's problem (498 unknowns; its basis singular) is certified by stage 2, the semismooth Newton
  // steps: with newton_size below its size only stage 1 runs, and the island falls back at once, saying why;
  // at its size it is Solved.
  const ProblemDump dump = read_problem_dump(IMPETUS_SOURCE_DIR "/tests/contact/data/granular_small_st_step299.icp");
  const ContactProblem& p = dump.problems.front()->problem;
  StewartTrinkleOptions options;
  options.max_lemke_size = 1;
  options.newton_size = 497;
  const StewartTrinkleModel below(options);
  ContactResult r;
  below.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Fallback) << r.stats.message;
  EXPECT_NE(r.stats.message.find("no Newton step above newton_size"), std::string::npos) << r.stats.message;

  options.newton_size = 498;
  const StewartTrinkleModel at_size(options);
  at_size.solve(p, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  expect_certified(p, r, options.tolerance);
}

}  // namespace
}  // namespace impetus
