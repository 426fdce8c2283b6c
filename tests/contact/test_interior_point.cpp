// The interior-point method of contact/solvers/interior_point.hpp and its parts: the cone algebra
// (second_order_cone.hpp), the quasi-definite LDLᵀ, and the solver on programs with known answers,
// checked by closed forms and by the optimality conditions (IP1) in physical units.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "contact/solvers/interior_point.hpp"
#include "contact/solvers/nested_dissection.hpp"
#include "contact/solvers/quasidefinite_ldlt.hpp"
#include "contact/solvers/second_order_cone.hpp"

namespace impetus {
namespace {

// Round-off of O(1) arithmetic in a handful of operations.
constexpr double kRoundoff = 1e-12;
// Non-degenerate programs: the solver stops at relative residuals of 1e-8 (interior_point.hpp
// default) and converges superlinearly near the end; closed forms are met to 1e-7 relative.
constexpr double kSolution = 1e-7;
// Two solves of one program (cold, warm) stop at different points of the central path. The objective
// is ½vᵀMv, so ½‖v − v_opt‖²_M ≤ gap: at a relative gap ≤ 1e-8 two answers differ by at most
// 2·√(2·1e-8) ≈ 3e-4 of the velocity scale in the worst (degenerate) case.
constexpr double kTwoSolves = 3e-4;

Eigen::Vector3d interior_point(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::Vector3d x(0, u(rng), u(rng));
  x[0] = x.tail<2>().norm() + 0.1 + std::abs(u(rng));
  return x;
}

TEST(SecondOrderCone, NesterovToddScalingMapsZToTheSamePointAsS) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d s = interior_point(rng), z = interior_point(rng);
    soc::NtScaling W;
    W.compute(s, z);
    // (SOC3): W z = W⁻¹ s = λ, and W² and W⁻² are the squares of W and W⁻¹.
    EXPECT_LT((W.apply(z) - W.apply_inverse(s)).norm(), kRoundoff * (s.norm() + z.norm()));
    Eigen::Matrix3d Wm, Wi;
    for (int j = 0; j < 3; ++j) {
      Wm.col(j) = W.apply(Eigen::Vector3d::Unit(j));
      Wi.col(j) = W.apply_inverse(Eigen::Vector3d::Unit(j));
    }
    EXPECT_LT((Wm * Wi - Eigen::Matrix3d::Identity()).norm(), kRoundoff * 100);
    EXPECT_LT((Wm * Wm - W.squared()).norm(), kRoundoff * 100 * W.squared().norm());
    EXPECT_LT((Wi * Wi - W.inverse_squared()).norm(), kRoundoff * 100 * W.inverse_squared().norm());
    EXPECT_LT((Wm - Wm.transpose()).norm(), kRoundoff);
  }
}

TEST(SecondOrderCone, JordanDivisionInvertsTheProduct) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d u = interior_point(rng), w = interior_point(rng);
    const Eigen::Vector3d x = soc::jordan_divide(u, w);
    EXPECT_LT((soc::jordan_product(u, x) - w).norm(), 1e-10 * w.norm());
  }
}

TEST(SecondOrderCone, MaxStepEndsOnTheBoundary) {
  std::mt19937 rng(9);
  std::normal_distribution<double> n(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d u = interior_point(rng);
    const Eigen::Vector3d d(n(rng), n(rng), n(rng));
    const double alpha = soc::max_step(u, d);
    if (std::isinf(alpha)) {
      // Then the whole ray stays in the cone: check far along it.
      const Eigen::Vector3d far = u + 1e6 * d;
      EXPECT_GE(far[0] - far.tail<2>().norm(), -1e-6 * far.norm());
      continue;
    }
    const Eigen::Vector3d x = u + alpha * d;
    EXPECT_NEAR(x[0], x.tail<2>().norm(), 1e-9 * (u.norm() + alpha * d.norm()));
    const Eigen::Vector3d before = u + 0.999 * alpha * d;
    EXPECT_GT(before[0] - before.tail<2>().norm(), 0);
  }
}

