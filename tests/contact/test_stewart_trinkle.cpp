// Stewart–Trinkle (contact/stewart_trinkle/stewart_trinkle.hpp) on hand-built problems: analytic
// answers (resting, sliding, sticking, gaps, limits), invariants (complementarity, pyramid, energy),
// redundancy, and the statistics of a problem that needs more than the plain Lemke solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "contact/dump/problem_dump.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::kGravity;
using test::ProblemBuilder;
using test::row_at;

constexpr double kDt = 1e-3;     // s
constexpr double kMass = 2.0;    // kg
constexpr double kMu = 0.4;
const Eigen::Vector3d kHalf(0.5, 0.5, 0.5);   // unit cube: μ·h_z < h_x, so sliding never tips it

// Lemke with refinement solves these LCPs to ρ ≈ 1e-15; the worst case here is the box with
// triplicated corners, whose bases are near-singular (cond ~1e6). Relative to the step's impulse
// (m·g·dt) and velocity (g·dt) scales, 1e-9 bounds every analytic comparison with room to spare.
constexpr double kRelative = 1e-9;
const double kImpulse = kRelative * kMass * kGravity * kDt;   // N·s
const double kVelocity = kRelative * kGravity * kDt;          // m/s

Eigen::Vector3d e(int axis) { return Eigen::Vector3d::Unit(axis); }

// ------------------------------------------------------------------ problem makers

/// Point mass on the ground plane z = 0 (normal +z, t1 = x, t2 = y), pushed by a force f (N).
const ContactProblem& point_mass(ProblemBuilder& b, const Eigen::Vector3d& v, double phi, double mu,
                                 const Eigen::Vector3d& f = Eigen::Vector3d::Zero(), int copies = 1) {
  b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
  for (int i = 0; i < copies; ++i)
    b.contact(row_at(3, 0, e(2).transpose()), row_at(3, 0, e(0).transpose()), row_at(3, 0, e(1).transpose()), phi, mu);
  const Eigen::Vector3d v_star = v + kDt * (f / kMass - kGravity * e(2));
  return b.build(v, v_star);
}

/// Unit box (6 DoF, problem_builder.hpp) on the ground with its four bottom corners in contact;
/// `copies` duplicates every corner contact. v = (v_W, ω_W).
const ContactProblem& box_on_ground(ProblemBuilder& b, const Eigen::VectorXd& v, double mu,
                                    const Eigen::Vector3d& f = Eigen::Vector3d::Zero(), int copies = 1) {
  b.add_system(box_inertia(kMass, kHalf));
  for (int i = 0; i < copies; ++i)
    for (const Eigen::Vector3d& r : test::bottom_corners(kHalf))
      b.contact(box_row(r, e(2)), box_row(r, e(0)), box_row(r, e(1)), 0.0, mu);
  Eigen::VectorXd v_star = v;
  v_star.head(3) += kDt * (f / kMass - kGravity * e(2));
  return b.build(v, v_star);
}

Eigen::VectorXd twist(const Eigen::Vector3d& v, const Eigen::Vector3d& w = Eigen::Vector3d::Zero()) {
  Eigen::VectorXd out(6);
  out << v, w;
  return out;
}

ContactResult solve(const ContactProblem& p, int edges = 4, double merge_tolerance = StewartTrinkleOptions{}.merge_tolerance) {
  StewartTrinkleOptions options;
  options.friction_edges = edges;
  options.merge_tolerance = merge_tolerance;
  StewartTrinkleModel model(options);
  ContactResult r;
  model.solve(p, r);
  return r;
}

// ------------------------------------------------------------------ resting

TEST(StewartTrinkleModel, RestingPointMassCarriesItsWeight) {
  ProblemBuilder b(kDt);
  const ContactResult r = solve(point_mass(b, Eigen::Vector3d::Zero(), 0, kMu));
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_EQ(r.stats.attempts, 1);
  EXPECT_NEAR(r.p_N[0], kMass * kGravity * kDt, kImpulse);
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
}

TEST(StewartTrinkleModel, RestingBoxNormalImpulsesSumToWeight) {
  // Four coplanar corners: the split of p_N is indeterminate (N W Nᵀ has rank 3), only sums are asserted.
  ProblemBuilder b(kDt);
  const ContactResult r = solve(box_on_ground(b, twist(Eigen::Vector3d::Zero()), kMu));
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_NEAR(r.p_N.sum(), kMass * kGravity * kDt, kImpulse);
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);   // no drift, no spin: moments balance
  EXPECT_NEAR(r.p_S.sum(), 0, kImpulse);
  EXPECT_NEAR(r.p_T.sum(), 0, kImpulse);
  EXPECT_GE(r.p_N.minCoeff(), -kImpulse);
}

TEST(StewartTrinkleModel, StackedBoxesCheckTheSignsOfTheRows) {
  // Top box (A) on bottom box (B) on the ground: rows N = nᵀ(J_A − J_B) with n = +z from B to A.
  ProblemBuilder b(kDt);
  const int top = b.add_system(box_inertia(1.0, kHalf));
  const int bottom = b.add_system(box_inertia(3.0, kHalf));
  const int nv = 12;
  for (const Eigen::Vector3d& r : test::bottom_corners(kHalf)) {
    const Eigen::Vector3d r_bottom = r + 2 * kHalf.z() * e(2);   // the same point, from B's centre
    auto rows = [&](const Eigen::Vector3d& d) {
      return Eigen::RowVectorXd(row_at(nv, top, box_row(r, d)) - row_at(nv, bottom, box_row(r_bottom, d)));
    };
    b.contact(rows(e(2)), rows(e(0)), rows(e(1)), 0, kMu);
  }
  for (const Eigen::Vector3d& r : test::bottom_corners(kHalf))
    b.contact(row_at(nv, bottom, box_row(r, e(2))), row_at(nv, bottom, box_row(r, e(0))),
              row_at(nv, bottom, box_row(r, e(1))), 0, kMu);
  Eigen::VectorXd v_star = Eigen::VectorXd::Zero(nv);
  v_star[top + 2] = v_star[bottom + 2] = -kGravity * kDt;
  const ContactResult r = solve(b.build(Eigen::VectorXd::Zero(nv), v_star));
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_NEAR(r.p_N.head(4).sum(), 1.0 * kGravity * kDt, kImpulse);
  EXPECT_NEAR(r.p_N.tail(4).sum(), 4.0 * kGravity * kDt, kImpulse);
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
}

