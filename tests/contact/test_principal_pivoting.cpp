// The solver layer of the seed-000 models: the incremental Delassus factor (D1–D4), FIND-INDICES
// (Algorithm 2) and the modified principal pivoting method (Algorithm 1) against Lemke's method on
// random, redundant and rank-deficient problems.
#include <gtest/gtest.h>

#include <random>

#include "contact/solvers/find_indices.hpp"
#include "contact/solvers/unilateral_projection.hpp"
#include "test_no_slip_fixtures.hpp"

namespace impetus {
namespace {

// Roundoff of O(1)-conditioned factor updates, relative to the entries of D (≤ ~10 here): 1e-12
// leaves 3–4 orders of margin over ~1e-15 per operation.
constexpr double kFactorTol = 1e-12;
// Lemke's certificate (lemke.hpp, default tolerance 1e-6) bounds how far its v⁺ can be from the
// unique v⁺ of the projection, relative to the problem's velocities.
constexpr double kLemkeAgreement = 1e-6;
// The independent KKT check (kkt_violation), relative to the problem's velocity and impulse scales:
// the certificate_tolerance (1e-9) of the solver, which its results meet with orders to spare.
constexpr double kKktTol = 1e-9;

/// Random block-diagonal SPD metric (blocks of 1 … 6) with its factors.
struct RandomMetric {
  std::deque<Eigen::MatrixXd> M;
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt;
  std::vector<SystemBlock> layout;
  std::vector<const Eigen::LLT<Eigen::MatrixXd>*> factors;
  BlockInertia W;
  Eigen::MatrixXd dense;

