// ContactProblem's block-diagonal operators against their dense definitions.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/problem.hpp"
#include "contact/problem_into.hpp"
#include "contact/small_llt_solve.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

// The blocks below have condition numbers below ~50, so blockwise and dense evaluations of M⁻¹x and
// A M⁻¹ Bᵀ agree to a few 1e-16 of their magnitude; 1e-12 relative leaves ample margin.
constexpr double kRoundoff = 1e-12;

Eigen::MatrixXd random_spd(int n, std::mt19937& rng) {
  std::normal_distribution<double> g(0, 1);
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = g(rng);
  return B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
}

struct Island {
  test::ProblemBuilder builder{0.01};
  Eigen::MatrixXd M_dense;   // blkdiag of the blocks
};

/// Three systems of sizes 6, 1 and 4 (nv = 11).
void make_island(Island& island, std::mt19937& rng) {
  const int sizes[] = {6, 1, 4};
  int nv = 0;
  for (int s : sizes) nv += s;
  island.M_dense = Eigen::MatrixXd::Zero(nv, nv);
  for (int s : sizes) {
    const Eigen::MatrixXd M = random_spd(s, rng);
    const int offset = island.builder.add_system(M);
    island.M_dense.block(offset, offset, s, s) = M;
  }
}

/// Rows touching one or two systems, and one empty row, like contact rows between bodies.
SparseRows random_rows(int rows, int nv, std::mt19937& rng) {
  std::normal_distribution<double> g(0, 1);
  std::uniform_int_distribution<int> pick(0, 2);
  const int offsets[] = {0, 6, 7}, sizes[] = {6, 1, 4};
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(rows, nv);
  for (int r = 0; r + 1 < rows; ++r) {
    const int a = pick(rng), b = pick(rng);
    for (int s : {a, b})
      for (int j = 0; j < sizes[s]; ++j) dense(r, offsets[s] + j) = g(rng);
  }
  SparseRows out = dense.sparseView();
  return out;
}

TEST(ContactProblem, SolveMMatchesDenseInverse) {
  std::mt19937 rng(11);
  Island island;
  make_island(island, rng);
  const Eigen::VectorXd x = Eigen::VectorXd::Random(11);
  const ContactProblem& p = island.builder.build(Eigen::VectorXd::Zero(11), Eigen::VectorXd::Zero(11));
  Eigen::VectorXd out;
  p.solve_M(x, out);
  const Eigen::VectorXd expected = island.M_dense.ldlt().solve(x);
  EXPECT_LE((out - expected).norm(), kRoundoff * expected.norm());
}

// solve_M_columns_in_place stands in for one solve_M_into per column (OneContactDelassus's three): the
// same bits, for blocks the small solve takes and one it does not (Eigen's blocked solve, column by column).
TEST(ContactProblem, SolveMColumnsIsSolveMOfEachColumnToTheBit) {
  std::mt19937 rng(12);
  test::ProblemBuilder builder{0.01};
  for (int size : {6, 1, static_cast<int>(kSmallLltSize) + 3}) builder.add_system(random_spd(size, rng));
  const int nv = 7 + static_cast<int>(kSmallLltSize) + 3;
  const ContactProblem& p = builder.build(Eigen::VectorXd::Zero(nv), Eigen::VectorXd::Zero(nv));
  const Eigen::MatrixXd X = Eigen::MatrixXd::Random(nv, 3);
  Eigen::MatrixXd together = X;
  solve_M_columns_in_place(p, together);
  for (int j = 0; j < 3; ++j) {
    Eigen::VectorXd alone(nv);
    solve_M_into(p, X.col(j), alone);
    EXPECT_EQ(std::memcmp(alone.data(), together.col(j).data(), sizeof(double) * nv), 0) << "column " << j;
  }
}

