// Stewart–Trinkle's one-contact path (contact/stewart_trinkle/single_contact.hpp) against the general path of
// the same model (warm start, Lemke) on random one-contact problems, and on the physics of a sphere on the
// ground: sliding at the pyramid's rate along an edge and over a facet, then rolling, and resting.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "contact/solvers/lemke.hpp"
#include "contact/stewart_trinkle/single_contact.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "tests/contact/problem_builder.hpp"
#include "tests/contact/sphere_on_ground.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::kGravity;
using test::ProblemBuilder;
using test::SphereOnGround;

// Lemke with refinement and the closed form each solve (ST6) to ρ ≈ 1e-15 ·cond; v⁺ of the two routes is
// compared at 1e-9 of the problem's velocity scale (inertias span three decades here, cond(W) ≲ 1e6).
constexpr double kVelocity = 1e-9;
// The closed form's z checked by the certificate (L6) on the general path's own (ST6) at the model's default
// tolerance: the acceptance test of every answer of the model.
const double kTolerance = StewartTrinkleOptions{}.tolerance;

StewartTrinkleModel model_with(int edges, bool closed_form) {
  StewartTrinkleOptions options;
  options.friction_edges = edges;
  options.single_contact_closed_form = closed_form;
  return StewartTrinkleModel(options);
}

/// μ from {0, 0.3, 1, 10} (test::random_one_contact).
const ContactProblem& random_contact(ProblemBuilder& builder, std::mt19937& rng) {
  const double mus[] = {0.0, 0.3, 1.0, 10.0};
  return test::random_one_contact(builder, rng, [&] { return mus[rng() % 4]; });
}

TEST(StewartTrinkleSingleContact, MeetsTheCertificateAndLemkesVelocityOnRandomProblems) {
  std::mt19937 rng(1016);
  constexpr int kProblems = 600;
  int certified = 0, compared = 0, sliding = 0, facets = 0, sticking = 0, separating = 0;
  for (int i = 0; i < kProblems; ++i) {
    ProblemBuilder builder(0.01);
    const ContactProblem& P = random_contact(builder, rng);
    const int edges = i % 3 == 0 ? 6 : 4;
    SCOPED_TRACE("problem " + std::to_string(i) + ", μ = " + std::to_string(P.mu[0]) + ", k = " + std::to_string(edges));
    const StewartTrinkleModel closed = model_with(edges, true), general = model_with(edges, false);
    ContactResult rc, rg;
    closed.solve(P, rc);
    general.solve(P, rg);
    ASSERT_EQ(rg.stats.status, SolveStatus::Solved) << rg.stats.message;

    StewartTrinkleSingleContact sc;
    Eigen::VectorXd v_plus = P.v_star;
    if (!sc.solve(P, edges, kTolerance, v_plus)) {
      // Declined: the model gives the general path's answer, bit for bit.
      EXPECT_TRUE(rc.v_plus == rg.v_plus && rc.p_N == rg.p_N && rc.p_S == rg.p_S && rc.p_T == rg.p_T);
      continue;
    }
    ++certified;
    // The model returns the closed form: Solved, no pivot.
    EXPECT_TRUE(rc.v_plus == v_plus);
    EXPECT_EQ(rc.p_N[0], sc.p[0]);
    EXPECT_EQ(rc.stats.status, SolveStatus::Solved);
    EXPECT_EQ(rc.stats.iterations, 0);

    // Its z solves the general path's own (ST6) to the model's certificate.
    StewartTrinkleLcp lcp;
    assemble_stewart_trinkle_lcp(P, edges, StewartTrinkleOptions{}.merge_tolerance, lcp);
    const Eigen::VectorXd z = sc.z.head(lcp.size);
    Eigen::VectorXd w;
    EXPECT_LE(lcp_residual(lcp.A, lcp.q, z, w), kTolerance);
    if (lcp.nf == 1) {
      const int active_edges = static_cast<int>((z.segment(lcp.offset_F, edges).array() > 0).count());
      const bool slides = z[lcp.offset_lambda] > 0 && z[0] > 0;
      sliding += slides;
      facets += slides && active_edges == 2;
      sticking += !slides && z[0] > 0;
      separating += z[0] == 0;
    }

    // v⁺ equals Lemke's where v⁺ is unique: when no edge's full friction can pull the contact in,
    // (W e_j)_N = W_NN + μ d_j·W_tN > 0 for every edge j (then the normal impulse is monotone in the slip).
    const Eigen::Matrix3d& W = sc.rows.W;
    bool unique = true;
    for (int j = 0; j < lcp.k && P.mu[0] > 0; ++j)
      unique = unique && W(0, 0) + P.mu[0] * (lcp.cos_edge[j] * W(0, 1) + lcp.sin_edge[j] * W(0, 2)) > 0;
    if (!unique) continue;
    ++compared;
    const double scale = std::max({P.v_star.lpNorm<Eigen::Infinity>(), std::abs(P.phi[0] / P.dt)});
    EXPECT_LE((rc.v_plus - rg.v_plus).lpNorm<Eigen::Infinity>(), kVelocity * scale)
        << "closed " << rc.v_plus.transpose() << "\ngeneral " << rg.v_plus.transpose() << "\nz " << z.transpose();
  }
  // The path must carry the islands, and the problems must have met every regime, or the comparison says little.
  EXPECT_EQ(certified, kProblems);
  EXPECT_GT(separating, 0);
  EXPECT_GT(sticking, 0);
  EXPECT_GT(sliding - facets, 0);
  EXPECT_GT(facets, 0);
  EXPECT_GE(compared, kProblems / 2);
  RecordProperty("certified", certified);
  RecordProperty("compared", compared);
  RecordProperty("facets", facets);
}