TEST(QuasidefiniteLdlt, SolvesARandomQuasidefiniteSystem) {
  // K = [H Aᵀ; A −G] with H, G positive definite: every symmetric permutation factors [VD].
  std::mt19937 rng(10);
  std::normal_distribution<double> n(0, 1);
  const int nh = 12, ng = 7, size = nh + ng;
  Eigen::MatrixXd X = Eigen::MatrixXd::NullaryExpr(nh, nh, [&] { return n(rng); });
  Eigen::MatrixXd Y = Eigen::MatrixXd::NullaryExpr(ng, ng, [&] { return n(rng); });
  Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(ng, nh, [&] { return std::abs(n(rng)) > 1 ? n(rng) : 0.0; });
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(size, size);
  K.topLeftCorner(nh, nh) = X * X.transpose() + Eigen::MatrixXd::Identity(nh, nh);
  K.bottomRightCorner(ng, ng) = -(Y * Y.transpose() + Eigen::MatrixXd::Identity(ng, ng));
  K.bottomLeftCorner(ng, nh) = A;
  K.topRightCorner(nh, ng) = A.transpose();
  Eigen::SparseMatrix<double> lower = Eigen::MatrixXd(K.triangularView<Eigen::Lower>()).sparseView();
  std::vector<signed char> sign(size, 1);
  for (int i = nh; i < size; ++i) sign[i] = -1;
  QuasidefiniteLdlt ldlt;
  ldlt.analyse(lower);
  ASSERT_TRUE(ldlt.factor(lower, sign, 1e-13, 1e-7));
  EXPECT_EQ(ldlt.regularized_pivots(), 0);
  const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(size, [&] { return n(rng); });
  Eigen::VectorXd x = b;
  ldlt.solve_in_place(x);
  EXPECT_LT((K * x - b).norm(), 1e-10 * b.norm() * K.norm());
}

/// The Newton matrix of a g×g×g lattice of bodies (one unknown each) joined to their six neighbours by
/// contacts (one row each): K = [H Aᵀ; A −I], H = 7I − (lattice adjacency), A the edges' ±1 rows: a pile's
/// (IP5) in three dimensions. With `dense_row`, one more row coupled to every body, flagged `last` (a
/// budget's row, as phase II has).
struct LatticeSystem {
  Eigen::SparseMatrix<double> lower;   // K's lower triangle
  Eigen::SparseMatrix<double> K;       // K, both triangles
  std::vector<signed char> sign;
  std::vector<char> last;

  LatticeSystem(int g, bool dense_row) {
    const int bodies = g * g * g;
    auto id = [&](int x, int y, int z) { return (x * g + y) * g + z; };
    std::vector<Eigen::Triplet<double>> t;
    int row = bodies;
    for (int x = 0; x < g; ++x)
      for (int y = 0; y < g; ++y)
        for (int z = 0; z < g; ++z) {
          const int i = id(x, y, z);
          t.emplace_back(i, i, 7.0);
          const int next[3][3] = {{x + 1, y, z}, {x, y + 1, z}, {x, y, z + 1}};
          for (const auto& n : next) {
            if (n[0] >= g || n[1] >= g || n[2] >= g) continue;
            const int j = id(n[0], n[1], n[2]);
            t.emplace_back(j, i, -1.0);
            t.emplace_back(row, i, 1.0);
            t.emplace_back(row, j, -1.0);
            t.emplace_back(row, row, -1.0);
            ++row;
          }
        }
    if (dense_row) {
      for (int i = 0; i < bodies; ++i) t.emplace_back(row, i, 0.5);
      t.emplace_back(row, row, -1.0);
      ++row;
    }
    lower.resize(row, row);
    lower.setFromTriplets(t.begin(), t.end());
    K = lower.selfadjointView<Eigen::Lower>();
    sign.assign(row, -1);
    std::fill(sign.begin(), sign.begin() + bodies, 1);
    last.assign(row, 0);
    if (dense_row) last[row - 1] = 1;
  }
};

TEST(NestedDissection, OrdersEveryRowOnceWithTheLastRowsAtTheEnd) {
  const LatticeSystem s(6, true);
  const int n = static_cast<int>(s.lower.rows());
  const std::vector<int> order = nested_dissection_order(s.lower, s.last);
  ASSERT_EQ(static_cast<int>(order.size()), n);
  std::vector<int> seen(n, 0);
  for (int i : order) ++seen[i];
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  EXPECT_EQ(order.back(), n - 1);
}