// ------------------------------------------------------------------ sliding and sticking

TEST(StewartTrinkleModel, SlowSliderStopsInOneStep) {
  // u < μ g dt: the friction budget μ m g dt exceeds the momentum m u, so the box sticks at once.
  const double u = 0.5 * kMu * kGravity * kDt;
  ProblemBuilder b(kDt);
  const ContactResult r = solve(box_on_ground(b, twist(u * e(0)), kMu));
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
  EXPECT_NEAR(r.p_S.sum(), -kMass * u, kImpulse);
  EXPECT_NEAR(r.p_T.sum(), 0, kImpulse);
}

struct EdgeCase {
  int edges;
  int edge;   // slide along pyramid edge j: angle 2πj/k
};

class SlidingAlongAnEdge : public testing::TestWithParam<EdgeCase> {};

TEST_P(SlidingAlongAnEdge, LosesExactlyMuGDtOfSpeed) {
  const auto [k, j] = GetParam();
  const double angle = 2 * std::numbers::pi * j / k;
  const Eigen::Vector3d d(std::cos(angle), std::sin(angle), 0);
  const double u = 3 * kMu * kGravity * kDt;
  ProblemBuilder b(kDt);
  const ContactResult r = solve(point_mass(b, u * d, 0, kMu), k);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_NEAR(r.p_N[0], kMass * kGravity * kDt, kImpulse);
  const Eigen::Vector3d v_expected = (u - kMu * kGravity * kDt) * d;
  EXPECT_LE((r.v_plus - v_expected).lpNorm<Eigen::Infinity>(), kVelocity);
  // The friction impulse is μ p_N along −d.
  EXPECT_NEAR(r.p_S[0], -kMu * r.p_N[0] * d.x(), kImpulse);
  EXPECT_NEAR(r.p_T[0], -kMu * r.p_N[0] * d.y(), kImpulse);
}

INSTANTIATE_TEST_SUITE_P(Edges, SlidingAlongAnEdge,
                         testing::Values(EdgeCase{4, 0}, EdgeCase{4, 1}, EdgeCase{4, 2}, EdgeCase{4, 3},
                                         EdgeCase{6, 1}, EdgeCase{8, 1}, EdgeCase{8, 5}, EdgeCase{16, 3}));

TEST(StewartTrinkleModel, SlidingBoxLosesMuGDtAndStaysFlat) {
  const double u = 5 * kMu * kGravity * kDt;
  ProblemBuilder b(kDt);
  const ContactResult r = solve(box_on_ground(b, twist(-u * e(1)), kMu));
  EXPECT_NEAR(r.p_N.sum(), kMass * kGravity * kDt, kImpulse);
  EXPECT_NEAR(r.v_plus[1], -(u - kMu * kGravity * kDt), kVelocity);
  EXPECT_LE(std::abs(r.v_plus[0]), kVelocity);
  EXPECT_LE(std::abs(r.v_plus[2]), kVelocity);
  EXPECT_LE(r.v_plus.tail(3).lpNorm<Eigen::Infinity>(), kVelocity);   // the normal impulses shift forward,
                                                                      // no tipping
  EXPECT_NEAR(r.p_T.sum(), kMu * kMass * kGravity * kDt, kImpulse);
}

TEST(StewartTrinkleModel, PushBelowMuMgSticksAboveSlides) {
  const double f_stick = 0.5 * kMu * kMass * kGravity, f_slide = 2 * kMu * kMass * kGravity;   // N
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(box_on_ground(b, twist(Eigen::Vector3d::Zero()), kMu, f_stick * e(0)));
    EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
    EXPECT_NEAR(r.p_S.sum(), -f_stick * kDt, kImpulse);
  }
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(box_on_ground(b, twist(Eigen::Vector3d::Zero()), kMu, f_slide * e(0)));
    EXPECT_NEAR(r.v_plus[0], (f_slide - kMu * kMass * kGravity) * kDt / kMass, kVelocity);
    EXPECT_NEAR(r.p_S.sum(), -kMu * kMass * kGravity * kDt, kImpulse);
  }
}

TEST(StewartTrinkleModel, FourEdgePyramidIsInscribedInTheCone) {
  // A push at 45° between t1 and t2 sticks while |f| (cos 45° + sin 45°) ≤ μ m g, i.e. up to
  // |f| = μ m g/√2: at 0.6 μ m g it sticks; at 0.8 μ m g — inside the Coulomb cone — the k = 4
  // pyramid cannot hold it, while k = 16 (whose inscribed radius is μ m g cos(π/16) ≈ 0.98 μ m g) can.
  const Eigen::Vector3d diagonal = Eigen::Vector3d(1, 1, 0).normalized();
  const double weight = kMass * kGravity;
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(point_mass(b, Eigen::Vector3d::Zero(), 0, kMu, 0.6 * kMu * weight * diagonal));
    EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
  }
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(point_mass(b, Eigen::Vector3d::Zero(), 0, kMu, 0.8 * kMu * weight * diagonal));
    EXPECT_GT(r.v_plus.head(2).norm(), 1e3 * kVelocity);
    EXPECT_NEAR(std::abs(r.p_S[0]) + std::abs(r.p_T[0]), kMu * r.p_N[0], kImpulse);   // on a facet
  }
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(point_mass(b, Eigen::Vector3d::Zero(), 0, kMu, 0.8 * kMu * weight * diagonal), 16);
    EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
  }
}

TEST(StewartTrinkleModel, FrictionlessContactSlidesFreely) {
  const Eigen::Vector3d v(1.0, -0.5, 0);
  ProblemBuilder b(kDt);
  const ContactProblem& p = point_mass(b, v, 0, 0.0);
  const ContactResult r = solve(p);
  EXPECT_EQ(r.p_S[0], 0.0);
  EXPECT_EQ(r.p_T[0], 0.0);
  EXPECT_NEAR(r.v_plus[0], v.x(), kVelocity);
  EXPECT_NEAR(r.v_plus[1], v.y(), kVelocity);
  EXPECT_NEAR(r.p_N[0], kMass * kGravity * kDt, kImpulse);
  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(p, 4, 0.0, lcp);
  EXPECT_EQ(lcp.size, 1);   // μ = 0: no friction rows, no λ
}

