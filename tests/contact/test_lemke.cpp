// Lemke's method (contact/solvers/lemke.hpp): known solutions, degenerate and rank-deficient LCPs,
// ray termination, random PSD / copositive-plus problems checked by the certificate (L6).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "contact/solvers/guessed_basis.hpp"
#include "contact/solvers/lemke.hpp"

namespace impetus {
namespace {

// Hand-solved problems below have O(1) data and well-conditioned bases: Lemke with iterative
// refinement reproduces their solutions to a few ulps; 1e-12 leaves a margin of ~1e3 ulps.
constexpr double kExact = 1e-12;
// The certificate the random problems must meet: the solver's own default tolerance (1e-6), so a
// pass here means "accepted by the stepper", and the check is done by lcp_residual, not trusted.
const double kCertificate = LemkeOptions{}.tolerance;

Eigen::MatrixXd matrix(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd A(rows.size(), rows.begin()->size());
  int i = 0;
  for (const auto& r : rows) {
    int j = 0;
    for (double x : r) A(i, j++) = x;
    ++i;
  }
  return A;
}

Eigen::VectorXd vector(std::initializer_list<double> x) {
  Eigen::VectorXd v(x.size());
  int i = 0;
  for (double e : x) v[i++] = e;
  return v;
}

/// Solves and checks the certificate independently of the solver's own report.
LemkeResult solve_checked(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, Eigen::VectorXd& z) {
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(A, q, z);
  Eigen::VectorXd w;
  EXPECT_TRUE(z.allFinite());
  if (r.solved()) {
    EXPECT_LE(lcp_residual(A, q, z, w), kCertificate);
    EXPECT_NEAR(lcp_residual(A, q, z, w), r.residual, 1e-15);
  }
  return r;
}

// ------------------------------------------------------------------ known solutions

TEST(Lemke, NonNegativeQGivesZeroWithoutPivoting) {
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{2, 1}, {1, 2}}), vector({1, 0}), z);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.pivots, 0);
  EXPECT_EQ(z, Eigen::VectorXd::Zero(2));
}

TEST(Lemke, ZeroMatrixWithNonNegativeQ) {
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(Eigen::MatrixXd::Zero(3, 3), vector({0, 2, 0}), z);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(z, Eigen::VectorXd::Zero(3));
}

TEST(Lemke, EmptyProblem) {
  Eigen::VectorXd z;
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(Eigen::MatrixXd(0, 0), Eigen::VectorXd(0), z);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(z.size(), 0);
}

TEST(Lemke, PositiveDefiniteAllActive) {
  // A z = −q with z > 0:  z = A⁻¹(5, 6) = (4/3, 7/3), w = 0.
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{2, 1}, {1, 2}}), vector({-5, -6}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_NEAR(z[0], 4.0 / 3, kExact);
  EXPECT_NEAR(z[1], 7.0 / 3, kExact);
}

TEST(Lemke, PositiveDefiniteOneActive) {
  // z₂ = 0: 2 z₁ − 1 = 0 → z₁ = 1/2, w₂ = z₁ + 4 = 4.5 > 0. Unique (A is PD).
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{2, 1}, {1, 2}}), vector({-1, 4}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_NEAR(z[0], 0.5, kExact);
  EXPECT_NEAR(z[1], 0.0, kExact);
}

TEST(Lemke, ThreeByThreeMixed) {
  // Guess z₂ = 0: 4 z₁ = 1, 2 z₃ = 1 → z = (1/4, 0, 1/2), w₂ = 1/4 + 1/2 + 2 > 0. A is PD: unique.
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}), vector({-1, 2, -1}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - vector({0.25, 0, 0.5})).norm(), kExact);
}

TEST(Lemke, NonSymmetricPMatrixUniqueSolution) {
  // A = [1 2; 0 1] has positive principal minors (a P-matrix): the solution is unique.
  // w₂ = z₂ − 1 = 0 → z₂ = 1; w₁ = z₁ + 2 − 3 = 0 → z₁ = 1.
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{1, 2}, {0, 1}}), vector({-3, -1}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - vector({1, 1})).norm(), kExact);
}

// ------------------------------------------------------------------ degenerate

TEST(Lemke, TiesInTheFirstRatioTest) {
  // q has three equal minima; A·1 = 4·1 so z = 1 (A PD: unique).
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(matrix({{2, 1, 1}, {1, 2, 1}, {1, 1, 2}}), vector({-4, -4, -4}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - Eigen::VectorXd::Ones(3)).norm(), kExact);
}