  RandomMetric(std::mt19937& rng, int nv) {
    std::uniform_int_distribution<int> size(1, 6);
    std::normal_distribution<double> normal(0, 1);
    dense.setZero(nv, nv);
    for (int o = 0; o < nv;) {
      const int s = std::min(size(rng), nv - o);
      Eigen::MatrixXd A(s, s);
      for (int i = 0; i < s * s; ++i) A.data()[i] = normal(rng);
      M.push_back(A * A.transpose() + 0.5 * Eigen::MatrixXd::Identity(s, s));
      llt.emplace_back(M.back());
      layout.push_back({o, s, &M.back(), &llt.back()});
      factors.push_back(&llt.back());
      dense.block(o, o, s, s) = M.back();
      o += s;
    }
    W.reset(nv, layout, factors);
  }
};

SparseRows random_rows(std::mt19937& rng, int rows, int nv, int independent) {
  // `independent` random sparse-ish rows, the rest random combinations (and exact duplicates) of them.
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> pick(0, std::max(independent - 1, 0));
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, nv);
  for (int r = 0; r < rows; ++r) {
    if (r < independent) {
      for (int c = 0; c < nv; ++c)
        if (normal(rng) > 0) A(r, c) = normal(rng);
      A(r, r % nv) += 1;   // never a zero row
    } else if (r % 3 == 0) {
      A.row(r) = A.row(pick(rng));
    } else {
      A.row(r) = normal(rng) * A.row(pick(rng)) + normal(rng) * A.row(pick(rng));
    }
  }
  return A.sparseView();
}

TEST(DelassusFactor, AppendAndRemoveKeepTheCholeskyFactorOfCWinvCt) {
  std::mt19937 rng(1);
  const int nv = 12;
  RandomMetric metric(rng, nv);
  const SparseRows C = random_rows(rng, nv, nv, nv);
  const Eigen::VectorXd v_f = Eigen::VectorXd::Random(nv);
  DelassusFactor f;
  f.reset(metric.W, v_f);
  std::vector<int> held;
  for (int r = 0; r < nv; ++r) {
    ASSERT_TRUE(f.try_append({&C, r}, 0.1 * r, 1e-12));
    held.push_back(r);
  }
  std::uniform_int_distribution<int> coin(0, 1);
  for (int round = 0; round < 40; ++round) {
    if (f.size() > 0 && (coin(rng) || f.size() == nv)) {
      std::uniform_int_distribution<int> at(0, f.size() - 1);
      const int p = at(rng);
      f.remove(p);
      held.erase(held.begin() + p);
    } else {
      for (int r = 0; r < nv; ++r)
        if (std::find(held.begin(), held.end(), r) == held.end()) {
          ASSERT_TRUE(f.try_append({&C, r}, 0.1 * r, 1e-12));
          held.push_back(r);
          break;
        }
    }
    // The solve (D2) must match a dense solve of the KKT system with the rows held.
    const int k = f.size();
    Eigen::MatrixXd Ck(k, nv);
    Eigen::VectorXd t(k);
    for (int p = 0; p < k; ++p) {
      Ck.row(p) = Eigen::MatrixXd(C).row(held[p]);
      t[p] = 0.1 * held[p];
    }
    const Eigen::MatrixXd Winv = metric.dense.inverse();
    const Eigen::MatrixXd D = Ck * Winv * Ck.transpose();
    const Eigen::VectorXd lambda = D.ldlt().solve(t - Ck * v_f);
    Eigen::VectorXd v;
    f.solve(v);
    EXPECT_LT((f.lambda() - lambda).norm(), kFactorTol * std::max(1.0, lambda.norm())) << "round " << round;
    EXPECT_LT((Ck * v - t).norm(), kFactorTol * 10) << "round " << round;
  }
}

TEST(DelassusFactor, RejectsDependentRowsAndExpressesThemInTheRowsHeld) {
  std::mt19937 rng(2);
  const int nv = 9;
  RandomMetric metric(rng, nv);
  const SparseRows C = random_rows(rng, 20, nv, 5);   // rank 5
  const Eigen::VectorXd v_f = Eigen::VectorXd::Zero(nv);
  DelassusFactor f;
  f.reset(metric.W, v_f);
  std::vector<int> held;
  for (int r = 0; r < 20; ++r) {
    if (f.try_append({&C, r}, 0, 1e-12)) {
      held.push_back(r);
      continue;
    }
    // c ≈ Σ ρ_p c_p (the rows held).
    const auto rho = f.dependence();
    Eigen::RowVectorXd combination = Eigen::RowVectorXd::Zero(nv);
    for (int p = 0; p < f.size(); ++p) combination += rho[p] * Eigen::MatrixXd(C).row(held[p]);
    EXPECT_LT((combination - Eigen::MatrixXd(C).row(r)).norm(), 1e-9) << "row " << r;
  }
  EXPECT_EQ(f.size(), 5);
}

TEST(FindIndices, KeepsARankThreeSubsetOfABoxOnAPlaneAndStopsAtFullRank) {
  test::ProblemBuilder b;
  const Eigen::Vector3d size(0.2, 0.3, 0.1);
  b.add(test::free_box(1.0, size, Eigen::Vector3d(0, 0, 0.05)));
  for (int copy = 0; copy < 5; ++copy)
    for (const Eigen::Vector3d& p :
         test::face_corners(Eigen::Vector3d(0, 0, 0.05), Eigen::Matrix3d::Identity(), size / 2, 2, -1)) {
      test::ContactSpec s;
      s.p = p;
      s.tangent_angle = 0.3 * copy;
      b.contacts.push_back(s);
    }
  const ContactProblem P = b.build(Eigen::VectorXd::Zero(6));
  BlockInertia W;
  W.reset(P);
  DelassusFactor f;
  f.reset(W, P.v_star);
  FindIndicesResult r;
  find_indices(P.S, P.T, {}, 1e-12, f, r);
  EXPECT_EQ(r.rank, 3);   // x, y, yaw (notes §6.1)
  EXPECT_EQ(r.tried, 2 * P.nc);
  // The first contact's S and T and one row of the second contact: notes' run kept S0, T0, T3-like.
  EXPECT_GE(r.s_position[0], 0);
  EXPECT_GE(r.t_position[0], 0);
}

/// A random no-slip-like projection: random metric, rank-deficient G, redundant U with gaps.
struct RandomProjection {
  RandomMetric metric;
  SparseRows G, N;
  UnilateralRows U;
  Eigen::VectorXd v_f;
  RandomProjection(std::mt19937& rng, int nv, int g_rows, int g_rank, int n_rows, int n_rank, bool gaps)
      : metric(rng, nv) {
    std::normal_distribution<double> normal(0, 1);
    G = random_rows(rng, g_rows, nv, g_rank);
    N = random_rows(rng, n_rows, nv, n_rank);
    U.N = &N;
    U.b.setZero(n_rows);
    if (gaps) {
      // Gaps consistent along dependent rows would keep Theorem 1's w = 0; random ones exercise
      // the dependent-row exchange (principal_pivoting.hpp, b) — but must stay feasible: offsets
      // b = N x₀ + s with s ≥ 0 make v = −x₀ feasible for N v ≥ −b whatever G.
      Eigen::VectorXd x0(nv);
      for (int k = 0; k < nv; ++k) x0[k] = 0.1 * normal(rng);
      std::uniform_real_distribution<double> slack(0, 0.2);
      // x₀ must also satisfy G x₀ = 0 for feasibility: project it on G's null space.
      const Eigen::MatrixXd Gd(G);
      if (g_rows > 0) x0 -= Gd.transpose() * (Gd * Gd.transpose()).completeOrthogonalDecomposition().solve(Gd * x0);
      U.b = Eigen::MatrixXd(N) * x0;
      for (int u = 0; u < n_rows; ++u) U.b[u] += slack(rng) * (u % 2);
    }
    v_f.resize(nv);
    for (int k = 0; k < nv; ++k) v_f[k] = normal(rng);
  }
};

/// Independent check of (UP1)'s KKT conditions for (z, v), dense, relative to the problem's scales:
/// G v = 0; w = N v + b ≥ 0; z ≥ 0; z ⊥ w; W (v − v_f) − Nᵀ z ∈ range(Gᵀ).
double kkt_violation(const RandomProjection& P, const Eigen::VectorXd& z, const Eigen::VectorXd& v) {
  const Eigen::MatrixXd G(P.G), N(P.N);
  const double v_scale = std::max({1.0, P.v_f.cwiseAbs().maxCoeff(), P.U.b.size() ? P.U.b.cwiseAbs().maxCoeff() : 0.0});
  const double z_scale = std::max(1.0, z.size() ? z.cwiseAbs().maxCoeff() : 0.0);
  double worst = 0;
  if (G.rows() > 0) worst = std::max(worst, (G * v).cwiseAbs().maxCoeff() / v_scale);
  const Eigen::VectorXd w = N * v + P.U.b;
  for (int u = 0; u < w.size(); ++u)
    worst = std::max({worst, -w[u] / v_scale, -z[u] / z_scale, std::abs(z[u] * w[u]) / (v_scale * z_scale)});
  Eigen::VectorXd r = P.metric.dense * (v - P.v_f) - N.transpose() * z;
  if (G.rows() > 0) r -= G.transpose() * G.transpose().completeOrthogonalDecomposition().solve(r);
  worst = std::max(worst, r.cwiseAbs().maxCoeff() / (z_scale * std::max(1.0, N.cwiseAbs().maxCoeff())));
  return worst;
}

struct Solved {
  Eigen::VectorXd z, v, lambda_G;
  SolverStatistics stats;
  ProjectionReport report;
};

Solved solve(RandomProjection& P, const ProjectionOptions& options, const Eigen::VectorXd* guess = nullptr) {
  DelassusFactor f;
  f.reset(P.metric.W, P.v_f);
  FindIndicesResult indices;
  const int nc = static_cast<int>(P.G.rows());
  // G as "S" rows with an empty "T": FIND-INDICES tries S_i then T_i per contact.
  SparseRows none(nc, P.G.cols());
  find_indices(P.G, none, {}, options.pivoting.dependence_tolerance, f, indices);
  UnilateralProjection projection;
  Solved s;
  projection.solve(P.metric.W, f, P.U, P.v_f, guess, options, s.z, s.v, s.lambda_G, s.stats);
  s.report = projection.report();
  return s;
}

TEST(PrincipalPivoting, AgreesWithLemkeOnRandomRedundantAndRankDeficientProblems) {
  std::mt19937 rng(2024);
  ProjectionOptions pivoting, lemke;
  lemke.solver = ProjectionSolver::Lemke;
  // Lemke as the reference must be accurate: its default Tikhonov retries (ε up to 1e-7 of the
  // diagonal) solve a perturbed LCP whose v⁺ can be 1e-4 off on these random metrics. With a 1e-10
  // certificate and ε ≤ 1e-11 it is either accurate or says it failed.
  lemke.lemke.tolerance = 1e-10;
  lemke.lemke.regularization_min = 1e-14;
  lemke.lemke.regularization_max = 1e-11;
  int solved_by_pivoting = 0, trials = 0, compared = 0, max_positive_excess = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::uniform_int_distribution<int> nv_of(3, 14);
    const int nv = nv_of(rng);
    std::uniform_int_distribution<int> rank_of(1, nv);
    const int g_rank = std::uniform_int_distribution<int>(0, nv - 1)(rng);
    const int g_rows = g_rank == 0 ? 0 : g_rank + std::uniform_int_distribution<int>(0, 6)(rng);
    const int n_rank = rank_of(rng);
    const int n_rows = n_rank + std::uniform_int_distribution<int>(0, 40)(rng);
    RandomProjection P(rng, nv, g_rows, g_rank, n_rows, n_rank, trial % 2 == 1);
    const Solved a = solve(P, pivoting);
    const Solved b = solve(P, lemke);
    ++trials;
    ASSERT_NE(a.stats.status, SolveStatus::Failed) << "trial " << trial << ": " << a.stats.message;
    if (a.stats.status == SolveStatus::Solved) ++solved_by_pivoting;
    // Pivoting's result checked independently of both solvers: the KKT conditions of (UP1).
    EXPECT_LT(kkt_violation(P, a.z, a.v), kKktTol) << "trial " << trial;
    if (b.stats.status != SolveStatus::Solved) continue;
    ++compared;
    const double scale = std::max(1.0, P.v_f.norm());
    EXPECT_LT((a.v - b.v).norm(), kLemkeAgreement * scale)
        << "trial " << trial << " pivoting: " << a.stats.message << " ρ " << a.stats.residual << " kkt "
        << kkt_violation(P, a.z, a.v) << "; lemke ρ " << b.stats.residual << " kkt " << kkt_violation(P, b.z, b.v)
        << " reg " << b.stats.regularization << " nv " << nv << " rows " << g_rows << "/" << n_rows;
    // Lemma 1: the positive z are rows held independently with G: at most nv − rank(G).
    const int positive = static_cast<int>((a.z.array() > 0).count());
    max_positive_excess = std::max(max_positive_excess, positive - (nv - std::min(g_rank, nv)));
    EXPECT_LE(positive, n_rank) << "trial " << trial;
  }
  EXPECT_LE(max_positive_excess, 0);
  EXPECT_GE(compared, trials * 9 / 10) << "the reference must have solved most instances";
  RecordProperty("compared_with_lemke", compared);
  // Every instance solved by pivoting alone (no fallback): the modifications (b), (c) of
  // principal_pivoting.hpp are what make this hold where the paper's listing cycles (notes §6.4).
  EXPECT_EQ(solved_by_pivoting, trials);
  RecordProperty("solved_by_pivoting", solved_by_pivoting);
}

