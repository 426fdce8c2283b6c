// No allocation once warm (STYLE.md, "no allocation in hot loops"): Lemke, the Delassus operator and
// the Stewart–Trinkle model, called again with its workspace on a problem of the same size, must not touch
// the heap; and one workspace of stewart_trinkle, no_slip or viscous solves problems of several sizes in turn
// without touching it once it has seen the largest (the contract of ContactModel::make_workspace).
// (Counting: tests/allocation_counting.hpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <malloc.h>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../allocation_counting.hpp"
#include "contact/factory.hpp"
#include "contact/parked_by_count.hpp"
#include "contact/rows_by_count.hpp"
#include "contact/solvers/least_norm_psd.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/workspace_by_structure.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;

using test::allocations_in;

TEST(NoAllocation, CountingSeesEigenAllocations) {
  // The interposition works: a fresh dynamic matrix allocates.
  EXPECT_GE(allocations_in([] { Eigen::MatrixXd m(50, 50); m.setZero(); }), 1);
}

TEST(NoAllocation, LeastNormPsdBelowTheLargestSizeMet) {
  // Delassus-like blocks G Gᵀ of full and deficient rank, at sizes below the first.
  const auto psd_of_rank = [](int n, int r) {
    const Eigen::MatrixXd G = Eigen::MatrixXd::NullaryExpr(n, r, [](Eigen::Index i, Eigen::Index j) { return std::sin(0.7 * static_cast<double>(i * 31 + j + 1)); });
    return Eigen::MatrixXd(G * G.transpose());
  };
  const Eigen::MatrixXd large = psd_of_rank(30, 25), full = psd_of_rank(12, 12), low = psd_of_rank(20, 7);
  const Eigen::VectorXd b30 = Eigen::VectorXd::LinSpaced(30, -1, 2), b12 = Eigen::VectorXd::LinSpaced(12, 1, 3),
                        b20 = Eigen::VectorXd::LinSpaced(20, -2, 1);
  LeastNormPsd psd;
  psd.compute(large);
  psd.solve(b30);
  EXPECT_EQ(test::allocations_in([&] {
              psd.compute(full);
              psd.solve(b12);
              psd.compute(low);
              psd.solve(b20);
              psd.compute(large);
              psd.solve(b30);
            }),
            0);
}

TEST(NoAllocation, StewartTrinkleAndLemkeOnceWarm) {
  // Two boxes stacked on the ground, sliding and spinning: friction rows, ties, redundancy.
  const double dt = 1e-3;
  const Eigen::Vector3d h(0.5, 0.5, 0.5);
  test::ProblemBuilder b(dt);
  const int top = b.add_system(box_inertia(1.0, h)), bottom = b.add_system(box_inertia(2.0, h));
  for (const Eigen::Vector3d& r : test::bottom_corners(h)) {
    auto rows = [&](const Eigen::Vector3d& d) {
      return Eigen::RowVectorXd(test::row_at(12, top, box_row(r, d)) -
                                test::row_at(12, bottom, box_row(r + Eigen::Vector3d(0, 0, 1), d)));
    };
    b.contact(rows(Eigen::Vector3d::UnitZ()), rows(Eigen::Vector3d::UnitX()), rows(Eigen::Vector3d::UnitY()), 0, 0.5);
    b.contact(test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitZ())),
              test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitX())),
              test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitY())), 0, 0.5);
  }
  Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
  v << 0.3, 0.1, 0, 0, 0, 0.5, -0.2, 0, 0, 0, 0, 0;
  Eigen::VectorXd v_star = v;
  v_star[2] -= 9.81 * dt;
  v_star[8] -= 9.81 * dt;
  const ContactProblem& p = b.build(v, v_star);

  StewartTrinkleModel model;
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  ContactResult result;
  model.solve(p, result, *workspace);   // warm up: buffers grow to this size
  model.solve(p, result, *workspace);
  ASSERT_EQ(result.stats.status, SolveStatus::Solved);
  EXPECT_EQ(allocations_in([&] { model.solve(p, result, *workspace); }), 0);

  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(p, 4, 1e-6, lcp);
  LemkeSolver lemke;
  Eigen::VectorXd z;
  const Eigen::VectorXd q = lcp.q;
  lemke.solve(lcp.A, q, z);
  EXPECT_EQ(allocations_in([&] { lemke.solve(lcp.A, q, z); }), 0);
  Eigen::MatrixXd D;
  DelassusScratch scratch;
  p.delassus(p.N, p.S, D, scratch);
  EXPECT_EQ(allocations_in([&] { p.delassus(p.N, p.S, D, scratch); }), 0);
}

