// small_llt_solve_vector_in_place stands in for Eigen's LLT::solve of one vector on the trees' small M_eff
// (v*, sim/free_velocity.cpp), on the promise that it is the same arithmetic in the same order: if it is not,
// every scene's bits move. This holds it to that promise, bit for bit, on random factors of every size it
// takes (and one beyond, Eigen's own path), dense and with exact zeros, against right-hand sides with ±0
// entries and entries spread over ten orders of magnitude.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/small_llt_solve_vector.hpp"

namespace impetus {
namespace {

Eigen::MatrixXd spd(Eigen::Index n, bool zeros, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  std::uniform_int_distribution<int> coin(0, 2);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index first = 0; first < n;) {   // dense groups, nothing between them when `zeros`
    Eigen::Index size = 1;
    while (first + size < n && (!zeros || coin(rng) != 0)) ++size;
    Eigen::MatrixXd A(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j) A(i, j) = u(rng);
    Eigen::VectorXd scale(size);
    for (Eigen::Index i = 0; i < size; ++i) scale[i] = std::pow(10.0, exponent(rng));
    M.block(first, first, size, size) =
        scale.asDiagonal() * (A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(size, size)) * scale.asDiagonal();
    first += size;
  }
  return M;
}

TEST(SmallLltSolveVector, IsEigensSolveToTheBit) {
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> u(-1.0, 1.0), exponent(-5.0, 5.0);
  std::uniform_int_distribution<int> entry(0, 3);
  int compared = 0;
  for (Eigen::Index n = 1; n <= kSmallLltVectorSize + 1; ++n)
    for (const bool zeros : {false, true})
      for (int trial = 0; trial < 300; ++trial) {
        const Eigen::LLT<Eigen::MatrixXd> llt(spd(n, zeros, rng));
        ASSERT_EQ(llt.info(), Eigen::Success);
        Eigen::VectorXd b(n + 3);   // solved in a segment of a longer vector, as v* of one tree
        for (Eigen::Index i = 0; i < b.size(); ++i) {
          const int e = zeros ? entry(rng) : 3;
          b[i] = e == 0 ? 0.0 : e == 1 ? -0.0 : u(rng) * std::pow(10.0, exponent(rng));
        }
        Eigen::VectorXd expected = b, actual = b;
        expected.segment(1, n) = llt.solve(b.segment(1, n));
        small_llt_solve_vector_in_place(llt, actual.segment(1, n));
        ASSERT_EQ(std::memcmp(expected.data(), actual.data(), sizeof(double) * expected.size()), 0)
            << "n = " << n << (zeros ? " with zeros" : "") << ", trial " << trial << ": max difference "
            << (expected - actual).cwiseAbs().maxCoeff();
        ++compared;
      }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace impetus
