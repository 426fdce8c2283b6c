// The certified warm start of max_dissipation (max_dissipation.hpp MD12, interior_point.hpp IP10): the
// previous step's impulses are returned without iterating only when they are an optimum of this step's
// programs, and a stale answer runs the interior point exactly as it would without the test.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "contact/max_dissipation/max_dissipation.hpp"
#include "tests/contact/problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;
using test::kGravity;
using test::ProblemBuilder;
using test::row_at;

// An exact resting answer leaves rounding only: v⁺ of a few ulps of the velocity scale.
constexpr double kRounding = 1e-13;
// The interior point's tolerance is 1e-8 of the problem's scales (MaxDissipationOptions::tolerance); a
// certified point meets (IP6) at it, so its constraints hold to it. Compared at 1e-7, ten times that.
constexpr double kSolution = 1e-7;

MaxDissipationModel model_with(bool certify) {
  MaxDissipationOptions options;
  options.certify_warm_start = certify;
  return MaxDissipationModel(options);
}

ContactResult solve(const MaxDissipationModel& model, const ContactProblem& problem) {
  ContactResult result;
  model.solve(problem, result);
  return result;
}

bool same_bits(const ContactResult& a, const ContactResult& b) {
  return a.v_plus == b.v_plus && a.p_N == b.p_N && a.p_S == b.p_S && a.p_T == b.p_T;
}

/// A 3 kg box resting on its four bottom corners (φ = 0, μ = 0.6), v* = v⁻ − g dt ẑ.
struct BoxOnCorners {
  static constexpr double m = 3, dt = 0.001;
  ProblemBuilder builder{dt};
  ContactProblem problem;
  explicit BoxOnCorners(const Eigen::VectorXd& v) {
    const Eigen::Vector3d h(0.2, 0.15, 0.1);
    builder.add_system(box_inertia(m, h));
    for (const Eigen::Vector3d& r : test::bottom_corners(h))
      builder.contact(box_row(r, Eigen::Vector3d::UnitZ()), box_row(r, Eigen::Vector3d::UnitX()),
                      box_row(r, Eigen::Vector3d::UnitY()), 0.0, 0.6);
    Eigen::VectorXd v_star = v;
    v_star[2] -= kGravity * dt;
    problem = builder.build(v, v_star);
  }
};

TEST(CertifiedWarmStart, ARestingAnswerIsReturnedAsItIsAndMeetsTheOptimalityConditions) {
  // The box's weight split between its corners is indeterminate: with the corners in the order of
  // bottom_corners, d = (1, −1, 1, −1) moves no force and no torque (Nᵀd = 0). Every p_N = m g dt/4 + t d,
  // |t| < m g dt/4, holds the box at rest: each is an optimum of phase I (the LCP holds with N v⁺ = 0) and,
  // with no friction, of phase II (½v⁺ᵀMv⁺ = 0, the least). The previous step's split must come back
  // unchanged, without an iteration; the interior point alone moves to its own (central) split.
  BoxOnCorners box(Eigen::VectorXd::Zero(6));
  const double weight = BoxOnCorners::m * kGravity * BoxOnCorners::dt;
  box.problem.p_N_guess = Eigen::Vector4d(1, -1, 1, -1) * (0.1 * weight) + Eigen::Vector4d::Constant(weight / 4);
  box.problem.p_S_guess.setZero();
  box.problem.p_T_guess.setZero();
  const ContactProblem& P = box.problem;

  const ContactResult certified = solve(model_with(true), P);
  ASSERT_EQ(certified.stats.status, SolveStatus::Solved) << certified.stats.message;
  const MaxDissipationReport& report = certified.report_as<MaxDissipationReport>();
  EXPECT_TRUE(report.phase_one_certified);
  EXPECT_TRUE(report.phase_two_certified);
  EXPECT_EQ(report.phase_one_iterations + report.phase_two_iterations, 0);
  // Phase II's guess is moved only by the stop of its rounding-level velocity (MD12): the split stays.
  EXPECT_LT((certified.p_N - P.p_N_guess).lpNorm<Eigen::Infinity>(), kRounding * weight);
  EXPECT_LT(certified.p_S.lpNorm<Eigen::Infinity>() + certified.p_T.lpNorm<Eigen::Infinity>(), kRounding * weight);

  // The optimality conditions, checked here from the answer alone (MD1, MD2, MD4, MD5).
  const double vbar = kGravity * BoxOnCorners::dt;
  Eigen::VectorXd applied = P.N.transpose() * certified.p_N + P.S.transpose() * certified.p_S +
                            P.T.transpose() * certified.p_T;
  Eigen::VectorXd expected = P.v_star + P.systems[0].M_llt->solve(applied);
  EXPECT_LT((certified.v_plus - expected).lpNorm<Eigen::Infinity>(), kRounding * vbar);
  EXPECT_LT(certified.v_plus.lpNorm<Eigen::Infinity>(), kRounding * vbar);   // at rest: ½v⁺ᵀMv⁺ = 0, the least
  EXPECT_GE(certified.p_N.minCoeff(), 0.0);
  const Eigen::VectorXd gap_velocity = P.N * certified.v_plus;   // φ = 0
  EXPECT_GT(gap_velocity.minCoeff(), -kRounding * vbar);
  EXPECT_NEAR(report.kappa, weight, kRounding * weight);

  // The interior point alone reaches the same velocities (the optimum is unique in v⁺), at another split.
  const ContactResult iterated = solve(model_with(false), P);
  ASSERT_EQ(iterated.stats.status, SolveStatus::Solved) << iterated.stats.message;
  EXPECT_LT((iterated.v_plus - certified.v_plus).lpNorm<Eigen::Infinity>(), kSolution * vbar);
  EXPECT_NEAR(iterated.p_N.sum(), certified.p_N.sum(), kSolution * weight);
}

