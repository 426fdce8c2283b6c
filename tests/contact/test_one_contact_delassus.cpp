// contact/one_contact_delassus: M⁻¹Gᵀ solved as one block of three columns is, column by column, what
// ContactProblem::solve_M gives for each row, to the bit (the one-contact paths of every model read it: a change
// of those bits would move every scene's one-contact islands), and W, b are G M⁻¹ Gᵀ and G v*.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/one_contact_delassus.hpp"
#include "tests/contact/problem_builder.hpp"

namespace impetus {
namespace {

bool same_bits(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

TEST(OneContactDelassus, SolvesTheThreeColumnsAsSolveMDoesToTheBit) {
  std::mt19937 rng(20261127);
  for (int i = 0; i < 200; ++i) {   // one or two boxes, inertias over three decades
    SCOPED_TRACE("problem " + std::to_string(i));
    test::ProblemBuilder builder(0.01);
    const ContactProblem& P = test::random_one_contact(builder, rng, [] { return 0.5; });
    OneContactDelassus rows;
    ASSERT_TRUE(rows.compute(P));
    Eigen::VectorXd expected(P.nv);
    const SparseRows* G[3] = {&P.N, &P.S, &P.T};
    const VectorView* Minv_G[3] = {&rows.Minv_N, &rows.Minv_S, &rows.Minv_T};
    for (int k = 0; k < 3; ++k) {
      const Eigen::VectorXd g = G[k]->row(0).transpose();
      P.solve_M(g, expected);
      EXPECT_TRUE(same_bits(*Minv_G[k], expected)) << "column " << k;
      EXPECT_NEAR(rows.b[k], g.dot(P.v_star), 1e-14 * (1 + g.cwiseAbs().dot(P.v_star.cwiseAbs())));
      for (int j = 0; j < 3; ++j) {
        const double W_kj = G[j]->row(0).dot(expected);
        EXPECT_NEAR(rows.W(k, j), W_kj, 1e-12 * std::sqrt(rows.W(k, k) * rows.W(j, j))) << k << ", " << j;
      }
    }
  }
}

}  // namespace
}  // namespace impetus
