// set_contact_rows_from_row_ordered_entries fills the island's N, S and T at once (sim/assembly.cpp) on the
// promise that each is the matrix set_from_row_ordered_triplets builds from that matrix's own triplets: if it
// is not, every scene's bits move. This holds it to that promise, bit for bit, on rows whose columns come in
// any order (a chain's Jacobian walks from the link to the root), with repeated columns (both links of a
// contact in one tree) whose values span ten decades so that only the same sums in the same order give the
// same bits, signed zeros, empty rows, and N-only entries (a soft contact's column): those must be in N and
// nowhere in S or T.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "contact/contact_rows_fill.hpp"
#include "contact/problem.hpp"
#include "contact/sparse_fill.hpp"

namespace impetus {
namespace {

::testing::AssertionResult same_bits(const SparseRows& expected, const SparseRows& actual) {
  if (expected.rows() != actual.rows() || expected.cols() != actual.cols() || expected.nonZeros() != actual.nonZeros())
    return ::testing::AssertionFailure() << "shape or entry count differs: " << expected.nonZeros() << " entries against "
                                         << actual.nonZeros();
  const auto n = static_cast<std::size_t>(expected.nonZeros());
  if (std::memcmp(expected.outerIndexPtr(), actual.outerIndexPtr(), sizeof(int) * (expected.rows() + 1)) != 0)
    return ::testing::AssertionFailure() << "row starts differ";
  if (std::memcmp(expected.innerIndexPtr(), actual.innerIndexPtr(), sizeof(int) * n) != 0)
    return ::testing::AssertionFailure() << "columns differ";
  if (std::memcmp(expected.valuePtr(), actual.valuePtr(), sizeof(double) * n) != 0)
    return ::testing::AssertionFailure() << "values differ";
  return ::testing::AssertionSuccess();
}

TEST(ContactRowsFill, IsSetFromRowOrderedTripletsOfEachMatrixToTheBit) {
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  std::uniform_int_distribution<int> coin(0, 3);
  SparseRows N, S, T, N_expected, S_expected, T_expected;   // reused, as the assembly reuses its problems'
  std::vector<ContactRowsEntry> entries;
  std::vector<Eigen::Triplet<double>> tN, tS, tT;
  int compared = 0, summed = 0, n_only = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int rows = 1 + trial % 7, cols = 6 + trial % 13;
    std::uniform_int_distribution<int> column(0, cols - 1), length(0, 14);
    const auto value = [&] {
      const int kind = coin(rng);
      if (kind == 0) return trial % 2 == 0 ? 0.0 : -0.0;   // an exact zero of a Jacobian, of either sign
      return u(rng) * std::pow(10.0, exponent(rng));
    };
    entries.clear();
    tN.clear();
    tS.clear();
    tT.clear();
    for (int r = 0; r < rows; ++r) {
      const int count = trial % 5 == 0 && r == 1 ? 0 : length(rng);   // an empty row now and then
      for (int i = 0; i < count; ++i) {
        const ContactRowsEntry e{r, column(rng), value(), value(), value(), coin(rng) == 0};
        entries.push_back(e);
        tN.emplace_back(e.row, e.column, e.n);
        if (e.n_only) {
          ++n_only;
          continue;
        }
        tS.emplace_back(e.row, e.column, e.s);
        tT.emplace_back(e.row, e.column, e.t);
      }
    }
    summed += static_cast<int>(entries.size());
    set_from_row_ordered_triplets(N_expected, rows, cols, tN);
    set_from_row_ordered_triplets(S_expected, rows, cols, tS);
    set_from_row_ordered_triplets(T_expected, rows, cols, tT);
    set_contact_rows_from_row_ordered_entries(N, S, T, rows, cols, entries);
    ASSERT_TRUE(same_bits(N_expected, N)) << "N, trial " << trial;
    ASSERT_TRUE(same_bits(S_expected, S)) << "S, trial " << trial;
    ASSERT_TRUE(same_bits(T_expected, T)) << "T, trial " << trial;
    ++compared;
  }
  EXPECT_EQ(compared, 400);
  EXPECT_GT(summed, 1000);   // the trials had entries to sort and sum, and N-only ones among them
  EXPECT_GT(n_only, 100);
}

// A soft contact's column is N's alone: S and T have neither its entry nor any value from it, even where it
// repeats a column the rigid entries have.
TEST(ContactRowsFill, NOnlyEntriesStayOutOfSAndT) {
  std::vector<ContactRowsEntry> entries = {
      {0, 3, 1.0, 2.0, 3.0, false}, {0, 7, 1.0, 5.0, 6.0, true}, {1, 3, 4.0, 8.0, 9.0, true}, {1, 3, 0.5, 0.25, 0.125, false}};
  SparseRows N, S, T;
  set_contact_rows_from_row_ordered_entries(N, S, T, 2, 8, entries);
  EXPECT_EQ(N.nonZeros(), 3);
  EXPECT_EQ(N.coeff(0, 7), 1.0);
  EXPECT_EQ(N.coeff(1, 3), 4.5);
  ASSERT_EQ(S.nonZeros(), 2);
  ASSERT_EQ(T.nonZeros(), 2);
  EXPECT_EQ(S.coeff(0, 7), 0.0);
  EXPECT_EQ(S.coeff(1, 3), 0.25);
  EXPECT_EQ(T.coeff(1, 3), 0.125);
}

}  // namespace
}  // namespace impetus