TEST(CertifiedWarmStart, AStaleAnswerIsNotCertifiedAndIteratesAsWithoutTheTest) {
  // The resting answer (the weight on four corners, no friction) offered for three other steps:
  //   sliding at 0.5 m/s: phase I's normals still hold (they may certify), but friction must now act, and
  //     stopping the box would take 0.5 m of friction against μκ = 0.6 m g dt: phase II iterates;
  //   landing at 0.5 m/s: the resting normals would let the box sink: phase I iterates (its κ stops the
  //     fall; phase II may then certify the stop, v⁺ = 0, which is its optimum);
  //   both: neither phase certifies, and the result is the one without the test, bit for bit.
  const double weight = BoxOnCorners::m * kGravity * BoxOnCorners::dt;
  const double mu = 0.6, speed = 0.5;
  for (const Eigen::Vector3d& velocity :
       {Eigen::Vector3d(speed, 0, 0), Eigen::Vector3d(0, 0, -speed), Eigen::Vector3d(speed, 0, -speed)}) {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
    v.head<3>() = velocity;
    BoxOnCorners box(v);
    box.problem.p_N_guess = Eigen::Vector4d::Constant(weight / 4);
    box.problem.p_S_guess.setZero();
    box.problem.p_T_guess.setZero();
    const ContactResult tested = solve(model_with(true), box.problem);
    const ContactResult iterated = solve(model_with(false), box.problem);
    ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
    const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
    const bool sliding = velocity.x() > 0, landing = velocity.z() < 0;
    if (sliding) {
      EXPECT_FALSE(report.phase_two_certified);
      EXPECT_GT(report.phase_two_iterations, 0);
      // The box keeps sliding, having lost μκ/m of its speed (κ: the weight, plus the landing's stop).
      const double kappa = weight + (landing ? BoxOnCorners::m * speed : 0.0);
      EXPECT_NEAR(tested.v_plus[0], speed - mu * kappa / BoxOnCorners::m, kSolution * speed);
    }
    if (landing) {
      EXPECT_FALSE(report.phase_one_certified);
      EXPECT_GT(report.phase_one_iterations, 0);
    }
    // Every answer is the iterated optimum (v⁺ is unique: ½v⁺ᵀMv⁺ is strictly convex in v⁺).
    EXPECT_LT((tested.v_plus - iterated.v_plus).lpNorm<Eigen::Infinity>(), kSolution * speed);
    if (sliding && landing) {
      // Failed tests leave nothing behind: both phases iterate as without them, bit for bit.
      EXPECT_TRUE(same_bits(tested, iterated));
      EXPECT_EQ(tested.stats.iterations, iterated.stats.iterations);
    }
  }
}