// ------------------------------------------------------------------ gaps and limits

TEST(StewartTrinkleModel, SeparatedContactAllowsApproachUpToTheGap) {
  const double phi = 0.01;   // m
  {
    // Falls 5 mm + g dt² in the step: less than φ, no impulse.
    ProblemBuilder b(kDt);
    const ContactProblem& p = point_mass(b, -5.0 * e(2), phi, kMu);
    const ContactResult r = solve(p);
    EXPECT_EQ(r.p_N[0], 0.0);
    EXPECT_LE((r.v_plus - p.v_star).lpNorm<Eigen::Infinity>(), kVelocity);
  }
  {
    // Would fall 20 mm: it closes exactly the gap, N v⁺ = −φ/dt.
    ProblemBuilder b(kDt);
    const ContactProblem& p = point_mass(b, -20.0 * e(2), phi, kMu);
    const ContactResult r = solve(p);
    EXPECT_NEAR(r.v_plus[2], -phi / kDt, kVelocity);
    EXPECT_NEAR(r.p_N[0], kMass * (-phi / kDt - p.v_star[2]), kImpulse);
  }
}

TEST(StewartTrinkleModel, JointLimitIsAFrictionlessUnilateralRow) {
  const double I = 0.5;   // kg·m², one revolute joint
  auto limit_problem = [&](ProblemBuilder& b, double w_star, double phi_L) -> const ContactProblem& {
    b.add_system(I * Eigen::MatrixXd::Identity(1, 1));
    b.limit(Eigen::RowVectorXd::Ones(1), phi_L);   // lower limit: L = +1
    return b.build(Eigen::VectorXd::Constant(1, w_star), Eigen::VectorXd::Constant(1, w_star));
  };
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(limit_problem(b, -3.0, 0.0));   // at the limit, driven into it
    EXPECT_NEAR(r.v_plus[0], 0, kVelocity);
    EXPECT_NEAR(r.p_L[0], I * 3.0, kImpulse);
  }
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(limit_problem(b, -3.0, 1e-3));  // 1 mrad away: may close it in the step
    EXPECT_NEAR(r.v_plus[0], -1e-3 / kDt, kVelocity);
    EXPECT_NEAR(r.p_L[0], I * 2.0, kImpulse);
  }
  {
    ProblemBuilder b(kDt);
    const ContactResult r = solve(limit_problem(b, 3.0, 0.0));    // leaving the limit: no impulse
    EXPECT_EQ(r.p_L[0], 0.0);
    EXPECT_NEAR(r.v_plus[0], 3.0, kVelocity);
  }
}

TEST(StewartTrinkleModel, JointLimitAndContactTogether) {
  // A point mass on the ground plus a 1-DoF joint at its limit, in one problem: independent blocks.
  ProblemBuilder b(kDt);
  b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
  b.add_system(0.5 * Eigen::MatrixXd::Identity(1, 1));
  b.contact(row_at(4, 0, e(2).transpose()), row_at(4, 0, e(0).transpose()), row_at(4, 0, e(1).transpose()), 0, kMu);
  b.limit(row_at(4, 3, -Eigen::RowVectorXd::Ones(1)), 0.0);   // upper limit: L = −1
  Eigen::VectorXd v(4), v_star(4);
  v << 0, 0, 0, 2.0;
  v_star << 0, 0, -kGravity * kDt, 2.0;
  const ContactResult r = solve(b.build(v, v_star));
  EXPECT_NEAR(r.p_N[0], kMass * kGravity * kDt, kImpulse);
  EXPECT_NEAR(r.p_L[0], 0.5 * 2.0, kImpulse);
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
}

// ------------------------------------------------------------------ redundancy

TEST(StewartTrinkleModel, DuplicatedContactsLeaveVelocityUnchanged) {
  // Solved as they are (merge_tolerance = 0: Lemke meets the singular Delassus blocks) and merged (ST9).
  const Eigen::VectorXd v = twist(Eigen::Vector3d(0.3, -0.2, -0.1), Eigen::Vector3d(0, 0, 0.7));
  for (double merge : {0.0, StewartTrinkleOptions{}.merge_tolerance})
    for (int copies : {2, 3}) {
      ProblemBuilder single(kDt), repeated(kDt);
      const ContactResult r1 = solve(box_on_ground(single, v, kMu), 4, merge);
      const ContactResult r3 = solve(box_on_ground(repeated, v, kMu, Eigen::Vector3d::Zero(), copies), 4, merge);
      EXPECT_EQ(r3.stats.status, SolveStatus::Solved) << copies << " copies, merge " << merge;
      EXPECT_LE((r3.v_plus - r1.v_plus).lpNorm<Eigen::Infinity>(), kVelocity) << copies << " copies, merge " << merge;
      EXPECT_NEAR(r3.p_N.sum(), r1.p_N.sum(), kImpulse);
      EXPECT_NEAR(r3.p_S.sum(), r1.p_S.sum(), kImpulse);
      EXPECT_NEAR(r3.p_T.sum(), r1.p_T.sum(), kImpulse);
    }
  // A point mass with one contact repeated five times: merged, the copies share the impulse equally.
  ProblemBuilder one(kDt), five(kDt);
  const Eigen::Vector3d u(0.01, 0.002, -0.3);
  const ContactResult a = solve(point_mass(one, u, 0, kMu));
  const ContactResult c = solve(point_mass(five, u, 0, kMu, Eigen::Vector3d::Zero(), 5));
  EXPECT_LE((c.v_plus - a.v_plus).lpNorm<Eigen::Infinity>(), kVelocity);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(c.p_N[i], a.p_N[0] / 5, kImpulse);
}