TEST(NoAllocation, LemkeAlternatingBetweenSizesOnceEachIsMet) {
  // A trot's island alternates between a few LCP sizes as its feet land and lift: Lemke's buffers are grow-only
  // (lemke.hpp, Sized), so once the largest has been solved a solve of any of them touches no heap.
  auto problem = [](int n) {
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) B(i, j) = std::cos(1.0 + i + 2.0 * j);
    Eigen::MatrixXd A = B * B.transpose();
    A.diagonal().array() += 1.0;
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = i % 2 == 0 ? -1.0 : 0.5;
    return std::make_pair(A, q);
  };
  const auto [A4, q4] = problem(4);
  const auto [A9, q9] = problem(9);
  LemkeSolver lemke;
  Eigen::VectorXd z4, z9;
  ASSERT_TRUE(lemke.solve(A4, q4, z4).solved());
  ASSERT_TRUE(lemke.solve(A9, q9, z9).solved());
  EXPECT_EQ(allocations_in([&] {
              for (int r = 0; r < 3; ++r) {
                lemke.solve(A4, q4, z4);
                lemke.solve(A9, q9, z9);
              }
            }),
            0);
}

TEST(NoAllocation, MaxDissipationReSolvingAnIslandOfTheSameStructure) {
  // A box on the ground on its four corners, sliding: phase I and phase II by the interior point (more
  // than one contact), step after step on the same rows (a resting stack's island). Its workspace keeps
  // each phase's program, KKT pattern, analysis and result (max_dissipation.hpp), so once warm a solve of
  // the same structure touches no heap.
  test::ProblemBuilder b(1e-3);
  const Eigen::Vector3d h(0.5, 0.3, 0.2);
  const int box = b.add_system(box_inertia(1.5, h));
  for (const Eigen::Vector3d& r : test::bottom_corners(h))
    b.contact(test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitZ())),
              test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitX())),
              test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitY())), 0, 0.5);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v << 0.3, 0.1, 0, 0, 0, 0.2;
  Eigen::VectorXd v_star = v;
  v_star[2] -= test::kGravity * 1e-3;
  const ContactProblem& p = b.build(v, v_star);
  const std::unique_ptr<ContactModel> model = make_contact_model("max_dissipation", {});
  const std::unique_ptr<ContactWorkspace> workspace = model->make_workspace();
  ContactResult result;
  model->solve(p, result, *workspace);   // warm up: buffers grow to this structure
  model->solve(p, result, *workspace);
  ASSERT_EQ(result.stats.status, SolveStatus::Solved) << result.stats.message;
  EXPECT_EQ(allocations_in([&] { model->solve(p, result, *workspace); }), 0);
}

/// A box of half extents h resting on the ground on `corners` of its bottom corners (nv = 6, nc = corners),
/// falling by one step of gravity, μ = 0.5.
ContactProblem resting_box(test::ProblemBuilder& b, int corners) {
  const double dt = 1e-3;
  const Eigen::Vector3d h(0.5, 0.3, 0.2);
  const int box = b.add_system(box_inertia(1.5, h));
  for (int i = 0; i < corners; ++i) {
    const Eigen::Vector3d r = test::bottom_corners(h)[i];
    b.contact(test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitZ())),
              test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitX())),
              test::row_at(6, box, box_row(r, Eigen::Vector3d::UnitY())), 0, 0.5);
  }
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6), v_star = v;
  v_star[2] -= test::kGravity * dt;
  return b.build(v, v_star);
}