TEST(CertifiedWarmStart, OnPerturbedPilesACertifiedAnswerIsAsGoodAsTheIteratedOne) {
  // Spheres of a pile on a grid (as test_max_dissipation's Pile, smaller): solved once, then the next
  // step's problem — v* perturbed by a fraction of its scale — warm-started from that answer. Whether the
  // answer certifies depends on the perturbation; when it does, it must meet the constraints and be an
  // optimum: no more kinetic energy than the iterated answer beyond the tolerance; when it does not, the
  // result is the iterated one bit for bit.
  const double r = 0.04, m = 0.3, I = 0.4 * m * r * r, dt = 0.001;
  int certified_count = 0, iterated_count = 0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    for (double perturbation : {0.0, 1e-12, 1e-6, 1e-2}) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> u(-1, 1);
      ProblemBuilder builder(dt);
      const int bodies = 4;   // a 2×2 layer on the ground, touching its neighbours
      for (int k = 0; k < bodies; ++k) {
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
        M.diagonal() << m, m, m, I, I, I;
        builder.add_system(M);
      }
      const int nv = 6 * bodies;
      auto add = [&](int a, int b, const Eigen::Vector3d& n) {
        const Eigen::Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
        Eigen::RowVectorXd N = Eigen::RowVectorXd::Zero(nv), S = N, T = N;
        N += row_at(nv, 6 * a, box_row(-r * n, n));
        S += row_at(nv, 6 * a, box_row(-r * n, t1));
        T += row_at(nv, 6 * a, box_row(-r * n, t2));
        if (b >= 0) {
          N -= row_at(nv, 6 * b, box_row(r * n, n));
          S -= row_at(nv, 6 * b, box_row(r * n, t1));
          T -= row_at(nv, 6 * b, box_row(r * n, t2));
        }
        builder.contact(N, S, T, seed % 2 == 0 ? 0.0 : 1e-5 * (1 + u(rng)), 0.5);
      };
      for (int k = 0; k < bodies; ++k) add(k, -1, Eigen::Vector3d::UnitZ());
      add(1, 0, Eigen::Vector3d::UnitX());
      add(3, 2, Eigen::Vector3d::UnitX());
      add(2, 0, Eigen::Vector3d::UnitY());
      const double speed = seed <= 4 ? 0.0 : 0.05;   // resting, or moving slowly
      Eigen::VectorXd v = Eigen::VectorXd::NullaryExpr(nv, [&] { return speed * u(rng); });
      Eigen::VectorXd v_star = v;
      for (int k = 0; k < bodies; ++k) v_star[6 * k + 2] -= kGravity * dt;
      ContactProblem first = builder.build(v, v_star);
      const ContactResult previous = solve(model_with(false), first);
      ASSERT_EQ(previous.stats.status, SolveStatus::Solved) << previous.stats.message;

      ContactProblem next = first;
      const double vbar = std::max(v_star.lpNorm<Eigen::Infinity>(), kGravity * dt);
      for (int i = 0; i < nv; ++i) next.v_star[i] += perturbation * vbar * u(rng);
      next.p_N_guess = previous.p_N;
      next.p_S_guess = previous.p_S;
      next.p_T_guess = previous.p_T;
      const ContactResult tested = solve(model_with(true), next);
      const ContactResult iterated = solve(model_with(false), next);
      ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
      const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
      if (!report.phase_one_certified && !report.phase_two_certified) {
        ++iterated_count;
        EXPECT_TRUE(same_bits(tested, iterated)) << "seed " << seed << ", perturbation " << perturbation;
        continue;
      }
      ++certified_count;
      const double energy = std::max(next.kinetic_energy(next.v_star), 0.5 * m * vbar * vbar);
      EXPECT_LE(next.kinetic_energy(tested.v_plus), next.kinetic_energy(iterated.v_plus) + kSolution * energy)
          << "seed " << seed << ", perturbation " << perturbation;
      const Eigen::VectorXd gap = next.N * tested.v_plus + next.phi / dt;
      EXPECT_GT(gap.minCoeff(), -kSolution * vbar) << "seed " << seed << ", perturbation " << perturbation;
      const double kappa = report.kappa;
      EXPECT_LE(tested.p_N.sum(), kappa * (1 + kSolution));
      for (int i = 0; i < next.nc; ++i)
        EXPECT_LE(std::hypot(tested.p_S[i], tested.p_T[i]), next.mu[i] * tested.p_N[i] + kSolution * kappa);
    }
  }
  RecordProperty("certified", certified_count);
  RecordProperty("iterated", iterated_count);
}