TEST(Lemke, ZerosInQ) {
  // q = (0, −2): z = (0, 1), w = (1, 0). The basic w₁ starts at 0: a degenerate first step.
  Eigen::VectorXd z;
  LemkeResult r = solve_checked(matrix({{2, 1}, {1, 2}}), vector({0, -2}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - vector({0, 1})).norm(), kExact);
  // Identity with zeros and a tie: z = −min(q, 0).
  r = solve_checked(Eigen::MatrixXd::Identity(4, 4), vector({0, -1, 0, -1}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - vector({0, 1, 0, 1})).norm(), kExact);
}

TEST(Lemke, DegenerateSolutionWithZeroZAndZeroW) {
  // Built from z̄ = (1, 0, 0), w̄ = (0, 0, 1): index 1 has z = w = 0 at the solution.
  const Eigen::MatrixXd A = matrix({{3, 1, 0}, {1, 2, 1}, {0, 1, 2}});
  const Eigen::VectorXd q = vector({0, 0, 1}) - A * vector({1, 0, 0});
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(A, q, z);
  ASSERT_TRUE(r.solved());
  EXPECT_LE((z - vector({1, 0, 0})).norm(), kExact);   // A is PD: unique
}

// ------------------------------------------------------------------ rank-deficient PSD

TEST(Lemke, DuplicatedRowsAndColumns) {
  // A = 1·1ᵀ (rank 1): every z ≥ 0 with z₁ + z₂ + z₃ = 1 solves it; check the certificate and the sum.
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(Eigen::MatrixXd::Ones(3, 3), vector({-1, -1, -1}), z);
  ASSERT_TRUE(r.solved());
  EXPECT_NEAR(z.sum(), 1.0, kExact);
}

TEST(Lemke, RankDeficientPsdWithDuplicatedContactLikeRows) {
  // A = B Bᵀ with rows of B repeated (redundant constraints), q feasible by construction.
  Eigen::MatrixXd B(5, 2);
  B << 1, 0, 0, 1, 1, 0, 1, 1, 0, 1;
  const Eigen::MatrixXd A = B * B.transpose();
  const Eigen::VectorXd q = vector({-1, -1, -1, -2, -1});
  Eigen::VectorXd z;
  const LemkeResult r = solve_checked(A, q, z);
  ASSERT_TRUE(r.solved());
  // w = B (Bᵀz) + q ≥ 0 with equality where z > 0: here every q_i is met by y = Bᵀz = (1, 1).
  EXPECT_LE((B.transpose() * z - vector({1, 1})).norm(), 1e-9);
}

// ------------------------------------------------------------------ infeasible: ray termination

TEST(Lemke, NegativeIdentityEndsOnARay) {
  // w = −z + q with q < 0 gives w < 0 for every z ≥ 0: infeasible. Lemke must stop on the secondary
  // ray (not crash, not claim a solution), and no retry can meet the certificate.
  Eigen::VectorXd z;
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(-Eigen::MatrixXd::Identity(3, 3), vector({-1, -2, -0.5}), z);
  EXPECT_FALSE(r.solved());
  EXPECT_EQ(r.plain_status, LemkeStatus::RayTermination);
  EXPECT_EQ(r.status, LemkeStatus::RayTermination);
  EXPECT_TRUE(z.allFinite());
  EXPECT_GT(r.residual, kCertificate);
}

TEST(Lemke, InfeasiblePsdEndsOnARayAndRegularisationCannotFakeIt) {
  // A = [1 −1; −1 1] is PSD (copositive-plus); w₁ + w₂ = q₁ + q₂ = −2 < 0: infeasible. This is a
  // body squeezed between two walls it penetrates. A + εI is PD, so the retries find a z, but it
  // violates the original problem, and must not be reported as solved.
  Eigen::VectorXd z;
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(matrix({{1, -1}, {-1, 1}}), vector({-1, -1}), z);
  EXPECT_FALSE(r.solved());
  EXPECT_EQ(r.plain_status, LemkeStatus::RayTermination);
  EXPECT_GE(r.attempts, 2);
  EXPECT_TRUE(z.allFinite());
}

TEST(Lemke, ZeroMatrixWithNegativeQIsInfeasible) {
  Eigen::VectorXd z;
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(Eigen::MatrixXd::Zero(2, 2), vector({1, -1}), z);
  EXPECT_FALSE(r.solved());
  EXPECT_EQ(r.plain_status, LemkeStatus::RayTermination);
}