TEST(StewartTrinkleModel, NearDuplicatesAreMergedAndKeepEveryConstraint) {
  // Each corner of a sliding, spinning box twice, 1e-8 m apart (rows equal to 1e-8): a Delassus
  // matrix singular only up to roundoff. Merged (ST9), with the second copy 1 mm further away: the
  // impulse goes to the nearer copy, and every original contact meets (ST2) and complementarity.
  ProblemBuilder b(kDt);
  b.add_system(box_inertia(kMass, kHalf));
  for (const Eigen::Vector3d& r : test::bottom_corners(kHalf))
    for (int copy = 0; copy < 2; ++copy) {
      const Eigen::Vector3d rc = r + copy * 1e-8 * Eigen::Vector3d(1, -1, 0);
      b.contact(box_row(rc, e(2)), box_row(rc, e(0)), box_row(rc, e(1)), copy * 1e-3, kMu);
    }
  const Eigen::VectorXd v = twist(Eigen::Vector3d(0.4, 0.1, -0.2), Eigen::Vector3d(0, 0, 1.0));
  Eigen::VectorXd v_star = v;
  v_star[2] -= kGravity * kDt;
  const ContactProblem& p = b.build(v, v_star);
  const ContactResult r = solve(p);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(p, 4, StewartTrinkleOptions{}.merge_tolerance, lcp);
  EXPECT_EQ(lcp.ng, 4);
  const Eigen::VectorXd gap_rate = p.N * r.v_plus + p.phi / kDt;
  const double V = v_star.lpNorm<Eigen::Infinity>();
  for (int c = 0; c < p.nc; ++c) {
    EXPECT_GE(gap_rate[c], -kRelative * V) << "contact " << c;
    EXPECT_LE(std::abs(r.p_N[c] * gap_rate[c]), kRelative * kMass * V * V) << "contact " << c;
    if (c % 2 == 1) {
      EXPECT_EQ(r.p_N[c], 0.0) << "the copy 1 mm away carries nothing";
    }
  }
  EXPECT_NEAR(r.p_N.sum(), kMass * (0.2 + kGravity * kDt), kRelative * kMass * V);   // stops the fall: m(v_z⁻ + g dt)
}

/// (ST9)'s groups by their definition: contact c joins the first group g whose leader l has μ_l = μ_c and
/// N, S and T rows within tol·max(‖X_l‖∞, ‖X_c‖∞) of c's in every column, else leads a new group.
std::vector<int> groups_by_definition(const ContactProblem& p, double tol) {
  const Eigen::MatrixXd N = p.N, S = p.S, T = p.T;
  const auto close = [&](const Eigen::MatrixXd& X, int l, int c) {
    const double bound = tol * std::max(X.row(l).lpNorm<Eigen::Infinity>(), X.row(c).lpNorm<Eigen::Infinity>());
    return (X.row(l) - X.row(c)).lpNorm<Eigen::Infinity>() <= bound;
  };
  std::vector<int> group(p.nc, -1), leader;
  for (int c = 0; c < p.nc; ++c) {
    for (int g = 0; g < static_cast<int>(leader.size()) && group[c] < 0; ++g) {
      const int l = leader[g];
      if (p.mu[l] == p.mu[c] && close(N, l, c) && close(S, l, c) && close(T, l, c)) group[c] = g;
    }
    if (group[c] < 0) {
      group[c] = static_cast<int>(leader.size());
      leader.push_back(c);
    }
  }
  return group;
}

TEST(StewartTrinkleModel, ContactsJoinTheFirstGroupTheirRowsAreCloseTo) {
  // Many contacts among four point masses: copies of earlier contacts moved by less and by more than the
  // tolerance, copies with another μ, rows whose largest entries tie (a copy's largest column differs from
  // its leader's), zero rows. The grouping looks the leaders up by column (stewart_trinkle_lcp.cpp); it must
  // give the definition's groups, with the tolerance that uses the lookup and one (0.4) that scans them all.
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> pick(0, 7);
  for (int trial = 0; trial < 40; ++trial) {
    ProblemBuilder b(kDt);
    for (int s = 0; s < 4; ++s) b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
    const int nv = 12;
    std::vector<Eigen::RowVectorXd> rows;   // N, S, T of each contact made so far
    std::vector<double> mus;
    for (int c = 0; c < 60; ++c) {
      Eigen::RowVectorXd n = Eigen::RowVectorXd::Zero(nv), s = n, t = n;
      double mu = 0.5;
      const int kind = pick(rng);
      if (kind <= 3 && !mus.empty()) {   // a copy of an earlier contact, moved by 0, 1e-9, 1e-7 or 1e-5 relative
        const int of = std::uniform_int_distribution<int>(0, static_cast<int>(mus.size()) - 1)(rng);
        const double moved = kind == 0 ? 0.0 : std::pow(10.0, -11 + 2 * kind);
        n = rows[3 * of], s = rows[3 * of + 1], t = rows[3 * of + 2], mu = mus[of];
        for (Eigen::RowVectorXd* x : {&n, &s, &t})
          for (int j = 0; j < nv; ++j)
            if ((*x)[j] != 0) (*x)[j] += moved * x->cwiseAbs().maxCoeff() * u(rng);
        if (kind == 1 && trial % 2 == 1) mu = 0.3;
      } else if (kind == 4) {   // largest entries tied up to 1e-9: a copy within tolerance may pick the other
        const int a = 3 * (c % 4), other = 3 * ((c + 1) % 4);
        n[a] = 1.0;
        n[other + 1] = -(1.0 - 1e-9 * (c % 3));
        s[a + 1] = t[a + 2] = 1.0;
      } else if (kind == 5 && c % 5 == 0) {   // no N row at all
        s[0] = t[1] = 1.0;
      } else {   // a random contact between one or two bodies
        const int a = 3 * (c % 4), other = 3 * ((c + 2) % 4);
        for (int j = 0; j < 3; ++j) {
          n[a + j] = u(rng), s[a + j] = u(rng), t[a + j] = u(rng);
          if (kind == 7) n[other + j] = u(rng), s[other + j] = u(rng), t[other + j] = u(rng);
        }
      }
      rows.insert(rows.end(), {n, s, t});
      mus.push_back(mu);
      b.contact(n, s, t, 0.0, mu);
    }
    const ContactProblem& p = b.build(Eigen::VectorXd::Zero(nv), Eigen::VectorXd::Zero(nv));
    for (const double tol : {StewartTrinkleOptions{}.merge_tolerance, 0.4}) {
      StewartTrinkleLcp lcp;
      group_stewart_trinkle_rows(p, 4, tol, lcp);
      EXPECT_EQ(lcp.group, groups_by_definition(p, tol)) << "trial " << trial << ", tolerance " << tol;
    }
  }
}

