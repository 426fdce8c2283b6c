// island_structure (contact/workspace_by_structure.hpp): the hash that chooses an island's buffers. It must
// give one structure one hash whatever the values and the storage state, and tell apart the structures a step
// meets: columns moved from one row to the next, a column changed, a row added. Its mix of the column patterns
// runs in four lanes (workspace_by_structure.cpp); a lane left out of the join, or the row starts left out,
// makes two of these structures share a hash.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "contact/workspace_by_structure.hpp"

namespace impetus {
namespace {

using Pattern = std::vector<std::vector<int>>;   // per row, its columns (ascending)

/// A problem over nv coordinates (one system) whose N, S, T have `pattern`, with values from `values`.
ContactProblem problem_of(const Pattern& pattern, int nv, std::mt19937& values) {
  std::uniform_real_distribution<double> value(-1, 1);
  ContactProblem p;
  p.nv = nv;
  p.systems.push_back({0, nv, nullptr, nullptr});
  p.nc = static_cast<int>(pattern.size());
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < p.nc; ++r)
    for (int c : pattern[r]) triplets.emplace_back(r, c, value(values));
  for (SparseRows* X : {&p.N, &p.S, &p.T}) {
    X->resize(p.nc, nv);
    X->setFromTriplets(triplets.begin(), triplets.end());
    X->makeCompressed();
  }
  p.L.resize(0, nv);
  p.mu.setConstant(p.nc, 0.5);
  p.mu_viscous.setZero(p.nc);
  return p;
}

TEST(IslandStructure, OneStructureOneHashWhateverItsValuesAndStorage) {
  std::mt19937 values(7);
  const Pattern pattern = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 5}, {0, 1, 2, 3, 4, 5, 6}};
  const ContactProblem a = problem_of(pattern, 12, values), b = problem_of(pattern, 12, values);
  EXPECT_EQ(island_structure(a), island_structure(b));
  ContactProblem uncompressed = a;
  uncompressed.N.uncompress();
  uncompressed.S.uncompress();
  EXPECT_FALSE(uncompressed.N.isCompressed());
  EXPECT_EQ(island_structure(uncompressed), island_structure(a));
}

TEST(IslandStructure, ColumnsMovedBetweenRowsChangedOrAddedGiveAnotherHash) {
  std::mt19937 values(11);
  const Pattern base = {{0, 1, 2}, {3, 4, 5, 6, 7, 8, 9, 10, 11}};
  const std::vector<Pattern> others = {
      {{0, 1}, {2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},          // (a b | c …) against (a b c | …)
      {{0, 1, 2, 3}, {4, 5, 6, 7, 8, 9, 10, 11}},
      {{0, 1, 2}, {3, 4, 5, 6, 7, 8, 9, 10}},              // the last column gone
      {{0, 1, 2}, {3, 4, 5, 6, 7, 8, 9, 11}},              // one column changed, in the last lane's word
      {{0, 1, 2}, {3, 4, 5, 6, 7, 8, 9, 10, 11}, {0}},     // a row added
  };
  const std::uint64_t h = island_structure(problem_of(base, 12, values));
  for (const Pattern& other : others) EXPECT_NE(island_structure(problem_of(other, 12, values)), h);
}

TEST(IslandStructure, RandomPatternsOfAPileShareNoHash) {
  // Patterns like a pile's island: rows of 6 or 12 columns (one or two free bodies), over 60 coordinates.
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> rows(1, 12), body(0, 9), two(0, 1);
  std::set<Pattern> patterns;
  std::set<std::uint64_t> hashes;
  for (int i = 0; i < 3000; ++i) {
    Pattern pattern(rows(rng));
    for (std::vector<int>& row : pattern) {
      std::set<int> bodies = {body(rng)};
      if (two(rng)) bodies.insert(body(rng));
      for (int b : bodies)
        for (int c = 0; c < 6; ++c) row.push_back(6 * b + c);
    }
    if (!patterns.insert(pattern).second) continue;
    EXPECT_TRUE(hashes.insert(island_structure(problem_of(pattern, 60, rng))).second) << "pattern " << i;
  }
  EXPECT_GT(patterns.size(), 2500u);
}

}  // namespace
}  // namespace impetus