TEST(QuasidefiniteLdlt, FactorsAThreeDimensionalPileInTheNestedDissectionOrder) {
  // On a lattice in three dimensions minimum degree's factor is large and nested dissection's smaller
  // [GE] (20³ bodies: 1.6e8 multiply–adds against 1.3e8); with and without a dense row eliminated last,
  // the factor solves K to rounding.
  for (const bool dense_row : {false, true}) {
    SCOPED_TRACE(dense_row ? "with a dense last row" : "without");
    const LatticeSystem s(20, dense_row);
    QuasidefiniteLdlt ldlt;
    ldlt.analyse(s.lower, s.last);
    EXPECT_EQ(ldlt.order(), QuasidefiniteLdlt::Order::nested_dissection);
    ASSERT_TRUE(ldlt.factor(s.lower, s.sign, 1e-13, 1e-7));
    EXPECT_EQ(ldlt.regularized_pivots(), 0);
    std::mt19937 rng(16);
    std::normal_distribution<double> n(0, 1);
    const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(s.K.rows(), [&] { return n(rng); });
    Eigen::VectorXd x = b;
    ldlt.solve_in_place(x);
    // Its condition number is small (H diagonally dominant, the dual block −I): rounding only.
    EXPECT_LT((s.K * x - b).lpNorm<Eigen::Infinity>(), 1e-12 * b.lpNorm<Eigen::Infinity>());
  }
}

TEST(QuasidefiniteLdlt, KeepsMinimumDegreeOnASmallSystem) {
  // 8³ bodies: minimum degree's factor is a few million multiply–adds, where METIS's separators would not be
  // repaid.
  const LatticeSystem s(8, true);
  QuasidefiniteLdlt ldlt;
  ldlt.analyse(s.lower, s.last);
  EXPECT_EQ(ldlt.order(), QuasidefiniteLdlt::Order::minimum_degree);
}

/// A point mass m on the ground (one contact, N = e_z, S = e_x, T = e_y): phase II of
/// max_dissipation.hpp by hand, (MD4)–(MD5) with the budget κ.
struct PointMassProgram {
  Eigen::MatrixXd M;
  Eigen::LLT<Eigen::MatrixXd> llt;
  ConeProgram P;

  PointMassProgram(double m, double mu, const Eigen::Vector3d& v_star, double kappa, double phi_over_dt = 0)
      : M(m * Eigen::MatrixXd::Identity(3, 3)), llt(M) {
    P.nv = 3;
    P.systems.push_back(SystemBlock{0, 3, &M, &llt});
    P.v_star = v_star;
    P.np = 3;
    Eigen::MatrixXd J(3, 3);
    J << 0, 0, 1, 1, 0, 0, 0, 1, 0;   // rows N, S, T
    P.J = J.sparseView();
    P.groups = {ImpulseGroup{0, 3, 0, 0, 0}};
    GroupCone cone;
    cone.F = Eigen::Vector3d(mu, 1, 1).asDiagonal();
    P.cones = {cone};
    P.budgets = {ImpulseBudget{{0}, kappa}};
    Eigen::MatrixXd R(1, 3);
    R << 0, 0, 1;
    P.R = R.sparseView();
    P.r = Eigen::VectorXd::Constant(1, phi_over_dt);
  }
};

TEST(InteriorPoint, PointMassSlidesWithTheCoulombImpulse) {
  // From the budget κ = m g dt and N v⁺ ≥ 0: p_N = κ; the slip exceeds what μκ can stop, so the
  // friction impulse is μκ against it (maximum dissipation on a single contact).
  const double m = 2, mu = 0.4, dt = 0.01, g = 9.81;
  const Eigen::Vector3d v_star(1.0, -0.5, -g * dt);
  PointMassProgram pm(m, mu, v_star, m * g * dt);
  InteriorPointSolver solver;
  InteriorPointResult r;
  solver.solve(pm.P, nullptr, r);
  ASSERT_TRUE(r.solved()) << r.message;
  const double kappa = m * g * dt;
  const Eigen::Vector2d slip = v_star.head<2>();
  const Eigen::Vector2d expected_t = -mu * kappa * slip.normalized();
  EXPECT_NEAR(r.p[0], kappa, kSolution * kappa);
  EXPECT_NEAR(r.p[1], expected_t[0], kSolution * kappa);
  EXPECT_NEAR(r.p[2], expected_t[1], kSolution * kappa);
  EXPECT_NEAR(r.v[2], 0.0, kSolution);
  EXPECT_LT((r.v.head<2>() - (slip + expected_t / m)).norm(), kSolution);
  EXPECT_LT(r.iterations, 30);
}