TEST(Lemke, NonFiniteDataIsANumericalFailureNotACrash) {
  Eigen::VectorXd z;
  LemkeSolver lemke;
  const LemkeResult r = lemke.solve(matrix({{1, 0}, {0, std::nan("")}}), vector({-1, -1}), z);
  EXPECT_FALSE(r.solved());
  EXPECT_EQ(r.plain_status, LemkeStatus::NumericalFailure);
  EXPECT_TRUE(z.allFinite());
}

TEST(Lemke, ANonFiniteEntryAnywhereIsANumericalFailure) {
  // The data check is one pass max|A_ij| with NaN propagated (solve_once): every position and kind of
  // non-finite entry must be caught, also where q ≥ 0 would end the run before any pivot.
  const Eigen::MatrixXd A = matrix({{2, 1, 0}, {1, 2, 1}, {0, 1, 2}});
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()})
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (const Eigen::VectorXd& q : {vector({-1, -1, -1}), vector({1, 1, 1})}) {
          Eigen::MatrixXd B = A;
          B(i, j) = bad;
          Eigen::VectorXd z;
          LemkeSolver lemke;
          const LemkeResult r = lemke.solve(B, q, z);
          EXPECT_EQ(r.plain_status, LemkeStatus::NumericalFailure) << bad << " at " << i << ", " << j;
          EXPECT_FALSE(r.solved());
          EXPECT_TRUE(z.allFinite());
        }
}

TEST(Lemke, PivotCapIsReported) {
  LemkeOptions options;
  options.max_pivots = 2;
  options.regularization_max = 0;
  LemkeSolver lemke(options);
  Eigen::VectorXd z;
  // Needs 4 pivots: z₀ in, then each of the three z's.
  const LemkeResult r = lemke.solve(Eigen::MatrixXd::Identity(3, 3) * 2, vector({-1, -2, -3}), z);
  EXPECT_EQ(r.status, LemkeStatus::PivotLimit);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_TRUE(z.allFinite());
}

// ------------------------------------------------------------------ random problems (seeded)

struct RandomLcp {
  Eigen::MatrixXd A;
  Eigen::VectorXd q;
};

/// q = w̄ − A z̄ with z̄, w̄ ≥ 0 (often complementary, sometimes both zero: degenerate): feasible.
Eigen::VectorXd feasible_q(const Eigen::MatrixXd& A, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const int n = static_cast<int>(A.rows());
  Eigen::VectorXd z(n), w(n);
  for (int i = 0; i < n; ++i) {
    const double a = u(rng);
    z[i] = a < 0.4 ? std::round(3 * u(rng)) : 0;   // integers: many exact ties
    w[i] = a > 0.3 ? std::round(3 * u(rng)) : 0;
  }
  return w - A * z;
}

Eigen::MatrixXd gaussian(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> g(0, 1);
  Eigen::MatrixXd B(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) B(i, j) = g(rng);
  return B;
}

/// Rank-deficient PSD B Bᵀ with duplicated rows of B (redundant constraints).
Eigen::MatrixXd random_psd(int n, int rank, std::mt19937& rng) {
  Eigen::MatrixXd B = gaussian(n, rank, rng);
  for (int i = 0; i < n / 5; ++i) B.row(rng() % n) = B.row(rng() % n).eval();
  return B * B.transpose();
}

TEST(Lemke, RandomRankDeficientPsd) {
  // PSD is copositive-plus: Lemke with anti-cycling must solve every feasible instance.
  std::mt19937 rng(2024);
  LemkeSolver lemke;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 40, rank = 1 + static_cast<int>(rng() % n);
    const Eigen::MatrixXd A = random_psd(n, rank, rng);
    const Eigen::VectorXd q = feasible_q(A, rng);
    Eigen::VectorXd z, w;
    const LemkeResult r = lemke.solve(A, q, z);
    ASSERT_TRUE(r.solved()) << "trial " << trial << " n " << n << " rank " << rank << ": " << to_string(r.status);
    EXPECT_EQ(r.attempts, 1) << "trial " << trial << " needed regularisation";
    EXPECT_LE(lcp_residual(A, q, z, w), kCertificate);
  }
}