/// `problems` solved in turn on one workspace of `model`, once to warm it, then twice counting allocations:
/// none, and each result the same bits as `fresh`'s, solved on a workspace of its own (what the workspace solved
/// before does not show in the result, ContactModel::solve).
void expect_one_workspace_allocates_nothing_once_warm(const ContactModel& model, const std::string& name,
                                                      const std::vector<ContactProblem>& problems,
                                                      const std::vector<ContactResult>& fresh) {
  std::vector<ContactResult> reused(problems.size());
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  for (std::size_t i = 0; i < problems.size(); ++i) model.solve(problems[i], reused[i], *workspace);   // warm
  const long allocations = allocations_in([&] {
    for (int round = 0; round < 2; ++round)
      for (std::size_t i = 0; i < problems.size(); ++i) model.solve(problems[i], reused[i], *workspace);
  });
  EXPECT_EQ(allocations, 0) << name;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    EXPECT_TRUE((reused[i].v_plus.array() == fresh[i].v_plus.array()).all()) << name << ", problem " << i;
    EXPECT_TRUE((reused[i].p_N.array() == fresh[i].p_N.array()).all()) << name << ", problem " << i;
  }
}

TEST(NoAllocation, OneWorkspaceServesProblemsOfEverySizeInTurn) {
  // A corner, an edge and the whole bottom of a box on the ground (nc = 1, 2, 4), each warm-started from its
  // own solution as in a settled scene, solved in turn with one workspace, as the stepper's islands are.
  // (stewart_trinkle, no_slip and viscous grow their buffers; max_dissipation keeps a set per island
  // structure, contact/workspace_by_structure.hpp.)
  std::vector<test::ProblemBuilder> builders(3, test::ProblemBuilder(1e-3));
  std::vector<ContactProblem> problems;
  for (int corners : {4, 1, 2}) problems.push_back(resting_box(builders[problems.size()], corners));
  for (const std::string name : {"stewart_trinkle", "no_slip", "viscous", "max_dissipation"}) {
    const std::unique_ptr<ContactModel> model = make_contact_model(name, {});
    std::vector<ContactResult> fresh(problems.size());
    for (std::size_t i = 0; i < problems.size(); ++i) {   // the last step's impulses as the guesses
      model->solve(problems[i], fresh[i]);
      problems[i].p_N_guess = fresh[i].p_N;
      problems[i].p_S_guess = fresh[i].p_S;
      problems[i].p_T_guess = fresh[i].p_T;
      model->solve(problems[i], fresh[i]);   // with a workspace of its own
      ASSERT_EQ(fresh[i].stats.status, SolveStatus::Solved) << name << ", problem " << i;
    }
    expect_one_workspace_allocates_nothing_once_warm(*model, name, problems, fresh);
  }
}