TEST(PrincipalPivoting, WarmStartFromTheSolutionsActiveSetNeedsNoPivot) {
  std::mt19937 rng(7);
  int warm_started = 0;
  for (int trial = 0; trial < 50; ++trial) {
    RandomProjection P(rng, 10, 4, 3, 25, 8, true);
    const ProjectionOptions options;
    const Solved cold = solve(P, options);
    // A cold start may cycle (notes §6.4) and fall back; those instances have no pivoting active set.
    if (cold.stats.status != SolveStatus::Solved) continue;
    ++warm_started;
    const Solved warm = solve(P, options, &cold.z);
    EXPECT_EQ(warm.stats.iterations, 0) << "trial " << trial;
    EXPECT_EQ(warm.report.pivoting.iterations, 1);
    // The same active set solved twice, with the rows in another order: v⁺ agrees to the
    // conditioning of these random problems, checked by the same KKT bound.
    EXPECT_LT((warm.v - cold.v).norm(), kKktTol * std::max(1.0, P.v_f.norm())) << "trial " << trial;
    EXPECT_LT(kkt_violation(P, warm.z, warm.v), kKktTol);
  }
  EXPECT_GE(warm_started, 45);
}

TEST(PrincipalPivoting, APivotCapHandsTheProblemToLemkeAndSaysSo) {
  std::mt19937 rng(9);
  RandomProjection P(rng, 12, 3, 3, 30, 9, true);
  ProjectionOptions capped;
  capped.pivoting.max_pivots = 1;
  const Solved capped_result = solve(P, capped);
  const Solved reference = solve(P, ProjectionOptions{});
  ASSERT_GT(reference.stats.iterations, 1) << "pick a problem that needs pivots";
  EXPECT_EQ(capped_result.stats.status, SolveStatus::Fallback);
  EXPECT_EQ(capped_result.report.pivoting.status, PivotingStatus::PivotLimit);
  EXPECT_TRUE(capped_result.report.lemke_run);
  EXPECT_NE(capped_result.stats.message.find("pivot limit"), std::string::npos);
  EXPECT_LT((capped_result.v - reference.v).norm(), kLemkeAgreement * std::max(1.0, P.v_f.norm()));
}