TEST(InteriorPoint, PointMassSticksWhenTheConeHoldsTheSlip) {
  const double m = 2, mu = 0.4, dt = 0.01, g = 9.81;
  const Eigen::Vector3d v_star(0.01, 0.005, -g * dt);   // m|v_t| < μ m g dt
  PointMassProgram pm(m, mu, v_star, m * g * dt);
  InteriorPointSolver solver;
  InteriorPointResult r;
  solver.solve(pm.P, nullptr, r);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_LT(r.v.norm(), kSolution);
  EXPECT_NEAR(r.p[1], -m * v_star[0], kSolution * m);
  EXPECT_NEAR(r.p[2], -m * v_star[1], kSolution * m);
}

/// Checks the optimality conditions (IP1) of a solved program in physical units.
void expect_optimal(const ConeProgram& P, const InteriorPointResult& r, double tolerance) {
  // Stationarity in v: M v + M y − Rᵀ z_R = 0.
  Eigen::VectorXd rv = Eigen::VectorXd::Zero(P.nv);
  for (const SystemBlock& s : P.systems)
    rv.segment(s.offset, s.size) = (*s.M) * (r.v + r.y).segment(s.offset, s.size);
  if (P.nr() > 0) rv -= P.R.transpose() * r.z_R;
  const double impulse_scale = std::max(1.0, r.p.lpNorm<Eigen::Infinity>());
  EXPECT_LT(rv.lpNorm<Eigen::Infinity>(), tolerance * impulse_scale);
  // Stationarity in p: −𝐉y − Σ F_gᵀz_g + e z_κ + c = 0 (velocity units).
  Eigen::VectorXd rp = -(P.J * r.y);
  const int nr = P.nr(), nlin = static_cast<int>(P.linear.size()), nbud = static_cast<int>(P.budgets.size());
  const int ncone0 = nr + nlin + nbud;
  for (const ImpulseGroup& g : P.groups) {
    for (int k = 0; k < g.num_linear; ++k)
      rp.segment(g.offset, g.size) -= P.linear[g.first_linear + k].a.head(g.size) * r.z[nr + g.first_linear + k];
    if (g.cone >= 0)
      rp.segment(g.offset, g.size) -= P.cones[g.cone].F.leftCols(g.size).transpose() * r.z.segment<3>(ncone0 + 3 * g.cone);
  }
  for (int j = 0; j < nbud; ++j)
    for (int i : P.budgets[j].index) rp[i] += r.z[nr + nlin + j];
  if (P.c.size() > 0) rp += P.c;
  const double velocity_scale = std::max(1.0, r.v.lpNorm<Eigen::Infinity>());
  EXPECT_LT(rp.lpNorm<Eigen::Infinity>(), tolerance * velocity_scale);
  // s, z in the cones and complementary: sᵀz small against the objective's scale.
  for (int i = 0; i < ncone0; ++i) {
    EXPECT_GE(r.s[i], 0);
    EXPECT_GE(r.z[i], 0);
  }
  for (int c = 0; c < static_cast<int>(P.cones.size()); ++c) {
    const Eigen::Vector3d s = r.s.segment<3>(ncone0 + 3 * c), z = r.z.segment<3>(ncone0 + 3 * c);
    EXPECT_GE(s[0] - s.tail<2>().norm(), -tolerance * s.norm());
    EXPECT_GE(z[0] - z.tail<2>().norm(), -tolerance * z.norm());
  }
  double energy = 0;
  for (const SystemBlock& s : P.systems)
    energy += 0.5 * r.v.segment(s.offset, s.size).dot((*s.M) * r.v.segment(s.offset, s.size));
  EXPECT_LT(std::abs(r.s.dot(r.z)), tolerance * std::max(1.0, energy) * 10);
}

/// Random bodies (6 DoF, random SPD inertia) with random contacts between them and the ground,
/// each a friction cone with a budget over all normals: phase II of max_dissipation.hpp.
struct RandomProgram {
  std::vector<Eigen::MatrixXd> M;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> llt;
  ConeProgram P;