TEST(NoAllocation, OneWorkspaceServesOneContactIslandsOfEveryBodyCountInTurn) {
  // One-contact islands of one box (nv = 6) and of two boxes stacked (nv = 12) in turn, as a pile's spheres on
  // the ground and on each other: each model's one-contact path (contact/one_contact_delassus.hpp) keeps
  // grow-only buffers, so once it has met the larger nothing is allocated.
  const double dt = 1e-3;
  const Eigen::Vector3d h(0.5, 0.3, 0.2), r_top(0.1, -0.2, -0.2), r_bottom(0.1, -0.2, 0.2);
  test::ProblemBuilder one(dt), two(dt);
  std::vector<ContactProblem> problems{resting_box(one, 1)};
  two.add_system(box_inertia(1.5, h));
  two.add_system(box_inertia(0.5, h));
  auto rows = [&](const Eigen::Vector3d& d) {   // top box (coordinates 6–11) against the bottom one (0–5)
    return Eigen::RowVectorXd(test::row_at(12, 6, box_row(r_top, d)) - test::row_at(12, 0, box_row(r_bottom, d)));
  };
  two.contact(rows(Eigen::Vector3d::UnitZ()), rows(Eigen::Vector3d::UnitX()), rows(Eigen::Vector3d::UnitY()), 0, 0.5);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(12), v_star = v;
  v_star[8] -= test::kGravity * dt;
  problems.push_back(two.build(v, v_star));
  for (const std::string name : {"stewart_trinkle", "no_slip", "viscous", "max_dissipation"}) {
    const std::unique_ptr<ContactModel> model = make_contact_model(name, {});
    std::vector<ContactResult> fresh(problems.size());
    for (std::size_t i = 0; i < problems.size(); ++i) {
      model->solve(problems[i], fresh[i]);
      ASSERT_EQ(fresh[i].stats.status, SolveStatus::Solved) << name << ", problem " << i;
      ASSERT_EQ(fresh[i].stats.iterations, 0) << name << ", problem " << i << ": not the one-contact path";
    }
    expect_one_workspace_allocates_nothing_once_warm(*model, name, problems, fresh);
  }
}

// Bytes the allocator has handed out and not taken back (heap and mapped blocks).
std::size_t bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

TEST(ParkedByCount, LargeCountsMetOnceEachHoldABoundedStorage) {
  // A pile's island: a contact count above kReservedCounts that changes at nearly every step. Each count's
  // buffer parked for good held ~1 MB a step of the granular pile (2.5 GB by t = 0.5 s); at most kLargeShapes
  // objects are kept, so what is held stays below that many of the largest and the live one.
  using Parked = ParkedByCount<Eigen::VectorXd>;
  constexpr Eigen::Index kFirst = 8000, kCounts = 400;   // 64 kB and up a buffer: 400 of them, 28 MB
  Parked parked;
  Eigen::VectorXd x;
  const std::size_t before = bytes_in_use();
  for (Eigen::Index k = 0; k < kCounts; ++k) {
    parked.fit(x, kFirst + k, 1);
    x.setConstant(static_cast<double>(k));   // the buffer is written, as a problem's is
  }
  ASSERT_EQ(x.size(), kFirst + kCounts - 1);
  const std::size_t largest = sizeof(double) * static_cast<std::size_t>(kFirst + kCounts);
  EXPECT_LT(bytes_in_use() - before, (Parked::kLargeShapes + 2) * largest);
}

TEST(RowsByCount, LargeRowCountsMetOnceEachHoldABoundedStorage) {
  // stewart_trinkle's J of a pile's island: 3 rows per group, a count above kReservedCounts that changes at
  // nearly every step. An outer index kept per count met grew by ~(rows + 1) integers a step for good; now what
  // is held stays below the live storage of nonzeros and kLargeShapes + 2 outer indices of the largest count.
  constexpr Eigen::Index kFirst = 6000, kCounts = 300, nv = 60, row_nonzeros = 2;
  RowsByCount rows_by_count;
  const std::size_t before = bytes_in_use();
  for (Eigen::Index k = 0; k < kCounts; ++k) {
    const Eigen::Index rows = kFirst + k;
    SparseRows& J = rows_by_count.empty(rows, nv, row_nonzeros);
    for (Eigen::Index r = 0; r < rows; ++r) {
      J.startVec(r);
      J.insertBack(r, r % nv) = 1.0;
    }
    J.finalize();
    ASSERT_EQ(J.rows(), rows);
    ASSERT_EQ(J.nonZeros(), rows);
  }
  const Eigen::Index most = kFirst + kCounts;
  const std::size_t outer = sizeof(SparseRows::StorageIndex) * static_cast<std::size_t>(most + 1);
  const std::size_t nonzeros = (sizeof(double) + sizeof(SparseRows::StorageIndex)) *
                               static_cast<std::size_t>(most * row_nonzeros);
  EXPECT_LT(bytes_in_use() - before, nonzeros + (ParkedByCount<SparseRows>::kLargeShapes + 2) * outer);
}