TEST(PrincipalPivoting, DependentRowsWithInconsistentGapsAreExchanged) {
  // Two copies of one row with different offsets b₁ > b₂ (the second contact deeper): only the
  // deeper one can be active, and the exchange (b) must swap them rather than stall.
  test::ProblemBuilder b;
  b.add(test::free_box(1.0, Eigen::Vector3d(0.1, 0.1, 0.1), Eigen::Vector3d::Zero()));
  for (double phi : {0.0, -0.002}) {
    test::ContactSpec s;
    s.p = Eigen::Vector3d(0, 0, -0.05);
    s.phi = phi;
    b.contacts.push_back(s);
  }
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[2] = -1;
  const ContactProblem P = b.build(v);
  BlockInertia W;
  W.reset(P);
  DelassusFactor f;
  f.reset(W, P.v_star);
  UnilateralRows U;
  U.set(P);
  Eigen::VectorXd guess(2);
  guess << 1, 0;   // warm start on the shallow contact: the wrong one
  PrincipalPivoting ppm;
  Eigen::VectorXd z, w, v_plus;
  const PivotingReport r = ppm.solve(f, U, P.v_star, &guess, PivotingOptions{}, z, w, v_plus);
  EXPECT_EQ(r.status, PivotingStatus::Solved);
  EXPECT_NEAR(v_plus[2], 0.002 / P.dt, 1e-12);   // N v⁺ = −φ₂/dt: pushed out of the deeper overlap
  EXPECT_EQ(z[0], 0);
  EXPECT_NEAR(z[1], 1.0 * (1 + 0.002 / P.dt), 1e-12);
}