// ------------------------------------------------------------------ a sphere on the ground

constexpr double kMass = SphereOnGround::kMass, kRadius = SphereOnGround::kRadius, kDt = SphereOnGround::kDt;
constexpr double kMu = SphereOnGround::kMu;
// Each step's impulses against the analytic ones, relative to m g dt: the closed form's rounding.
constexpr double kRelative = 1e-12;

/// Slides a sphere launched at (1 m/s) (cos θ, sin θ, 0) without spin until it rolls, checking every step
/// against the four-edge pyramid: a sliding step has p_N = m g dt and friction μ p_N on the edge most
/// opposed to the slip (then the slip's other component keeps its value) or spread over the facet between
/// two edges (then the slip stays on the facet's diagonal); once the contact point sticks, no friction is
/// needed and the centre keeps 5/7 of its launch velocity (angular momentum about the contact point). The
/// slip decreases by W_tt μ p_N = 3.5 μ g dt per step along the edge (W_tt = 1/m + R²/I = 3.5/m).
void slide_until_rolling(double theta, int& edge_steps, int& facet_steps) {
  SphereOnGround sphere;
  const Eigen::Vector2d v0(std::cos(theta), std::sin(theta));
  sphere.v.head<2>() = v0;
  const StewartTrinkleModel model = model_with(4, true);
  const double p_weight = kMass * kGravity * kDt, tol = kRelative * p_weight;
  const double slip_rate = 3.5 * kMu * kGravity * kDt;   // m/s per step along an edge
  int phase = 0;   // 0 edge, 1 facet, 2 rolling: never back
  edge_steps = facet_steps = 0;
  for (int step = 0; step < 400; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const Eigen::Vector2d slip = sphere.slip();
    ContactResult r;
    model.solve(sphere.problem(), r);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved);
    ASSERT_EQ(r.stats.iterations, 0);
    const double kinetic = 0.5 * sphere.v.dot(sphere.M * sphere.v);
    sphere.v = r.v_plus;
    const Eigen::Vector2d slip_plus = sphere.slip();
    EXPECT_NEAR(r.p_N[0], p_weight, tol);
    EXPECT_NEAR(r.v_plus[2], 0.0, kRelative * kGravity * kDt);
    EXPECT_LE(0.5 * r.v_plus.dot(sphere.M * r.v_plus), kinetic * (1 + kRelative));   // no energy gain
    const Eigen::Vector2d p_t(r.p_S[0], r.p_T[0]);
    if (slip_plus.norm() <= kRelative) {   // sticks: the friction the pyramid allows stopped the slip
      phase = 2;
      EXPECT_LE(p_t.lpNorm<1>(), kMu * r.p_N[0] + tol);
      continue;
    }
    ASSERT_LT(phase, 2) << "slips again after rolling";
    EXPECT_NEAR(p_t.lpNorm<1>(), kMu * r.p_N[0], tol);   // on the pyramid's boundary
    const bool edge = std::abs(p_t[1]) <= tol || std::abs(p_t[0]) <= tol;
    if (edge && phase == 0) {
      // All friction on the edge opposing the larger slip component, which falls at the edge's rate.
      const int axis = std::abs(p_t[0]) > tol ? 0 : 1;
      EXPECT_GE(std::abs(slip[axis]), std::abs(slip[1 - axis]));
      EXPECT_NEAR(slip_plus[axis], slip[axis] - std::copysign(slip_rate, slip[axis]), kRelative);
      EXPECT_NEAR(slip_plus[1 - axis], slip[1 - axis], kRelative);
      ++edge_steps;
    } else {
      // The facet: both edges loaded, the slip on the diagonal between them after the step.
      phase = 1;
      EXPECT_LT(p_t[0], 0);
      EXPECT_LT(p_t[1], 0);
      EXPECT_NEAR(slip_plus[0], slip_plus[1], kRelative);
      if (std::abs(slip[0] - slip[1]) <= kRelative) {   // already on it: each component at half the rate
        EXPECT_NEAR(slip_plus[0], slip[0] - 0.5 * slip_rate, kRelative);
        ++facet_steps;
      }
    }
  }
  EXPECT_EQ(phase, 2) << "never rolled";
  EXPECT_NEAR(sphere.v[0], 5.0 / 7.0 * v0[0], kRelative);
  EXPECT_NEAR(sphere.v[1], 5.0 / 7.0 * v0[1], kRelative);
}