/// Two layers of touching spheres at rest on the ground (radius r, mass m): 6 × 6, and 5 × 5 in their hollows,
/// each on four (centre r√2 higher, the normal at 45°); with `rattler`, one sphere more on top of an upper one,
/// on that single contact (its normal vertical). v = 0, v* = −g dt ẑ.
struct TwoLayerPile {
  static constexpr double r = 0.04, m = 0.27, I = 0.4 * m * r * r, dt = 0.001, mu = 0.5;
  ProblemBuilder builder{dt};
  ContactProblem problem;
  int bodies = 0;
  explicit TwoLayerPile(bool rattler) {
    std::vector<Eigen::Vector3d> centres;
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i) centres.emplace_back(2 * r * i, 2 * r * j, r);
    for (int j = 0; j < 5; ++j)
      for (int i = 0; i < 5; ++i) centres.emplace_back(2 * r * i + r, 2 * r * j + r, r + r * std::sqrt(2.0));
    if (rattler) centres.push_back(centres[36 + 12] + Eigen::Vector3d(0, 0, 2 * r));
    bodies = static_cast<int>(centres.size());
    for (int k = 0; k < bodies; ++k) {
      Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
      M.diagonal() << m, m, m, I, I, I;
      builder.add_system(M);
    }
    const int nv = 6 * bodies;
    auto add = [&](int a, int b, const Eigen::Vector3d& n) {   // n from b (or the ground) to a
      const Eigen::Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
      Eigen::RowVectorXd N = Eigen::RowVectorXd::Zero(nv), S = N, T = N;
      N += row_at(nv, 6 * a, box_row(-r * n, n));
      S += row_at(nv, 6 * a, box_row(-r * n, t1));
      T += row_at(nv, 6 * a, box_row(-r * n, t2));
      if (b >= 0) {
        N -= row_at(nv, 6 * b, box_row(r * n, n));
        S -= row_at(nv, 6 * b, box_row(r * n, t1));
        T -= row_at(nv, 6 * b, box_row(r * n, t2));
      }
      builder.contact(N, S, T, 0.0, mu);
    };
    for (int a = 0; a < bodies; ++a) {
      if (a < 36) add(a, -1, Eigen::Vector3d::UnitZ());
      for (int b = 0; b < a; ++b) {
        const Eigen::Vector3d d = centres[a] - centres[b];
        if (std::abs(d.norm() - 2 * r) < 1e-12 * r) add(a, b, d.normalized());
      }
    }
    const Eigen::VectorXd v = Eigen::VectorXd::Zero(nv);
    Eigen::VectorXd v_star = v;
    for (int k = 0; k < bodies; ++k) v_star[6 * k + 2] -= kGravity * dt;
    problem = builder.build(v, v_star);
  }
};


TEST(CertifiedWarmStart, ALargeRestingPileIsStoppedByTheSparseFactor) {
  // Two layers of touching spheres at rest on the ground: 6 × 6, and 5 × 5 in their hollows, each
  // on four (centre r√2 higher, the normal at 45°). 61 free bodies, 366 DoF: beyond the dense stop's
  // 192, so (MD12)'s stop goes through the sparse LDLᵀ of 𝐉_𝒜ᵀ𝐉_𝒜. Every sphere carries impulse on
  // contacts in two directions at least, so 𝐉_𝒜 has full column rank. The interior point's answer of a
  // first step, offered to the same resting step, must be stopped to v⁺ = 0 and certified in phase II
  // (phase I is frictionless: there the pile's edges slide, and it iterates), and be an optimum.
  const TwoLayerPile pile(false);
  const double m = TwoLayerPile::m, dt = TwoLayerPile::dt, mu = TwoLayerPile::mu;
  const int bodies = pile.bodies, nv = 6 * bodies;
  ASSERT_GT(nv, 192);
  const ContactProblem& first = pile.problem;
  ASSERT_EQ(first.nc, 36 + 2 * 6 * 5 + 2 * 5 * 4 + 4 * 25);   // ground, in each layer, between them
  const ContactResult previous = solve(model_with(false), first);
  ASSERT_EQ(previous.stats.status, SolveStatus::Solved) << previous.stats.message;

  ContactProblem next = first;
  next.p_N_guess = previous.p_N;
  next.p_S_guess = previous.p_S;
  next.p_T_guess = previous.p_T;
  const ContactResult tested = solve(model_with(true), next);
  const ContactResult iterated = solve(model_with(false), next);
  ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
  const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
  EXPECT_TRUE(report.phase_two_certified);
  EXPECT_EQ(report.phase_two_iterations, 0);
  const double vbar = kGravity * dt;
  EXPECT_LT(tested.v_plus.lpNorm<Eigen::Infinity>(), kRounding * vbar);   // stopped: ½v⁺ᵀMv⁺ = 0, the least
  const Eigen::VectorXd gap = next.N * tested.v_plus;   // φ = 0
  EXPECT_GT(gap.minCoeff(), -kRounding * vbar);
  const double weight = bodies * m * vbar;
  EXPECT_LE(tested.p_N.sum(), report.kappa + kSolution * weight);
  for (int i = 0; i < next.nc; ++i)
    EXPECT_LE(std::hypot(tested.p_S[i], tested.p_T[i]), mu * tested.p_N[i] + kSolution * weight) << "contact " << i;
  // The iterated answer stops the pile too, to its tolerance.
  EXPECT_LT(iterated.v_plus.lpNorm<Eigen::Infinity>(), kSolution * vbar);
}