TEST(ContactProblem, DelassusMatchesDenseProductForDistinctAndEqualOperands) {
  std::mt19937 rng(12);
  Island island;
  make_island(island, rng);
  const ContactProblem& p = island.builder.build(Eigen::VectorXd::Zero(11), Eigen::VectorXd::Zero(11));
  const Eigen::MatrixXd W = island.M_dense.inverse();
  for (int trial = 0; trial < 5; ++trial) {
    const SparseRows A = random_rows(7, 11, rng), B = random_rows(5, 11, rng);
    Eigen::MatrixXd out;
    DelassusScratch scratch;
    p.delassus(A, B, out, scratch);
    const Eigen::MatrixXd expected = Eigen::MatrixXd(A) * W * Eigen::MatrixXd(B).transpose();
    ASSERT_EQ(out.rows(), 7);
    ASSERT_EQ(out.cols(), 5);
    EXPECT_LE((out - expected).norm(), kRoundoff * expected.norm()) << "A M⁻¹ Bᵀ, trial " << trial;

    p.delassus(A, A, out, scratch);
    const Eigen::MatrixXd expected_AA = Eigen::MatrixXd(A) * W * Eigen::MatrixXd(A).transpose();
    EXPECT_LE((out - expected_AA).norm(), kRoundoff * expected_AA.norm()) << "A M⁻¹ Aᵀ, trial " << trial;
    EXPECT_LE((out - out.transpose()).norm(), kRoundoff * out.norm()) << "A M⁻¹ Aᵀ must be symmetric";
    // The last row of A is empty: its row and column of the Delassus matrix are exactly zero.
    EXPECT_EQ(out.row(6).norm(), 0.0);
  }
}

/// Blocks of 18 (a quadruped's floating base and legs), 6 and 1 coordinates (nv = 25), and rows over them
/// touching one or two blocks, each entry of a block kept with probability `keep` beyond its first three.
struct QuadrupedIsland {
  static constexpr int sizes[] = {18, 6, 1}, offsets[] = {0, 18, 24}, nv = 25;
  test::ProblemBuilder builder{0.01};
  const ContactProblem* p = nullptr;
  explicit QuadrupedIsland(std::mt19937& rng) {
    for (int s : sizes) builder.add_system(random_spd(s, rng));
    p = &builder.build(Eigen::VectorXd::Zero(nv), Eigen::VectorXd::Zero(nv));
  }
  static SparseRows rows(int count, double keep, std::mt19937& rng) {
    std::normal_distribution<double> g(0, 1);
    std::uniform_int_distribution<int> pick(0, 2);
    std::bernoulli_distribution coin(keep);
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(count, nv);
    for (int r = 0; r < count; ++r)
      for (int s : {pick(rng), pick(rng)})
        for (int j = 0; j < sizes[s]; ++j)
          if (j < 3 || coin(rng)) dense(r, offsets[s] + j) = g(rng);
    return SparseRows(dense.sparseView());
  }
};

TEST(ContactProblem, DelassusColumnsAndDiagonalAreTheWholeProductToTheBit) {
  // Stewart–Trinkle computes D = J W Jᵀ only over the columns an answer needs (stewart_trinkle.hpp,
  // need_D); the identity of shipped scenes' results rests on each entry being the whole product's own
  // number. Blocks of 18 (a quadruped's floating base and legs), 6 and 1 coordinates; row counts 1 … 70 so
  // that the vectorised columns split into full vectors and remainders differently than the whole.
  std::mt19937 rng(14);
  const QuadrupedIsland island(rng);
  const ContactProblem& p = *island.p;
  std::bernoulli_distribution coin(0.3);
  constexpr double kUntouched = 7.0;   // a value no entry of D takes here
  for (int rows = 1; rows <= 70; rows += 3) {
    const SparseRows J = QuadrupedIsland::rows(rows, 0.3, rng);
    DelassusScratch scratch;
    Eigen::MatrixXd whole(rows, rows);
    delassus_into(p, J, J, whole, scratch);

    std::vector<char> columns(rows);
    for (char& c : columns) c = coin(rng);
    Eigen::MatrixXd part = Eigen::MatrixXd::Constant(rows, rows, kUntouched);
    delassus_columns_into(p, J, J, columns, part, scratch);
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < rows; ++i) {
        if (columns[j]) {
          EXPECT_EQ(part(i, j), whole(i, j)) << rows << " rows, entry " << i << ", " << j;
        } else {
          EXPECT_EQ(part(i, j), kUntouched) << rows << " rows: column " << j << " was not asked for";
        }
      }

    const int count = rows / 2;
    Eigen::MatrixXd diagonal = Eigen::MatrixXd::Constant(rows, rows, kUntouched);
    delassus_diagonal_into(p, J, count, diagonal, scratch);
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < rows; ++i) {
        if (i == j && i < count) {
          EXPECT_EQ(diagonal(i, i), whole(i, i)) << rows << " rows, diagonal " << i;
        } else {
          EXPECT_EQ(diagonal(i, j), kUntouched) << rows << " rows: entry " << i << ", " << j;
        }
      }
  }
}

