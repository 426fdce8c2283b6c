// Free motion as the answer of no_slip and viscous (contact/free_motion.hpp, FM1–FM2) against their general
// paths, on random islands of boxes moving together, as a falling pile's: the contacts the margin reports
// before they touch, some slipping, some closing, some without a held row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "contact/free_motion.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/viscous/viscous_model.hpp"
#include "tests/contact/problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::ProblemBuilder;

constexpr double kTolerance = 1e-9;   // ProjectionOptions' certificate_tolerance, the models' default

/// What the island is made to be: its bodies' relative velocity `slip` (m/s, 0: moving together), one contact
/// `closing` (penetrating at rest relative to the other body), the rows held drawn at random.
struct Island {
  ContactProblem P;
  std::vector<char> held;   // no_slip: within touch_margin; viscous: μ_v > 0
};

/// 2–6 boxes at a common velocity u (~1 m/s, no rotation), one of them disturbed by `slip` in every coordinate;
/// contacts along the chain and between random pairs, each at a random point and frame with φ in (0.1, 10) mm;
/// a box–ground contact one time in three (its frame random, so it may close and slip). Each contact's rows
/// are held one time in two or always (`all_held`).
Island random_island(ProblemBuilder& builder, std::mt19937& rng, double slip, bool closing, bool all_held) {
  std::uniform_real_distribution<double> U(-1, 1), mass(0.05, 50), half(0.02, 1), gap(1e-4, 1e-2);
  const int bodies = 2 + static_cast<int>(rng() % 5);
  for (int k = 0; k < bodies; ++k)
    builder.add_system(box_inertia(mass(rng), Eigen::Vector3d(half(rng), half(rng), half(rng))));
  const int nv = 6 * bodies;
  auto random_frame = [&] {
    return Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix().eval();
  };
  auto pair_row = [&](int a, int b, const Eigen::Vector3d& ra, const Eigen::Vector3d& rb, const Eigen::Vector3d& d) {
    Eigen::RowVectorXd out = Eigen::RowVectorXd::Zero(nv);
    out.segment(6 * a, 6) = box_row(ra, d);
    if (b >= 0) out.segment(6 * b, 6) = -box_row(rb, d);
    return out;
  };
  std::vector<std::pair<int, int>> pairs;
  for (int k = 0; k + 1 < bodies; ++k) pairs.push_back({k, k + 1});
  for (int extra = static_cast<int>(rng() % 3); extra > 0; --extra) {
    const int a = static_cast<int>(rng() % bodies), b = static_cast<int>(rng() % bodies);
    if (a != b) pairs.push_back({a, b});
  }
  if (rng() % 3 == 0) pairs.push_back({static_cast<int>(rng() % bodies), -1});   // the ground
  Island island;
  std::vector<double> phi;
  for (const auto& [a, b] : pairs) {
    const Eigen::Matrix3d frame = random_frame();
    const Eigen::Vector3d ra(U(rng), U(rng), U(rng)), rb(U(rng), U(rng), U(rng));
    phi.push_back(gap(rng));
    builder.contact(pair_row(a, b, ra, rb, frame.col(0)), pair_row(a, b, ra, rb, frame.col(1)),
                    pair_row(a, b, ra, rb, frame.col(2)), phi.back(), 0.5);
    island.held.push_back(all_held || rng() % 2 == 0);
  }
  if (closing) phi[rng() % phi.size()] = -1e-3;
  const Eigen::Vector3d u(U(rng), U(rng), U(rng));
  Eigen::VectorXd v_star = Eigen::VectorXd::Zero(nv);
  for (int k = 0; k < bodies; ++k) v_star.segment<3>(6 * k) = u;
  const int disturbed = static_cast<int>(rng() % bodies);
  for (int j = 0; j < 6; ++j) v_star[6 * disturbed + j] += slip * U(rng);
  island.P = builder.build(v_star, v_star);
  for (int i = 0; i < island.P.nc; ++i) island.P.phi[i] = phi[i];
  return island;
}

/// (FM1)–(FM2) computed here from the rows: every unilateral row separates under v*, and no held row slips
/// beyond tol·s_v, s_v the largest |N_i v*|, |φ_i/dt|.
bool v_star_violates_no_row(const ContactProblem& P, const std::vector<char>& held, double* velocity_scale = nullptr) {
  double s_v = 0, slip = 0;
  bool separates = true;
  for (int i = 0; i < P.nc; ++i) {
    const double n = P.N.row(i).dot(P.v_star);
    separates = separates && n + P.phi[i] / P.dt >= 0;
    s_v = std::max({s_v, std::abs(n), std::abs(P.phi[i] / P.dt)});
    if (held[i]) slip = std::max({slip, std::abs(P.S.row(i).dot(P.v_star)), std::abs(P.T.row(i).dot(P.v_star))});
  }
  if (velocity_scale) *velocity_scale = s_v;
  return separates && slip <= kTolerance * s_v;
}