TEST(CertifiedWarmStart, SeparatingContactsWithoutAGuessGiveNoImpulseWithoutAnIteration) {
  // (MD13) Two spheres falling side by side over the ground, 5 mm from it and 5 mm apart: the collision margin
  // reports three contacts, none touching, and the previous step left them no impulse (no guess). When every
  // row separates within the step (N v* + φ/dt ≥ 0), p = 0 is the optimum of both phases: returned with no
  // iteration, v⁺ = v* to the bit. When the ground contacts would close within the step, p = 0 is not
  // certified and both phases iterate exactly as without the test.
  const double r = 0.04, m = 0.27, I = 0.4 * m * r * r, dt = 0.001, gap = 0.005;
  for (const double fall : {1.0, 10.0}) {   // m/s: 1 mm or 1 cm within the step, against the 5 mm gap
    ProblemBuilder builder(dt);
    for (int k = 0; k < 2; ++k) {
      Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
      M.diagonal() << m, m, m, I, I, I;
      builder.add_system(M);
    }
    const int nv = 12;
    auto add = [&](int a, int b, const Eigen::Vector3d& n) {
      const Eigen::Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
      Eigen::RowVectorXd N = Eigen::RowVectorXd::Zero(nv), S = N, T = N;
      N += row_at(nv, 6 * a, box_row(-r * n, n));
      S += row_at(nv, 6 * a, box_row(-r * n, t1));
      T += row_at(nv, 6 * a, box_row(-r * n, t2));
      if (b >= 0) {
        N -= row_at(nv, 6 * b, box_row(r * n, n));
        S -= row_at(nv, 6 * b, box_row(r * n, t1));
        T -= row_at(nv, 6 * b, box_row(r * n, t2));
      }
      builder.contact(N, S, T, gap, 0.5);
    };
    add(0, -1, Eigen::Vector3d::UnitZ());
    add(1, -1, Eigen::Vector3d::UnitZ());
    add(1, 0, Eigen::Vector3d::UnitX());
    Eigen::VectorXd v = Eigen::VectorXd::Zero(nv);
    v[2] = v[8] = -fall;
    v[0] = 0.3;   // the spheres close on each other at 0.3 m/s: 0.3 mm within the step
    Eigen::VectorXd v_star = v;
    v_star[2] -= kGravity * dt;
    v_star[8] -= kGravity * dt;
    const ContactProblem& P = builder.build(v, v_star);
    const ContactResult tested = solve(model_with(true), P);
    const ContactResult iterated = solve(model_with(false), P);
    ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
    const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
    if (fall * dt < gap) {
      EXPECT_TRUE(report.phase_one_certified);
      EXPECT_EQ(tested.stats.iterations, 0);
      EXPECT_EQ(report.kappa, 0.0);
      EXPECT_TRUE(report.phase_two_accepted);
      EXPECT_TRUE(tested.v_plus == P.v_star);
      EXPECT_FALSE(tested.p_N.any() || tested.p_S.any() || tested.p_T.any());
      // The interior point alone finds the same optimum to its tolerance.
      EXPECT_LT((iterated.v_plus - tested.v_plus).lpNorm<Eigen::Infinity>(), kSolution * fall);
    } else {
      EXPECT_FALSE(report.phase_one_certified);
      EXPECT_GT(tested.stats.iterations, 0);
      EXPECT_TRUE(same_bits(tested, iterated));
      EXPECT_EQ(tested.stats.iterations, iterated.stats.iterations);
    }
  }
}