TEST(Lemke, OneSolverServesProblemsOfDifferentSizesWithAFreshOnesBits) {
  // A solver keeps its buffers per size met (lemke.hpp, Sized): a trot's island alternates between a few
  // sizes. Whatever the sizes solved before, a solve must give the bits of a fresh solver's.
  std::mt19937 rng(77);
  std::vector<RandomLcp> problems;
  for (int n : {7, 12, 7, 3, 12, 12, 7, 3}) {
    const Eigen::MatrixXd A = random_psd(n, 1 + static_cast<int>(rng() % n), rng);
    problems.push_back({A, feasible_q(A, rng)});
  }
  LemkeSolver shared;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const RandomLcp& p = problems[i];
    Eigen::VectorXd z_shared, z_fresh;
    const LemkeResult r_shared = shared.solve(p.A, p.q, z_shared);
    LemkeSolver fresh;
    const LemkeResult r_fresh = fresh.solve(p.A, p.q, z_fresh);
    ASSERT_TRUE(r_fresh.solved()) << "problem " << i;
    EXPECT_EQ(r_shared.pivots, r_fresh.pivots) << "problem " << i;
    EXPECT_EQ(r_shared.residual, r_fresh.residual) << "problem " << i;
    ASSERT_EQ(z_shared.size(), z_fresh.size());
    for (Eigen::Index k = 0; k < z_fresh.size(); ++k) EXPECT_EQ(z_shared[k], z_fresh[k]) << "problem " << i << " z " << k;
  }
}

TEST(Lemke, RandomLowRankLargePsdNeedsNoRegularisation) {
  // n up to 120 with rank ≤ 6: bases far larger than the rank, many exact zeros of d computed as
  // roundoff, degenerate pivots by the hundred — where naive pivoting cycles.
  std::mt19937 rng(7);
  LemkeSolver lemke;
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 60 + static_cast<int>(rng() % 60), rank = 1 + static_cast<int>(rng() % 6);
    const Eigen::MatrixXd A = random_psd(n, rank, rng);
    const Eigen::VectorXd q = feasible_q(A, rng);
    Eigen::VectorXd z, w;
    const LemkeResult r = lemke.solve(A, q, z);
    ASSERT_TRUE(r.solved()) << "trial " << trial << ": " << to_string(r.status);
    EXPECT_EQ(r.attempts, 1);
    EXPECT_LE(lcp_residual(A, q, z, w), kCertificate);
  }
}

TEST(Lemke, RandomMonotoneNonSymmetric) {
  // A = B Bᵀ + (C − Cᵀ): zᵀAz = ‖Bᵀz‖² ≥ 0 and zᵀAz = 0 ⇒ (A + Aᵀ) z = 2 B Bᵀ z = 0: copositive-plus.
  std::mt19937 rng(99);
  LemkeSolver lemke;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 30, rank = 1 + static_cast<int>(rng() % n);
    const Eigen::MatrixXd C = gaussian(n, n, rng);
    const Eigen::MatrixXd A = random_psd(n, rank, rng) + C - C.transpose();
    const Eigen::VectorXd q = feasible_q(A, rng);
    Eigen::VectorXd z, w;
    const LemkeResult r = lemke.solve(A, q, z);
    ASSERT_TRUE(r.solved()) << "trial " << trial << ": " << to_string(r.status);
    EXPECT_LE(lcp_residual(A, q, z, w), kCertificate);
  }
}

TEST(Lemke, RandomStrictlyCopositiveAnyQ) {
  // PSD + a non-negative matrix with a positive diagonal is strictly copositive (zᵀAz > 0 for z ≥ 0,
  // z ≠ 0), hence copositive-plus, and LCP(q, A) is solvable for every q.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g(0, 3);
  LemkeSolver lemke;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 30;
    Eigen::MatrixXd A = random_psd(n, 1 + static_cast<int>(rng() % n), rng);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) += (i == j ? 1.0 : 0.0) + (u(rng) < 0.3 ? u(rng) : 0.0);
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = std::round(g(rng));
    Eigen::VectorXd z, w;
    const LemkeResult r = lemke.solve(A, q, z);
    ASSERT_TRUE(r.solved()) << "trial " << trial << ": " << to_string(r.status);
    EXPECT_LE(lcp_residual(A, q, z, w), kCertificate);
  }
}

// ------------------------------------------------------------------ the certificate itself

