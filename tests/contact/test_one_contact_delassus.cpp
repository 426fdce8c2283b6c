// contact/one_contact_delassus: M⁻¹Gᵀ solved as one block of three columns is, column by column, what
// ContactProblem::solve_M gives for each row, to the bit (the one-contact paths of every model read it: a change
// of those bits would move every scene's one-contact islands), and W, b are G M⁻¹ Gᵀ and G v*. The columns are
// solved in place in a buffer whose leading dimension is nv rounded up to Eigen's alignment: one workspace
// over chains of every size (odd ones padded, long ones past the small-LLT solve) must still give solve_M's bits.
#include <gtest/gtest.h>

#include <cmath>
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

TEST(OneContactDelassus, OneWorkspaceOverChainsOfEverySizeIsSolveMToTheBit) {
  std::mt19937 rng(20261128);
  std::uniform_real_distribution<double> U(-1, 1), exponent(-3, 3);
  OneContactDelassus rows;   // reused, as a model's workspace is: sizes up and down
  int compared = 0;
  for (int trial = 0; trial < 3; ++trial)
    for (int nv : {1, 2, 3, 5, 7, 6, 9, 13, 12, 4, 17, 25, 11}) {
      SCOPED_TRACE("nv " + std::to_string(nv));
      Eigen::MatrixXd A(nv, nv);
      for (int i = 0; i < nv; ++i)
        for (int j = 0; j < nv; ++j) A(i, j) = U(rng);
      Eigen::VectorXd scale(nv);
      for (int i = 0; i < nv; ++i) scale[i] = std::pow(10.0, exponent(rng));
      test::ProblemBuilder builder(0.01);
      builder.add_system(scale.asDiagonal() * (A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(nv, nv)) *
                         scale.asDiagonal());
      Eigen::RowVectorXd g[3];
      for (Eigen::RowVectorXd& x : g) {
        x.resize(nv);
        for (int j = 0; j < nv; ++j) x[j] = rng() % 4 == 0 ? 0.0 : U(rng);   // a chain's zeros: not every column moves
      }
      g[0][0] = 1;   // W_NN > 0
      builder.contact(g[0], g[1], g[2], 1e-3, 0.5);
      Eigen::VectorXd v_star(nv);
      for (int j = 0; j < nv; ++j) v_star[j] = U(rng);
      const ContactProblem& P = builder.build(v_star, v_star);
      ASSERT_TRUE(rows.compute(P));
      Eigen::VectorXd expected(P.nv);
      const VectorView* Minv_G[3] = {&rows.Minv_N, &rows.Minv_S, &rows.Minv_T};
      for (int k = 0; k < 3; ++k) {
        P.solve_M(g[k].transpose(), expected);
        EXPECT_TRUE(same_bits(*Minv_G[k], expected)) << "column " << k;
        EXPECT_TRUE(same_bits(rows.Minv_G.col(k), expected)) << "column " << k;
      }
      ++compared;
    }
  EXPECT_EQ(compared, 39);
}

}  // namespace
}  // namespace impetus