TEST(CertifiedWarmStart, RowsSeparatingAsTheyStandGiveTheInteriorPointsCertifiedBits) {
  // (MD13) Where every row separates under v* as computed (N v* + φ/dt ≥ 0), p = 0 is taken from the rows without
  // building phase I's program. Its bits must be those of the interior point's certified p = 0, v⁺ = v* + M⁻¹𝐉ᵀ0,
  // which the rows decide where one approaches by less than the tolerance (N v* + φ/dt = −1e-10 m/s: p = 0 still
  // certified, by the interior point). A wall beside the sphere makes it two contacts (one is answered in closed form).
  // v* carries a −0 (no sideways motion), which v* + M⁻¹𝐉ᵀ0 turns into +0.
  const double r = 0.04, m = 0.27, I = 0.4 * m * r * r, dt = 0.001, fall = 1.0;
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ(), t1 = Eigen::Vector3d::UnitX(), t2 = Eigen::Vector3d::UnitY();
  Eigen::VectorXd v(6), v_star(6);
  v << -0.0, 0.0, -fall, 0.0, 0.0, 0.0;
  v_star = v;
  v_star[2] -= kGravity * dt;
  const double closing = fall + kGravity * dt;   // −N v* (m/s)
  ContactResult answer[2];
  for (int k = 0; k < 2; ++k) {
    const double phi = k == 0 ? 0.005 : (closing - 1e-10) * dt;
    ProblemBuilder builder(dt);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
    M.diagonal() << m, m, m, I, I, I;
    builder.add_system(M);
    builder.contact(box_row(-r * n, n), box_row(-r * n, t1), box_row(-r * n, t2), phi, 0.5);
    builder.contact(box_row(r * t1, -t1), box_row(r * t1, n), box_row(r * t1, t2), 0.005, 0.5);   // a wall beside it
    const ContactProblem& P = builder.build(v, v_star);
    const double b = P.N.row(0).dot(P.v_star) + P.phi[0] / dt;
    if (k == 0) ASSERT_GE(b, 0.0);
    else ASSERT_LT(b, 0.0);
    answer[k] = solve(model_with(true), P);
    const MaxDissipationReport& report = answer[k].report_as<MaxDissipationReport>();
    EXPECT_TRUE(report.phase_one_certified) << "case " << k;
    EXPECT_EQ(answer[k].stats.iterations, 0) << "case " << k;
    EXPECT_FALSE(answer[k].p_N.any() || answer[k].p_S.any() || answer[k].p_T.any()) << "case " << k;
  }
  EXPECT_TRUE(same_bits(answer[0], answer[1]));
  EXPECT_FALSE(std::signbit(answer[0].v_plus[0]));
  EXPECT_FALSE(std::signbit(answer[1].v_plus[0]));
}

/// Rows 𝐉_𝒜 of the contacts with p_N > 0: the largest |N v|, |S v|, |T v| among them.
double loaded_contact_speed(const ContactProblem& P, const ContactResult& result) {
  const Eigen::VectorXd n = P.N * result.v_plus, s = P.S * result.v_plus, t = P.T * result.v_plus;
  double speed = 0;
  for (int i = 0; i < P.nc; ++i)
    if (result.p_N[i] > 0) speed = std::max({speed, std::abs(n[i]), std::abs(s[i]), std::abs(t[i])});
  return speed;
}