TEST(LcpResidual, MeasuresEachViolationRelativeToItsTerms) {
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = vector({-1, 1});
  Eigen::VectorXd w;
  EXPECT_EQ(lcp_residual(A, q, vector({1, 0}), w), 0.0);            // exact solution
  EXPECT_NEAR(lcp_residual(A, q, vector({0.5, 0}), w), 0.5, 1e-15);  // w₁ = −0.5 against ‖q‖ = 1
  EXPECT_NEAR(lcp_residual(A, q, vector({1, 0.1}), w), 0.11, 1e-15); // z₂ w₂ = 0.1·1.1 against 1·1
  EXPECT_EQ(lcp_residual(A, q, vector({std::nan(""), 0}), w), std::numeric_limits<double>::infinity());
  // Invariant under scaling the whole problem.
  EXPECT_NEAR(lcp_residual(1e6 * A, 1e3 * q, vector({0.5e-3, 0}), w), 0.5, 1e-12);
}

// (GB1) guessed_basis.hpp: a guess is accepted only when its basis solves the LCP (Lemke's certificate), and then
// as the solution nearest the guess.
TEST(GuessedBasis, AcceptsTheRightBasisAndRefusesAWrongOne) {
  // A = I, q = (−1, 1): z = (1, 0), w = (0, 1). The guess z names the basis {0}: accepted, z exactly.
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = vector({-1, 1});
  GuessedBasis guessed;
  Eigen::VectorXd x(2);
  double residual = -1;
  ASSERT_TRUE(guessed.solve(A, q, vector({0.7, 0}), 1e-6, x, residual));
  EXPECT_EQ(x, vector({1, 0}));
  EXPECT_EQ(residual, 0);
  // The answer of q' = (1, −1), basis {1}: x = (0, 1) leaves w₀ = −1 < 0, refused.
  EXPECT_FALSE(guessed.solve(A, q, vector({0, 1}), 1e-6, x, residual));
  EXPECT_GT(residual, 1e-6);
  // No guess (nothing basic) is no warm start.
  EXPECT_FALSE(guessed.solve(A, q, vector({0, 0}), 1e-6, x, residual));
}

TEST(GuessedBasis, OnASingularBasisTakesTheSolutionNearestTheGuess) {
  // A = [1 1; 1 1], q = (−2, −2): every z ≥ 0 with z₀ + z₁ = 2 solves it. From the guess (1.5, 0.7) the least-norm
  // correction solves A δ = −(A z̃ + q) = (−0.2, −0.2) by δ = (−0.1, −0.1): x = (1.4, 0.6), the solution nearest
  // the guess (the last step's force distribution kept).
  Eigen::MatrixXd A(2, 2);
  A << 1, 1, 1, 1;
  GuessedBasis guessed;
  Eigen::VectorXd x(2);
  double residual = -1;
  ASSERT_TRUE(guessed.solve(A, vector({-2, -2}), vector({1.5, 0.7}), 1e-6, x, residual));
  EXPECT_NEAR(x[0], 1.4, 1e-14);
  EXPECT_NEAR(x[1], 0.6, 1e-14);
  EXPECT_LE(residual, 1e-14);
}

TEST(GuessedBasis, LemkesOwnAnswerIsAcceptedOnRandomProblems) {
  // PSD rank-deficient LCPs (A = BᵀB, B 3×n): Lemke's certified z, given back as the guess, names a basis that
  // solves the LCP, so it is accepted at the same tolerance; a solution of another q is refused unless it
  // also meets the certificate for this q (checked directly).
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  LemkeSolver lemke;
  GuessedBasis guessed;
  int accepted = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 4 + trial % 6;
    Eigen::MatrixXd B(3, n);
    for (int i = 0; i < B.size(); ++i) B.data()[i] = normal(rng);
    const Eigen::MatrixXd A = B.transpose() * B + 1e-3 * Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd q(n), q2(n), z = Eigen::VectorXd::Zero(n), z2 = Eigen::VectorXd::Zero(n), x(n), w(n);
    for (int i = 0; i < n; ++i) q[i] = normal(rng), q2[i] = normal(rng);
    ASSERT_TRUE(lemke.solve(A, q, z).solved());
    ASSERT_TRUE(lemke.solve(A, q2, z2).solved());
    double residual = -1;
    if (z.lpNorm<Eigen::Infinity>() > 0) {
      EXPECT_TRUE(guessed.solve(A, q, z, 1e-6, x, residual)) << "trial " << trial << " ρ " << residual;
      ++accepted;
    }
    if (guessed.solve(A, q, z2, 1e-6, x, residual)) {
      EXPECT_LE(lcp_residual(A, q, x, w), 1e-6) << "trial " << trial;
    }
  }
  EXPECT_GT(accepted, 25);
}

}  // namespace
}  // namespace impetus