template <class Model, class Options>
Model model_with(bool free_motion) {
  Options options;
  options.free_motion = free_motion;
  options.single_contact_closed_form = false;
  return Model(options);
}

/// v⁺ of the general path within `agree` of v* in every coordinate.
void expect_general_path_agrees(const ContactResult& general, const ContactProblem& P, double agree) {
  ASSERT_EQ(general.stats.status, SolveStatus::Solved) << general.stats.message;
  EXPECT_LE((general.v_plus - P.v_star).cwiseAbs().maxCoeff(), agree);
}

/// The free path's result: v⁺ = v* to the bit, no impulse, Solved without a pivot, reported as free motion.
template <class Report>
void expect_free_motion(const ContactResult& r, const ContactProblem& P) {
  EXPECT_TRUE(r.v_plus == P.v_star);
  EXPECT_TRUE(r.p_N.isZero(0));
  EXPECT_TRUE(r.p_L.isZero(0));
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_EQ(r.stats.iterations, 0);
  EXPECT_LE(r.stats.residual, kTolerance);
  EXPECT_TRUE(r.report_as<Report>().projection.free_motion);
}

/// P solved with free motion and without: the free path taken exactly where (FM1)–(FM2) computed from the rows
/// hold, then its result as expect_free_motion says and the general path within 1e-9 m/s of it; elsewhere the
/// general path's bits. Whether it was taken; the free-motion solve's result in `fast`.
template <class Model, class Options, class Report>
bool compare_with_the_general_path(const ContactProblem& P, const std::vector<char>& held, ContactResult& fast) {
  ContactResult slow;
  model_with<Model, Options>(true).solve(P, fast);
  model_with<Model, Options>(false).solve(P, slow);
  EXPECT_FALSE(slow.report_as<Report>().projection.free_motion);
  const bool expected = v_star_violates_no_row(P, held);
  EXPECT_EQ(fast.report_as<Report>().projection.free_motion, expected);
  if (!expected) {
    EXPECT_TRUE(fast.v_plus == slow.v_plus);   // the general path, untouched
    return false;
  }
  expect_free_motion<Report>(fast, P);
  expect_general_path_agrees(slow, P, 1e-9);
  return true;
}

// Islands moving together to rounding (slip 0 or 1e-13 m/s) take free motion whenever no row closes and
// the general path agrees with v* to 1e-9 m/s; slipping ones (1e-5 m/s) take it only where the slip is on rows
// not held; a closing row never. Each answer against (FM1)–(FM2) computed from the rows.
TEST(FreeMotion, NoSlipTakesVStarWhereItViolatesNoHeldRow) {
  std::mt19937 rng(2811);
  int taken = 0, general = 0;
  for (int k = 0; k < 400; ++k) {
    SCOPED_TRACE("island " + std::to_string(k));
    ProblemBuilder builder(0.001);
    const double slip = std::vector<double>{0.0, 1e-13, 1e-5}[k % 3];
    Island island = random_island(builder, rng, slip, false, false);
    ContactProblem& P = island.P;
    // Rows held: the contacts within the margin (NoSlipModel's rule), the margin between their gaps.
    P.touch_margin = 5e-3;
    for (int i = 0; i < P.nc; ++i) P.phi[i] = island.held[i] ? std::min(P.phi[i], 4e-3) : std::max(P.phi[i], 6e-3);
    if (k % 7 == 0) P.phi[k % P.nc] = -1e-3;
    for (int i = 0; i < P.nc; ++i) island.held[i] = P.phi[i] <= P.touch_margin;

    ContactResult fast;
    if (!compare_with_the_general_path<NoSlipModel, NoSlipOptions, NoSlipReport>(P, island.held, fast)) {
      ++general;
      continue;
    }
    ++taken;
    EXPECT_TRUE(fast.p_S.isZero(0) && fast.p_T.isZero(0));
    EXPECT_EQ(fast.report_as<NoSlipReport>().indices.rank, 0);
  }
  EXPECT_GE(taken, 100);
  EXPECT_GE(general, 100);
}