// ------------------------------------------------------------------ invariants on random states

TEST(StewartTrinkleModel, RandomStatesMeetComplementarityPyramidAndEnergy) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1, 1), unit(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int k = trial % 3 == 0 ? 8 : 4;
    ProblemBuilder b(kDt);
    b.add_system(box_inertia(kMass, kHalf));
    std::vector<Eigen::Vector3d> points = test::bottom_corners(kHalf);
    points.push_back(Eigen::Vector3d(0, 0, -kHalf.z()));   // and a redundant one under the centre
    std::vector<double> phi;
    for (const Eigen::Vector3d& r : points) {
      phi.push_back(unit(rng) < 0.5 ? 0.0 : 2e-3 * unit(rng));   // touching or separated
      b.contact(box_row(r, e(2)), box_row(r, e(0)), box_row(r, e(1)), phi.back(), 0.1 + unit(rng));
    }
    const Eigen::VectorXd v = twist(Eigen::Vector3d(u(rng), u(rng), u(rng)), 3 * Eigen::Vector3d(u(rng), u(rng), u(rng)));
    Eigen::VectorXd v_star = v;
    v_star[2] -= kGravity * kDt;
    const ContactProblem& p = b.build(v, v_star);
    const ContactResult r = solve(p, k);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << "trial " << trial << ": " << r.stats.message;

    // Scales of this state: velocity V and impulse P = m V.
    const double V = v_star.lpNorm<Eigen::Infinity>() + kGravity * kDt, P = kMass * V;
    const double tol_v = kRelative * V, tol_p = kRelative * P;
    const Eigen::VectorXd Nv = p.N * r.v_plus, Sv = p.S * r.v_plus, Tv = p.T * r.v_plus;
    for (int c = 0; c < p.nc; ++c) {
      const double gap_rate = Nv[c] + p.phi[c] / kDt;
      EXPECT_GE(r.p_N[c], -tol_p);                                  // (ST2)
      EXPECT_GE(gap_rate, -tol_v);
      EXPECT_LE(std::abs(r.p_N[c] * gap_rate), tol_p * V);
      // (ST5): (p_S, p_T) inside the k-gon of circumradius μ p_N: against each facet normal
      // (between edges j and j+1), at most the inradius μ p_N cos(π/k).
      const double mu = p.mu[c];
      double most_opposed = -std::numeric_limits<double>::infinity();   // max_j −d_j·v_t
      for (int j = 0; j < k; ++j) {
        const double a = 2 * std::numbers::pi * j / k, mid = a + std::numbers::pi / k;
        EXPECT_LE(std::cos(mid) * r.p_S[c] + std::sin(mid) * r.p_T[c], mu * r.p_N[c] * std::cos(std::numbers::pi / k) + tol_p);
        most_opposed = std::max(most_opposed, -(std::cos(a) * Sv[c] + std::sin(a) * Tv[c]));
      }
      // (ST4)–(ST5): friction power = −λ μ p_N with λ = max_j(−d_j·v_t): maximal dissipation over
      // the pyramid (when the contact slides; when it sticks both sides vanish).
      EXPECT_NEAR(r.p_S[c] * Sv[c] + r.p_T[c] * Tv[c], -mu * r.p_N[c] * std::max(most_opposed, 0.0), tol_p * V)
          << "trial " << trial << " contact " << c;
    }
    // No energy gain: φ ≥ 0 everywhere here (stewart_trinkle.hpp, the identity after ST8).
    EXPECT_LE(p.kinetic_energy(r.v_plus), p.kinetic_energy(v_star) + kRelative * p.kinetic_energy(v_star))
        << "trial " << trial;
  }
}

// ------------------------------------------------------------------ badly scaled, degenerate islands

/// A fallen humanoid in miniature: two heavy bodies lying on the ground, each on a grid of coplanar
/// contacts (rank 3 of N per body, far more rows: degenerate), next to light links whose joint-limit
/// rows have a diagonal 1e6–1e9 times the contacts' (a 5 g finger of inertia 1e-7 kg·m² beside a 5 kg
/// torso, as in the NAO's island). Penetrating (φ < 0) and sliding, so that friction and gaps are active.
/// (The NAO's own island, below, is the one that failed before L9; this miniature already passed.)
const ContactProblem& fallen_multibody(ProblemBuilder& b, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1), unit(0, 1);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(0);
  const auto append = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd out(v.size() + x.size());
    out << v, x;
    v = out;
  };
  for (const double mass : {5.0, 2.0}) {
    const Eigen::Vector3d h(0.15, 0.1, 0.05);
    const int offset = b.add_system(box_inertia(mass, h));
    for (int ix = 0; ix < 4; ++ix)
      for (int iy = 0; iy < 3; ++iy) {
        const Eigen::Vector3d r(h.x() * (2 * ix / 3.0 - 1), h.y() * (iy - 1.0), -h.z());
        b.contact(row_at(offset + 6, offset, box_row(r, e(2))), row_at(offset + 6, offset, box_row(r, e(0))),
                  row_at(offset + 6, offset, box_row(r, e(1))), -1e-4 * unit(rng), 0.8);
      }
    append(twist(0.2 * Eigen::Vector3d(u(rng), u(rng), u(rng) - 1), Eigen::Vector3d(u(rng), u(rng), u(rng))));
  }
  for (const double inertia : {1e-7, 1e-5, 1e-3}) {
    const int offset = b.add_system(inertia * Eigen::MatrixXd::Identity(1, 1));
    b.limit(row_at(offset + 1, offset, -Eigen::RowVectorXd::Ones(1)), -1e-3 * unit(rng));
    append(Eigen::VectorXd::Constant(1, u(rng)));
  }
  Eigen::VectorXd v_star = v;
  for (const int offset : {0, 6}) v_star[offset + 2] -= kGravity * kDt;
  return b.build(v, v_star);
}