  RandomProgram(int bodies, int contacts, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> n(0, 1);
    std::uniform_int_distribution<int> pick(-1, bodies - 1);
    M.reserve(bodies);
    llt.reserve(bodies);
    for (int b = 0; b < bodies; ++b) {
      Eigen::MatrixXd X = Eigen::MatrixXd::NullaryExpr(6, 6, [&] { return n(rng); });
      M.push_back(X * X.transpose() + 0.5 * Eigen::MatrixXd::Identity(6, 6));
      llt.emplace_back(M.back());
    }
    P.nv = 6 * bodies;
    for (int b = 0; b < bodies; ++b) P.systems.push_back(SystemBlock{6 * b, 6, &M[b], &llt[b]});
    P.v_star = Eigen::VectorXd::NullaryExpr(P.nv, [&] { return n(rng); });
    std::vector<Eigen::Triplet<double>> J, R;
    for (int i = 0; i < contacts; ++i) {
      int a = pick(rng);
      if (a < 0) a = 0;
      int b = pick(rng);
      if (b == a) b = -1;
      for (int row = 0; row < 3; ++row)
        for (int side = 0; side < 2; ++side) {
          const int body = side == 0 ? a : b;
          if (body < 0) continue;
          for (int k = 0; k < 6; ++k) {
            const double value = (side == 0 ? 1 : -1) * n(rng);
            J.emplace_back(3 * i + row, 6 * body + k, value);
            if (row == 0) R.emplace_back(i, 6 * body + k, value);
          }
        }
      ImpulseGroup g{3 * i, 3, 0, 0, i};
      P.groups.push_back(g);
      GroupCone cone;
      cone.F = Eigen::Vector3d(0.2 + 0.8 * std::abs(n(rng)), 1, 1).asDiagonal();
      P.cones.push_back(cone);
    }
    P.np = 3 * contacts;
    P.J.resize(P.np, P.nv);
    P.J.setFromTriplets(J.begin(), J.end());
    P.R.resize(contacts, P.nv);
    P.R.setFromTriplets(R.begin(), R.end());
    // r = −R v* + |noise|: every contact separates at v*, so p = 0 is strictly feasible (Slater).
    P.r = -(P.R * P.v_star) + Eigen::VectorXd::NullaryExpr(contacts, [&] { return std::abs(n(rng)); });
    ImpulseBudget budget;
    for (int i = 0; i < contacts; ++i) budget.index.push_back(3 * i);
    budget.bound = 1.0;
    P.budgets.push_back(budget);
  }
};

TEST(InteriorPoint, RandomProgramsMeetTheOptimalityConditions) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    RandomProgram rp(3, 5, seed);
    InteriorPointSolver solver;
    InteriorPointResult r;
    solver.solve(rp.P, nullptr, r);
    ASSERT_TRUE(r.solved()) << "seed " << seed << ": " << r.message;
    // Conditions (IP1) at the tolerance the solver claims, with a margin for the unscaling.
    expect_optimal(rp.P, r, 1e-6);
  }
}

TEST(InteriorPoint, TraceRecordsEachIterationWithoutChangingAnyIterate) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    RandomProgram rp(3, 5, seed);
    InteriorPointSolver plain, traced;
    traced.options().trace = true;
    InteriorPointResult a, b;
    plain.solve(rp.P, nullptr, a);
    traced.solve(rp.P, nullptr, b);
    ASSERT_TRUE(a.solved() && b.solved()) << "seed " << seed;
    EXPECT_TRUE(a.trace.iterations.empty());   // off by default: nothing recorded
    // The trace only watches: the same iterates, bit for bit.
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_TRUE(a.p == b.p && a.v == b.v) << "seed " << seed;
    // One entry per iteration, and one for the iterate the solver stopped at.
    ASSERT_EQ(static_cast<int>(b.trace.iterations.size()), b.iterations + 1) << "seed " << seed;
    EXPECT_GT(b.trace.kkt_size, 0);
    EXPECT_GE(b.trace.factor_nonzeros, b.trace.kkt_nonzeros);   // L has K's pattern and its fill
    for (std::size_t k = 0; k + 1 < b.trace.iterations.size(); ++k) {
      const InteriorPointIterate& it = b.trace.iterations[k];
      EXPECT_EQ(it.iteration, static_cast<int>(k));
      EXPECT_GE(it.mu, 0.0);
      EXPECT_TRUE(it.sigma >= 0 && it.sigma <= 1) << it.sigma;
      EXPECT_TRUE(it.alpha_affine >= 0 && it.alpha_affine <= 1) << it.alpha_affine;
      EXPECT_TRUE(it.alpha > 0 && it.alpha <= 1) << it.alpha;   // a step was taken
      EXPECT_GE(it.factor_seconds, 0.0);
    }
    // The last entry is the iterate that met (IP6), and it took no step.
    const InteriorPointIterate& last = b.trace.iterations.back();
    EXPECT_LE(std::max(last.primal_residual, last.dual_residual), traced.options().tolerance);
    EXPECT_LE(last.gap, traced.options().gap_tolerance);
    EXPECT_TRUE(std::isnan(last.alpha));
  }
}