TEST(FreeMotion, ViscousTakesVStarWhereNoChargedRowSlips) {
  std::mt19937 rng(2812);
  int taken = 0, general = 0;
  for (int k = 0; k < 400; ++k) {
    SCOPED_TRACE("island " + std::to_string(k));
    ProblemBuilder builder(0.001);
    const double slip = std::vector<double>{0.0, 1e-13, 1e-5}[k % 3];
    Island island = random_island(builder, rng, slip, k % 7 == 0, false);
    ContactProblem& P = island.P;
    // Friction charged (μ_v of 0.1–100 N·s/m) on the contacts held; the others frictionless.
    std::uniform_real_distribution<double> exponent(-1, 2);
    for (int i = 0; i < P.nc; ++i) P.mu_viscous[i] = island.held[i] ? std::pow(10.0, exponent(rng)) : 0.0;

    ContactResult fast;
    if (!compare_with_the_general_path<ViscousModel, ViscousOptions, ViscousReport>(P, island.held, fast)) {
      ++general;
      continue;
    }
    ++taken;
    double s_v = 0;
    v_star_violates_no_row(P, island.held, &s_v);
    // (V1)'s friction impulses of v⁺ = v*, −dt μ̃ S v* with μ̃ ≤ μ_v: at most dt μ_v times the certificate's slip.
    for (int i = 0; i < P.nc; ++i) {
      EXPECT_LE(std::abs(fast.p_S[i]), P.dt * P.mu_viscous[i] * kTolerance * s_v);
      EXPECT_LE(std::abs(fast.p_T[i]), P.dt * P.mu_viscous[i] * kTolerance * s_v);
    }
  }
  EXPECT_GE(taken, 100);
  EXPECT_GE(general, 100);
}

// stewart_trinkle: an island without a guess whose rows all separate under v* takes p = 0, v⁺ = v* + 0 before
// the grouping; the general path agrees to 1e-9 m/s. A closing row, or a guess, leaves the general path's bits.
TEST(FreeMotion, StewartTrinkleTakesNoImpulseWhereEveryRowSeparatesWithoutAGuess) {
  std::mt19937 rng(2814);
  int taken = 0, general = 0;
  for (int k = 0; k < 300; ++k) {
    SCOPED_TRACE("island " + std::to_string(k));
    ProblemBuilder builder(0.001);
    const double slip = std::vector<double>{0.0, 1e-5, 0.5}[k % 3];   // friction does not decide here
    Island island = random_island(builder, rng, slip, k % 5 == 0, true);
    ContactProblem& P = island.P;
    const bool guessed = k % 4 == 0;
    if (guessed) P.p_N_guess[rng() % P.nc] = 0.1;
    StewartTrinkleOptions on, off;
    on.single_contact_closed_form = off.single_contact_closed_form = false;
    off.free_motion = false;
    ContactResult fast, slow;
    StewartTrinkleModel(on).solve(P, fast);
    StewartTrinkleModel(off).solve(P, slow);
    ASSERT_NE(slow.stats.status, SolveStatus::Failed) << slow.stats.message;
    bool separates = true;
    for (int i = 0; i < P.nc; ++i) separates = separates && P.N.row(i).dot(P.v_star) + P.phi[i] / P.dt >= 0;
    if (guessed || !separates) {
      EXPECT_TRUE(fast.v_plus == slow.v_plus);
      EXPECT_TRUE(fast.p_N == slow.p_N && fast.p_S == slow.p_S && fast.p_T == slow.p_T);
      ++general;
      continue;
    }
    ++taken;
    EXPECT_TRUE(fast.v_plus == (P.v_star.array() + 0.0).matrix());
    EXPECT_TRUE(fast.p_N.isZero(0) && fast.p_S.isZero(0) && fast.p_T.isZero(0));
    EXPECT_EQ(fast.stats.status, SolveStatus::Solved);
    EXPECT_EQ(fast.stats.iterations, 0);
    EXPECT_EQ(slow.stats.status, SolveStatus::Solved);
    EXPECT_LE((slow.v_plus - P.v_star).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LE(slow.p_N.cwiseAbs().maxCoeff(), 1e-9);
  }
  EXPECT_GE(taken, 60);
  EXPECT_GE(general, 60);
}

// Under solver="lemke" every island takes Lemke's pivots (seed 000's comparison), a free one too.
TEST(FreeMotion, NotTakenUnderTheLemkeSolver) {
  std::mt19937 rng(2813);
  int free = 0;
  for (int k = 0; k < 20; ++k) {
    ProblemBuilder builder(0.001);
    const Island island = random_island(builder, rng, 0.0, false, true);
    if (!v_star_violates_no_row(island.P, island.held)) continue;
    ++free;
    NoSlipOptions no_slip;
    no_slip.projection.solver = ProjectionSolver::Lemke;
    ViscousOptions viscous;
    viscous.projection.solver = ProjectionSolver::Lemke;
    ContactResult r, q;
    NoSlipModel(no_slip).solve(island.P, r);
    ViscousModel(viscous).solve(island.P, q);
    EXPECT_FALSE(r.report_as<NoSlipReport>().projection.free_motion);
    EXPECT_TRUE(r.report_as<NoSlipReport>().projection.lemke_run);
    EXPECT_FALSE(q.report_as<ViscousReport>().projection.free_motion);
    EXPECT_TRUE(q.report_as<ViscousReport>().projection.lemke_run);
  }
  EXPECT_GE(free, 5);
}

}  // namespace
}  // namespace impetus