/// (ST2), (ST3), (ST5) and complementarity on the result, checked here rather than taken from the solver.
void expect_complementary(const ContactProblem& p, const ContactResult& r, const std::string& what) {
  const double V = p.v_star.lpNorm<Eigen::Infinity>() + (p.phi.lpNorm<Eigen::Infinity>() + p.phi_L.lpNorm<Eigen::Infinity>()) / p.dt;
  const double tol_v = kRelative * V;
  const Eigen::VectorXd gap_rate = p.N * r.v_plus + p.phi / p.dt, limit_rate = p.L * r.v_plus + p.phi_L / p.dt;
  const double P = std::max(r.p_N.maxCoeff(), p.nl > 0 ? r.p_L.maxCoeff() : 0.0);
  for (int c = 0; c < p.nc; ++c) {
    EXPECT_GE(r.p_N[c], 0.0) << what;
    EXPECT_GE(gap_rate[c], -tol_v) << what << " contact " << c;
    EXPECT_LE(std::abs(r.p_N[c] * gap_rate[c]), tol_v * P) << what << " contact " << c;
    EXPECT_LE(std::abs(r.p_S[c]) + std::abs(r.p_T[c]), p.mu[c] * r.p_N[c] + kRelative * P) << what;   // k = 4
  }
  for (int l = 0; l < p.nl; ++l) {
    EXPECT_GE(r.p_L[l], 0.0) << what;
    EXPECT_GE(limit_rate[l], -tol_v) << what << " limit " << l;
    EXPECT_LE(std::abs(r.p_L[l] * limit_rate[l]), tol_v * P) << what << " limit " << l;
  }
}

TEST(StewartTrinkle, BadlyScaledDegenerateIslandsAreSolvedToTheCertificate) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    ProblemBuilder b(kDt);
    const ContactProblem& p = fallen_multibody(b, rng);
    const ContactResult r = solve(p);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << "trial " << trial << ": " << r.stats.message;
    expect_complementary(p, r, "trial " + std::to_string(trial));
  }
}

TEST(StewartTrinkle, FallenNaoIslandIsSolvedToTheCertificate) {
  // Step 272 of the NAO humanoid dropped on the ground (bench_corpus_robots --robot nao
  // --dump-problems): nv = 48, 48 contacts, 7 joint limits, A_ii from 2e-9 to 1 of max|A_ij|. Unscaled,
  // the pivoting judged the contacts' rank-deficient blocks singular (numerical failure, then Tikhonov
  // retries at ρ = 7e-5); equilibrated (lemke.hpp L9) but with the unscaled cancellation threshold it
  // pivoted on a zero of 2e-9 of its terms and ended on a false ray; with both, the plain attempt meets
  // the certificate.
  const ProblemDump dump = read_problem_dump(IMPETUS_SOURCE_DIR "/tests/contact/data/nao_lying_step272.icp");
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& p = dump.problems.front()->problem;
  const ContactResult r = solve(p);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LE(r.stats.residual, StewartTrinkleOptions{}.tolerance);
  expect_complementary(p, r, "nao step 272");
}

TEST(StewartTrinkle, NaoRestingOnItsJointLimitsIsSolvedToTheCertificate) {
  // Steps 1512 and 1536 of the NAO humanoid lying on the ground (bench_corpus_robots --robot nao
  // --dump-problems, after the penetration recovery learnt to keep joint limits): nv = 31, 73 contacts,
  // 11 joint limits resting at φ_L ≈ 0. A light hand link whose limit row has L W Lᵀ = 2.2e7 (the
  // torso's contacts ≈ 1) touches the ground: its limit row and its contacts' rows are nearly parallel
  // in W, and true entries of d come out at 3e-10 of their cancelling terms. Taken for zeros, they were
  // driven negative and clamped, and Lemke ended far from a solution (the whole LCP: certificate failed
  // at ρ = 22 on step 1512, a ray at ρ = 17 on step 1536; the groups of ST11 likewise); (L10) lets them
  // block. Both paths are checked: the model's, and the plain Lemke on the whole (ST6).
  for (const char* step : {"1512", "1536"}) {
    const std::string what = std::string("nao step ") + step;
    const ProblemDump dump =
        read_problem_dump(std::string(IMPETUS_SOURCE_DIR "/tests/contact/data/nao_on_limits_step") + step + ".icp");
    ASSERT_EQ(dump.problems.size(), 1u);
    const ContactProblem& p = dump.problems.front()->problem;
    ASSERT_GT(p.nl, 0) << what;
    const ContactResult r = solve(p);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << what << ": " << r.stats.message;
    EXPECT_LE(r.stats.residual, StewartTrinkleOptions{}.tolerance) << what;
    expect_complementary(p, r, what);

    StewartTrinkleLcp lcp;
    assemble_stewart_trinkle_lcp(p, 4, StewartTrinkleOptions{}.merge_tolerance, lcp);
    LemkeSolver lemke(StewartTrinkleOptions{}.lemke());
    Eigen::VectorXd z;
    const LemkeAttempt whole = lemke.solve_once(lcp.A, lcp.q, 0.0, z);
    EXPECT_EQ(whole.status, LemkeStatus::Solved) << what << ": whole LCP, " << to_string(whole.status);
    EXPECT_LE(whole.residual, StewartTrinkleOptions{}.tolerance) << what;
  }
}

TEST(StewartTrinkleModel, ARoundOfTheGroupsThatOnlyARetrySolvedHandsOverToTheWholeLcp) {
  // vision60 walking onto its knees (bench_corpus_robots --robot vision60 --dump-problems): nv = 22 and
  // 34 contacts (step 1213) or 48 (step 1709), so D = J W Jᵀ has rank ≤ 22 for 102 or 144 rows. ST11's
  // groups (16 and 32 of them) were solved only by Lemke's regularised retry (the plain attempt on the
  // restriction: certificate failed at ρ = 0.21 on step 1213), which the model reported as a fallback,
  // while the plain attempt on all groups solves step 1213 (ρ ~ 1e-12). Step 1709's plain attempt on
  // all groups fails too: the retry's certified answer must stay, not turn into a failure.
  const std::string data = IMPETUS_SOURCE_DIR "/tests/contact/data/vision60_st11_step";
  {
    const ProblemDump dump = read_problem_dump(data + "1213.icp");
    ASSERT_EQ(dump.problems.size(), 1u);
    const ContactProblem& p = dump.problems.front()->problem;
    const ContactResult r = solve(p);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    EXPECT_EQ(r.stats.attempts, 1);
    EXPECT_LE(r.stats.residual, StewartTrinkleOptions{}.tolerance);
    expect_complementary(p, r, "vision60 step 1213");
  }
  {
    const ProblemDump dump = read_problem_dump(data + "1709.icp");
    ASSERT_EQ(dump.problems.size(), 1u);
    const ContactProblem& p = dump.problems.front()->problem;
    const ContactResult r = solve(p);
    ASSERT_NE(r.stats.status, SolveStatus::Failed) << r.stats.message;
    EXPECT_LE(r.stats.residual, StewartTrinkleOptions{}.tolerance);
    expect_complementary(p, r, "vision60 step 1709");
  }
}