TEST(CertifiedWarmStart, ARestingPileWithARattlerIsStoppedByTheProjection) {
  // (MD14) The pile of the test above with one sphere more, on top of an upper sphere alone: on its one loaded
  // contact it may still spin about the normal and roll about the contact point, so 𝐉_𝒜 is rank deficient
  // (3 rows for its 6 DoF) and no Δp brings the island to v⁺ = 0; and the lower spheres' contacts are
  // redundant (each sphere on four, 12 rows or more for 6 DoF), so A = 𝐉_𝒜M⁻¹𝐉_𝒜ᵀ is singular. The interior
  // point's answer of a first step, offered to the same resting step, must be projected onto ker 𝐉_𝒜 (every
  // loaded contact at rest to rounding), certified in phase II without an iteration, and be an optimum: no
  // more kinetic energy than the iterated answer, inside the cones and the budget.
  TwoLayerPile pile(true);
  const ContactProblem& first = pile.problem;
  const int nv = first.nv;
  ASSERT_GT(nv, 192);
  ASSERT_EQ(first.nc, 36 + 2 * 6 * 5 + 2 * 5 * 4 + 4 * 25 + 1);
  const ContactResult previous = solve(model_with(false), first);
  ASSERT_EQ(previous.stats.status, SolveStatus::Solved) << previous.stats.message;
  ASSERT_GT(previous.p_N[first.nc - 1], 0.0);   // the rattler's contact carries its weight

  ContactProblem next = first;
  next.p_N_guess = previous.p_N;
  next.p_S_guess = previous.p_S;
  next.p_T_guess = previous.p_T;
  const ContactResult tested = solve(model_with(true), next);
  const ContactResult iterated = solve(model_with(false), next);
  ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
  ASSERT_EQ(iterated.stats.status, SolveStatus::Solved) << iterated.stats.message;
  const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
  EXPECT_GT(report.stop_rounds, 0);
  EXPECT_TRUE(report.phase_two_certified);
  EXPECT_EQ(report.phase_two_iterations, 0);
  const double vbar = kGravity * TwoLayerPile::dt;
  EXPECT_LT(loaded_contact_speed(next, tested), kRounding * vbar);   // v⁺ ∈ ker 𝐉_𝒜
  // The spheres below the rattler are held on all sides: at rest to rounding.
  EXPECT_LT(tested.v_plus.head(nv - 6).lpNorm<Eigen::Infinity>(), kRounding * vbar);
  const Eigen::VectorXd gap = next.N * tested.v_plus;   // φ = 0
  EXPECT_GT(gap.minCoeff(), -kRounding * vbar);
  // An optimum: the least kinetic energy, to the interior point's tolerance of the energy scale.
  const double energy_scale = 0.5 * pile.bodies * TwoLayerPile::m * vbar * vbar;
  EXPECT_LE(next.kinetic_energy(tested.v_plus), next.kinetic_energy(iterated.v_plus) + kSolution * energy_scale);
  const double weight = pile.bodies * TwoLayerPile::m * vbar;
  EXPECT_LE(tested.p_N.sum(), report.kappa + kSolution * weight);
  for (int i = 0; i < next.nc; ++i)
    EXPECT_LE(std::hypot(tested.p_S[i], tested.p_T[i]), TwoLayerPile::mu * tested.p_N[i] + kSolution * weight)
        << "contact " << i;
}

TEST(CertifiedWarmStart, ARankDeficientStopIsDeclinedWhereItLeavesTheCones) {
  // (MD14) The pile with its rattler, offered its resting answer (a first step's) for a step in which every
  // sphere slides at 0.5 m/s: the projection still brings every loaded contact to rest — with friction far
  // outside the cones (stopping 0.5 m/s takes m·0.5 of friction per sphere against μκ ≈ 0.5 m g dt). It must be
  // declined: phase II iterates, to the optimum the interior point alone reaches.
  TwoLayerPile pile(true);
  const ContactResult previous = solve(model_with(false), pile.problem);
  ASSERT_EQ(previous.stats.status, SolveStatus::Solved) << previous.stats.message;
  const double speed = 0.5;
  ContactProblem next = pile.problem;
  for (int k = 0; k < pile.bodies; ++k) {
    next.v_star[6 * k] += speed;
    next.v[6 * k] += speed;
  }
  next.p_N_guess = previous.p_N;
  next.p_S_guess = previous.p_S;
  next.p_T_guess = previous.p_T;
  const ContactResult tested = solve(model_with(true), next);
  const ContactResult iterated = solve(model_with(false), next);
  ASSERT_EQ(tested.stats.status, SolveStatus::Solved) << tested.stats.message;
  ASSERT_EQ(iterated.stats.status, SolveStatus::Solved) << iterated.stats.message;
  const MaxDissipationReport& report = tested.report_as<MaxDissipationReport>();
  EXPECT_GT(report.stop_rounds, 0);
  EXPECT_FALSE(report.phase_two_certified);
  EXPECT_GT(report.phase_two_iterations, 0);
  // v⁺ is unique (½v⁺ᵀMv⁺ is strictly convex in v⁺): the declined candidate left the optimum as iterated.
  EXPECT_LT((tested.v_plus - iterated.v_plus).lpNorm<Eigen::Infinity>(), kSolution * speed);
}

}  // namespace
}  // namespace impetus