/// Counts the factorizations and checks each observed K̃ against (IP5)–(IP6): order np + nv + m, σ = +1 on the
/// np impulse rows and −1 on the others, and a diagonal of σ's sign (+δ_s on p; −M̃ − δ_s, −W² − δ_s on y and z).
struct CountingObserver final : KktObserver {
  int np = 0, calls = 0, bad_sizes = 0, bad_signs = 0, bad_diagonal = 0;
  void factored(const InteriorPointKkt& kkt) override {
    ++calls;
    const Eigen::SparseMatrix<double>& K = kkt.matrix();
    const std::vector<signed char>& sigma = kkt.signs();
    if (K.rows() != kkt.size() || static_cast<int>(sigma.size()) != kkt.size()) ++bad_sizes;
    if (std::count(sigma.begin(), sigma.end(), 1) != np) ++bad_signs;
    for (int i = 0; i < K.rows() && i < static_cast<int>(sigma.size()); ++i)
      if (!(sigma[i] * K.coeff(i, i) > 0)) ++bad_diagonal;
  }
};

TEST(InteriorPoint, KktObserverSeesEveryFactoredMatrixWithoutChangingAnyIterate) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    RandomProgram rp(3, 5, seed);
    CountingObserver seen;
    seen.np = rp.P.np;
    InteriorPointSolver plain, observed;
    observed.options().kkt_observer = &seen;
    InteriorPointResult a, b;
    plain.solve(rp.P, nullptr, a);
    observed.solve(rp.P, nullptr, b);
    ASSERT_TRUE(a.solved() && b.solved()) << "seed " << seed;
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_TRUE(a.p == b.p && a.v == b.v) << "seed " << seed;   // it only watches: the same bits
    // The initial point's factorization (W = I), then one per iteration (predictor and corrector share it).
    EXPECT_EQ(seen.calls, b.iterations + 1) << "seed " << seed;
    EXPECT_EQ(seen.bad_sizes, 0);
    EXPECT_EQ(seen.bad_signs, 0);
    EXPECT_EQ(seen.bad_diagonal, 0) << "seed " << seed;
  }
}

TEST(InteriorPoint, WarmStartAtTheSolutionConvergesToIt) {
  RandomProgram rp(4, 8, 3);
  InteriorPointSolver solver;
  InteriorPointResult cold, warm;
  solver.solve(rp.P, nullptr, cold);
  ASSERT_TRUE(cold.solved());
  solver.solve(rp.P, &cold.p, warm);
  ASSERT_TRUE(warm.solved());
  EXPECT_LT((warm.v - cold.v).lpNorm<Eigen::Infinity>(), kTwoSolves * std::max(1.0, cold.v.lpNorm<Eigen::Infinity>()));
}

TEST(InteriorPoint, RefusesAProgramWithAFreeImpulse) {
  // A cone F that leaves p_S free (its column is zero) cannot be solved group by group.
  PointMassProgram pm(1, 0.5, Eigen::Vector3d(1, 0, -0.1), 0.1);
  pm.P.cones[0].F(1, 1) = 0;
  InteriorPointSolver solver;
  InteriorPointResult r;
  solver.solve(pm.P, nullptr, r);
  EXPECT_EQ(r.status, InteriorPointStatus::InvalidProgram);
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE(r.v.allFinite());
}

TEST(InteriorPoint, InfeasibleProgramEndsWithAStatusNotAnException) {
  // N v ≥ 0.1 and p_N ≤ 0.01 cannot both hold for a unit mass falling at 1 m/s.
  PointMassProgram pm(1, 0.5, Eigen::Vector3d(0, 0, -1), 0.01, -0.1);
  InteriorPointSolver solver;
  InteriorPointResult r;
  solver.solve(pm.P, nullptr, r);
  EXPECT_FALSE(r.solved());
  EXPECT_TRUE(r.v.allFinite());
  EXPECT_TRUE(r.p.allFinite());
}

TEST(InteriorPoint, EmptyProgramReturnsTheFreeVelocity) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(2, 2);
  Eigen::LLT<Eigen::MatrixXd> llt(M);
  ConeProgram P;
  P.nv = 2;
  P.systems.push_back(SystemBlock{0, 2, &M, &llt});
  P.v_star = Eigen::Vector2d(0.3, -0.7);
  P.J.resize(0, 2);
  P.R.resize(0, 2);
  InteriorPointSolver solver;
  InteriorPointResult r;
  solver.solve(P, nullptr, r);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_LT((r.v - P.v_star).norm(), kRoundoff);
}

}  // namespace
}  // namespace impetus