// ------------------------------------------------------------------ groups that can be loaded (ST11)

TEST(StewartTrinkleModel, AContactThatOtherImpulsesPushInJoinsTheSolve) {
  // (ST11): a unit cube falling at 1 m/s and sliding at 0.3 m/s along y lands on its x = −h edge
  // (φ = 0) of a frictionless floor, with the x = +h edge 1.1 mm up and a ceiling (μ > 0) 0.1 m above
  // its top. Alone, the +h edge would not reach the floor within the step (q_N = −1 + 1.1 = +0.1 m/s),
  // so Lemke starts without it; but the impulse P that stops the −h edge turns the cube (I = ⅔ m h²):
  // the −h edge gets 2.5 P/m upwards, the +h edge 0.5 P/m downwards, i.e. −1.2 m/s once the −h edge
  // stops, below the −1.1 m/s its gap allows. So it must join the solve and carry an impulse; the
  // ceiling stays out (p = 0), its sliding friction rows met by λ̂ alone.
  const double h = kHalf.x(), phi_up = 1.1e-3, ceiling = 0.1;
  ProblemBuilder b(kDt);
  b.add_system(box_inertia(kMass, kHalf));
  for (const Eigen::Vector3d& r : test::bottom_corners(kHalf))
    b.contact(box_row(r, e(2)), box_row(r, e(0)), box_row(r, e(1)), r.x() > 0 ? phi_up : 0.0, 0.0);
  const Eigen::Vector3d top(0, 0, h);
  b.contact(box_row(top, -e(2)), box_row(top, e(0)), box_row(top, -e(1)), ceiling, kMu);
  const Eigen::VectorXd v = twist(Eigen::Vector3d(0, 0.3, -1.0));
  Eigen::VectorXd v_star = v;
  v_star[2] -= kGravity * kDt;
  const ContactProblem& p = b.build(v, v_star);
  const Eigen::VectorXd q_N = p.N * p.v_star + p.phi / kDt;
  for (int c = 0; c < 4; ++c) ASSERT_EQ(q_N[c] > 0, p.phi[c] > 0) << "contact " << c;   // the +h edge starts out

  const ContactResult r = solve(p);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  expect_complementary(p, r, "cube landing on an edge");

  double edge = 0;   // the +h edge's impulse; its split between the two corners is not unique
  for (int c = 0; c < 4; ++c)
    if (p.phi[c] > 0) edge += r.p_N[c];
  EXPECT_GT(edge, kImpulse);
  EXPECT_EQ(r.p_N[4], 0.0);
  EXPECT_EQ(r.p_S[4], 0.0);
  EXPECT_EQ(r.p_T[4], 0.0);
  EXPECT_LE(p.kinetic_energy(r.v_plus), p.kinetic_energy(v_star));
}

// ------------------------------------------------------------------ statistics and failure

TEST(StewartTrinkleModel, EmptyProblemReturnsFreeVelocity) {
  ProblemBuilder b(kDt);
  b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
  const Eigen::Vector3d v(1, 2, 3);
  const ContactResult r = solve(b.build(v, v));
  EXPECT_EQ(r.v_plus, Eigen::VectorXd(v));
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_EQ(r.stats.iterations, 0);
}

TEST(StewartTrinkleModel, InconsistentConstraintsAreReportedWithTheRetries) {
  // A point mass penetrating a floor (n = +z) and a ceiling (n = −z) by 1 cm each: N v⁺ ≥ 10 m/s and
  // −N v⁺ ≥ 10 m/s cannot both hold. Plain Lemke ends on a ray; the Tikhonov retries solve
  // A + εI but violate the original problem: Failed, with the attempts in the statistics, and a
  // finite v⁺.
  ProblemBuilder b(kDt);
  b.add_system(kMass * Eigen::MatrixXd::Identity(3, 3));
  for (double sign : {1.0, -1.0})
    b.contact(row_at(3, 0, sign * e(2).transpose()), row_at(3, 0, e(0).transpose()),
              row_at(3, 0, sign * e(1).transpose()), -0.01, kMu);
  const ContactResult r = solve(b.build(Eigen::Vector3d::Zero(), -kGravity * kDt * e(2)));
  EXPECT_EQ(r.stats.status, SolveStatus::Failed);
  EXPECT_GE(r.stats.attempts, 2);
  EXPECT_FALSE(r.stats.message.empty());
  EXPECT_TRUE(r.v_plus.allFinite());
  EXPECT_TRUE(r.p_N.allFinite());
}

// ------------------------------------------------------------------ warm start (ST10)

namespace warm {

/// Solves `P` cold, then again with the cold impulses as the guesses; returns (cold, warm).
std::pair<ContactResult, ContactResult> cold_then_warm(const ContactProblem& P) {
  StewartTrinkleOptions cold_options;
  cold_options.warm_start = false;
  StewartTrinkleModel cold_model(cold_options), warm_model;
  std::pair<ContactResult, ContactResult> out;
  cold_model.solve(P, out.first);
  ContactProblem guessed = P;
  guessed.p_N_guess = out.first.p_N;
  guessed.p_S_guess = out.first.p_S;
  guessed.p_T_guess = out.first.p_T;
  guessed.p_L_guess = out.first.p_L;
  warm_model.solve(guessed, out.second);
  return out;
}

}  // namespace warm