TEST(StewartTrinkleSingleContact, ASphereSlidingAlongAnEdgeDeceleratesAtTheEdgesRateThenRolls) {
  int edge_steps = 0, facet_steps = 0;
  slide_until_rolling(0.0, edge_steps, facet_steps);
  // 1 m/s of slip at 3.5 μ g dt per step: 58 whole steps on the edge, the 59th sticks.
  EXPECT_EQ(edge_steps, static_cast<int>(1.0 / (3.5 * kMu * kGravity * kDt)));
  EXPECT_EQ(facet_steps, 0);
}

TEST(StewartTrinkleSingleContact, ASphereSlidingBetweenEdgesTakesTheNearerEdgeThenTheFacet) {
  int edge_steps = 0, facet_steps = 0;
  slide_until_rolling(std::numbers::pi / 6, edge_steps, facet_steps);   // 30° from t1
  // On the edge −t1 until the slip reaches the diagonal (cos 30° − sin 30° at 3.5 μ g dt a step), then the facet.
  const double rate = 3.5 * kMu * kGravity * kDt;
  EXPECT_EQ(edge_steps, static_cast<int>((std::cos(std::numbers::pi / 6) - 0.5) / rate));
  EXPECT_GT(facet_steps, 0);
}

TEST(StewartTrinkleSingleContact, ARestingSphereStaysWithItsWeightAndNoEnergy) {
  test::expect_a_resting_sphere_carries_its_weight(model_with(4, true), kRelative);
}

TEST(StewartTrinkleSingleContact, ARankDeficientContactIsSolvedLikeLemke) {
  // A slider of one coordinate along the normal: S = T = 0, W = diag(1/m, 0, 0) is singular, (SS2) has no
  // solution, and the edges (SS3) carry the answer.
  for (const double v : {-1.0, 1.0}) {
    ProblemBuilder builder(kDt);
    builder.add_system(kMass * Eigen::MatrixXd::Identity(1, 1));
    builder.contact(Eigen::RowVectorXd::Ones(1), Eigen::RowVectorXd::Zero(1), Eigen::RowVectorXd::Zero(1), 0.0, kMu);
    const ContactProblem& P = builder.build(Eigen::VectorXd::Constant(1, v), Eigen::VectorXd::Constant(1, v - kGravity * kDt));
    ContactResult rc, rg;
    model_with(4, true).solve(P, rc);
    model_with(4, false).solve(P, rg);
    EXPECT_EQ(rc.stats.iterations, 0);
    EXPECT_NEAR(rc.v_plus[0], rg.v_plus[0], kVelocity);
    EXPECT_NEAR(rc.v_plus[0], std::max(v - kGravity * kDt, 0.0), kVelocity);
  }
}

}  // namespace
}  // namespace impetus