TEST(ContactProblem, KeptDelassusRowsGiveTheSameBitsAndAreDroppedByAnotherProduct) {
  // keep_delassus_rows solves W Jᵀ once for the products with A = B = J that follow (the Stewart–Trinkle LCP's
  // diagonal, then its columns): each must be the unkept product's own number, and a product of other rows
  // through the same scratch must not leave J's kept rows to be read as if they were still J's.
  std::mt19937 rng(16);
  const QuadrupedIsland island(rng);
  const ContactProblem& p = *island.p;
  for (int rows = 1; rows <= 40; rows += 3) {
    const SparseRows J = QuadrupedIsland::rows(rows, 1.0, rng), K = QuadrupedIsland::rows(rows + 2, 1.0, rng);
    DelassusScratch plain, kept;
    Eigen::MatrixXd whole(rows, rows), whole_K(rows + 2, rows + 2);
    delassus_into(p, J, J, whole, plain);
    delassus_into(p, K, K, whole_K, plain);

    keep_delassus_rows(p, J, kept);
    Eigen::MatrixXd diagonal = Eigen::MatrixXd::Zero(rows, rows), from_kept(rows, rows);
    delassus_diagonal_into(p, J, rows, diagonal, kept);
    delassus_into(p, J, J, from_kept, kept);
    for (int i = 0; i < rows; ++i) EXPECT_EQ(diagonal(i, i), whole(i, i)) << rows << " rows, diagonal " << i;
    EXPECT_TRUE(from_kept == whole) << rows << " rows: the kept product differs from the plain one";

    Eigen::MatrixXd other(rows + 2, rows + 2), again(rows, rows);
    delassus_into(p, K, K, other, kept);   // K's rows by block replace J's in the scratch
    delassus_into(p, J, J, again, kept);
    EXPECT_TRUE(other == whole_K) << rows << " rows: a product of other rows read J's kept W Jᵀ";
    EXPECT_TRUE(again == whole) << rows << " rows: J's product after another one's";
  }
}

TEST(ContactProblem, DelassusOfEmptyRowsIsEmpty) {
  std::mt19937 rng(13);
  Island island;
  make_island(island, rng);
  const ContactProblem& p = island.builder.build(Eigen::VectorXd::Zero(11), Eigen::VectorXd::Zero(11));
  SparseRows none(0, 11);
  const SparseRows A = random_rows(3, 11, rng);
  Eigen::MatrixXd out;
  DelassusScratch scratch;
  p.delassus(none, A, out, scratch);
  EXPECT_EQ(out.rows(), 0);
  EXPECT_EQ(out.cols(), 3);
}

TEST(ContactProblem, KineticEnergyFromMOrFromItsFactor) {
  std::mt19937 rng(14);
  Island island;
  make_island(island, rng);
  const Eigen::VectorXd x = Eigen::VectorXd::Random(11);
  ContactProblem p = island.builder.build(Eigen::VectorXd::Zero(11), Eigen::VectorXd::Zero(11));
  const double expected = 0.5 * x.dot(island.M_dense * x);
  EXPECT_NEAR(p.kinetic_energy(x), expected, kRoundoff * expected);
  for (SystemBlock& s : p.systems) s.M = nullptr;   // only the Cholesky factor: ½‖Lᵀx‖²
  EXPECT_NEAR(p.kinetic_energy(x), expected, kRoundoff * expected);
}

}  // namespace
}  // namespace impetus