TEST(StewartTrinkleWarmStart, TheLastActiveSetSolvesRestingSlidingAndStickingWithoutAPivot) {
  // Each case needs pivots cold; from its own solution as the guess the active set is the answer,
  // so the warm solve pivots zero times and lands on the same v⁺ (unique here, though p_N is not).
  const double u = 5 * kMu * kGravity * kDt, f_stick = 0.5 * kMu * kMass * kGravity;
  const struct { const char* name; Eigen::VectorXd v; Eigen::Vector3d f; } cases[] = {
      {"resting", twist(Eigen::Vector3d::Zero()), Eigen::Vector3d::Zero()},
      {"sliding", twist(-u * e(1)), Eigen::Vector3d::Zero()},
      {"sliding diagonally", twist(u * Eigen::Vector3d(0.6, 0.8, 0)), Eigen::Vector3d::Zero()},
      {"pushed below the limit", twist(Eigen::Vector3d::Zero()), f_stick * e(0)},
  };
  for (const auto& c : cases) {
    ProblemBuilder b(kDt);
    const auto [cold, warm] = warm::cold_then_warm(box_on_ground(b, c.v, kMu, c.f));
    ASSERT_EQ(cold.stats.status, SolveStatus::Solved) << c.name;
    EXPECT_GT(cold.stats.iterations, 0) << c.name;
    EXPECT_EQ(warm.stats.status, SolveStatus::Solved) << c.name;
    EXPECT_EQ(warm.stats.iterations, 0) << c.name;
    EXPECT_LE(warm.stats.residual, StewartTrinkleOptions{}.tolerance) << c.name;
    EXPECT_LE((warm.v_plus - cold.v_plus).lpNorm<Eigen::Infinity>(), kVelocity) << c.name;
    EXPECT_NEAR(warm.p_N.sum(), cold.p_N.sum(), kImpulse) << c.name;
  }
}

TEST(StewartTrinkleWarmStart, AStaleGuessIsRefusedByTheCertificateAndLemkeSolves) {
  // The guess says "sliding along +x at the friction limit" but the box is at rest with no push:
  // that active set has no non-negative solution, so Lemke runs and the box stays at rest.
  ProblemBuilder b(kDt);
  ContactProblem P = box_on_ground(b, twist(Eigen::Vector3d::Zero()), kMu);
  const double p = kMass * kGravity * kDt / 4;
  P.p_N_guess = Eigen::VectorXd::Constant(4, p);
  P.p_S_guess = Eigen::VectorXd::Constant(4, -kMu * p);
  P.p_T_guess = Eigen::VectorXd::Zero(4);
  StewartTrinkleModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_GT(r.stats.iterations, 0);   // the guess was not taken
  EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), kVelocity);
  EXPECT_NEAR(r.p_S.sum(), 0, kImpulse);
}

TEST(StewartTrinkleWarmStart, GuessesOfASeparatingContactAreNotTrusted) {
  // A point mass leaving the ground (v_z up) with last step's resting impulse as its guess: the
  // guessed basis gives p_N < 0, the certificate refuses it, and the answer is p = 0, v⁺ = v*.
  ProblemBuilder b(kDt);
  ContactProblem P = point_mass(b, Eigen::Vector3d(0, 0, 1), 0, kMu);
  P.p_N_guess = Eigen::VectorXd::Constant(1, kMass * kGravity * kDt);
  P.p_S_guess = P.p_T_guess = Eigen::VectorXd::Zero(1);
  StewartTrinkleModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_EQ(r.p_N[0], 0.0);
  EXPECT_LE((r.v_plus - P.v_star).lpNorm<Eigen::Infinity>(), kVelocity);
}


TEST(StewartTrinkleWarmStart, EntriesAndProductsReadOffDEqualTheAssembledMatrix) {
  // The warm start never forms A: entry() and times() must be A's entries and A z exactly (to
  // roundoff), for any z, every block (U, F, λ), merged groups and a k = 6 pyramid.
  ProblemBuilder b(kDt);
  const ContactProblem& P = box_on_ground(b, twist(Eigen::Vector3d(0.3, -0.2, 0), Eigen::Vector3d(0, 0, 1)), kMu,
                                          Eigen::Vector3d::Zero(), 2);
  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(P, 6, StewartTrinkleOptions{}.merge_tolerance, lcp);
  ASSERT_GT(lcp.nf, 0);
  ASSERT_LT(lcp.ng, P.nc);   // the copies were merged
  const double scale = lcp.A.cwiseAbs().maxCoeff();
  for (int r = 0; r < lcp.size; ++r)
    for (int c = 0; c < lcp.size; ++c) ASSERT_NEAR(lcp.entry(r, c), lcp.A(r, c), 1e-14 * scale) << r << ", " << c;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const Eigen::VectorXd z = Eigen::VectorXd::NullaryExpr(lcp.size, [&] { return u(rng); });
  Eigen::VectorXd Az(lcp.size), p_J(lcp.D.rows()), Dp(lcp.D.rows());
  lcp.times(z, Az, p_J, Dp);
  EXPECT_LE((Az - lcp.A * z).lpNorm<Eigen::Infinity>(), 1e-13 * scale * z.lpNorm<Eigen::Infinity>() * lcp.size);
}

TEST(StewartTrinkleWarmStart, BasisMatrixIsEntryToTheBit) {
  // The warm start's A_BB (basis_matrix, each unknown's rows of D looked up once) must be entry()'s numbers bit
  // for bit, on bases mixing every block (U, F, λ̂) in ascending and scrambled order, with merged groups and k = 6.
  ProblemBuilder b(kDt);
  const ContactProblem& P = box_on_ground(b, twist(Eigen::Vector3d(0.3, -0.2, 0), Eigen::Vector3d(0, 0, 1)), kMu,
                                          Eigen::Vector3d::Zero(), 2);
  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(P, 6, StewartTrinkleOptions{}.merge_tolerance, lcp);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<int> basis;
    for (int i = 0; i < lcp.size; ++i)
      if (rng() % 2 == 0) basis.push_back(i);
    if (trial % 2 == 1) std::shuffle(basis.begin(), basis.end(), rng);
    const int nb = static_cast<int>(basis.size());
    Eigen::VectorXd storage;
    MatrixView A_BB{nullptr, 0, 0};
    grow(A_BB, storage, nb, nb);
    lcp.basis_matrix(basis, A_BB);
    for (int r = 0; r < nb; ++r)
      for (int c = 0; c < nb; ++c) {
        const double expected = lcp.entry(basis[r], basis[c]);
        ASSERT_EQ(std::memcmp(&A_BB(r, c), &expected, sizeof(double)), 0) << trial << ": " << basis[r] << ", " << basis[c];
      }
  }
}

}  // namespace
}  // namespace impetus