TEST(PrincipalPivoting, AnInfeasibleProblemFailsWithAFiniteVelocityAndAMessage) {
  // A body squeezed between two static walls closer than it allows: x ≥ 1 and −x ≥ 1 via gaps.
  test::ProblemBuilder b;
  test::BodySpec slider;
  slider.kind = test::BodySpec::Kind::Slider;
  b.add(slider);
  for (double sign : {1.0, -1.0}) {
    test::ContactSpec s;
    s.p = Eigen::Vector3d::Zero();
    s.n = Eigen::Vector3d(sign, 0, 0);
    s.phi = -0.01;
    b.contacts.push_back(s);
  }
  const ContactProblem P = b.build(Eigen::VectorXd::Zero(1));
  BlockInertia W;
  W.reset(P);
  DelassusFactor f;
  f.reset(W, P.v_star);
  UnilateralRows U;
  U.set(P);
  UnilateralProjection projection;
  Eigen::VectorXd z, v, lambda_G;
  SolverStatistics stats;
  projection.solve(W, f, U, P.v_star, nullptr, ProjectionOptions{}, z, v, lambda_G, stats);
  EXPECT_EQ(stats.status, SolveStatus::Failed);
  EXPECT_EQ(projection.report().pivoting.status, PivotingStatus::Infeasible);
  EXPECT_TRUE(v.allFinite());
  EXPECT_FALSE(stats.message.empty());
}

}  // namespace
}  // namespace impetus