TEST(ByStructure, LargeStructuresMetOnceEachHoldABoundedStorage) {
  // max_dissipation's sets of buffers on a pile whose contact graph changes at every step: each large
  // structure is met once. At most kMaxLargeStructures large sets are kept (16 held ~45 MB each on granular's
  // landing), and a small island's set met before them is still its own afterwards.
  struct Buffers {
    explicit Buffers(const int&) {}
    std::vector<double> v;
  };
  using Sets = ByStructure<Buffers, int>;
  constexpr int kLarge = Sets::kLargeRows + 1, kSmall = 12, kCounts = 40;
  constexpr std::size_t kFirst = 100000;   // doubles of a large set: 0.8 MB and up
  Sets sets(0);
  sets(1, kSmall).v.assign(kSmall, 7.0);
  const std::size_t before = bytes_in_use();
  for (int k = 0; k < kCounts; ++k) sets(1000 + k, kLarge).v.assign(kFirst + k, 1.0);
  const std::size_t largest = sizeof(double) * (kFirst + kCounts);
  EXPECT_LT(bytes_in_use() - before, (Sets::kMaxLargeStructures + 1) * largest);
  const std::vector<double>& small = sets(1, kSmall).v;
  ASSERT_EQ(small.size(), static_cast<std::size_t>(kSmall));
  EXPECT_EQ(small.front(), 7.0);
}

TEST(ParkedByCount, TheLastLargeShapesMetAllocateNothing) {
  // Islands of kLargeShapes large counts in turn (several islands, or one island's recent counts): once each is
  // met, each finds its own object; a sparse matrix's outer index too.
  ParkedByCount<Eigen::VectorXd> vectors;
  ParkedByCount<Eigen::SparseMatrix<double, Eigen::RowMajor>> matrices;
  Eigen::VectorXd x;
  Eigen::SparseMatrix<double, Eigen::RowMajor> N;
  const auto count = [](std::size_t k) { return static_cast<Eigen::Index>(300 + 37 * k); };
  const auto cycle = [&] {
    for (std::size_t k = 0; k < ParkedByCount<Eigen::VectorXd>::kLargeShapes; ++k) {
      vectors.fit(x, count(k), 1);
      matrices.fit(N, count(k), 60);
    }
  };
  cycle();
  EXPECT_EQ(test::allocations_in(cycle), 0);
  EXPECT_EQ(x.size(), count(ParkedByCount<Eigen::VectorXd>::kLargeShapes - 1));
  EXPECT_EQ(N.rows(), count(ParkedByCount<Eigen::VectorXd>::kLargeShapes - 1));
  EXPECT_EQ(N.cols(), 60);
}

TEST(ParkedByCount, CountsCrossingTheReservedBoundGoBackToTheirShelves) {
  // An island growing past kReservedCounts and shrinking below it again (a pile's first contacts, then its
  // landing; a stance near the bound): a small count's object handed back on the way up is the one found on the
  // way down, so the second round allocates nothing.
  ParkedByCount<Eigen::VectorXd> vectors;
  ParkedByCount<Eigen::SparseMatrix<double, Eigen::RowMajor>> matrices;
  Eigen::VectorXd x;
  Eigen::SparseMatrix<double, Eigen::RowMajor> N;
  const Eigen::Index counts[] = {10, 300, 40, 500, 120, 300, 10, 500, 0, 260, 256, 257};
  const auto round = [&] {
    for (Eigen::Index c : counts) {
      vectors.fit(x, c, 1);
      matrices.fit(N, c, 60);
      ASSERT_EQ(x.size(), c);
      ASSERT_EQ(N.rows(), c);
    }
  };
  round();
  EXPECT_EQ(test::allocations_in(round), 0);
}

}  // namespace
}  // namespace impetus
