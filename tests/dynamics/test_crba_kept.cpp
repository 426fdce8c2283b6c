// crba_of_tree keeps a tree's M while its links' I and S columns are bitwise the last call's: the kept M must be
// the recursion's M to the bit, and a change of any input must be seen (a stale M would break both tests below).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "dynamics/crba.hpp"
#include "dynamics/kinematics.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

using test::random_configuration;
using test::random_vector;

constexpr int kTrials = 50;

bool same_bits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

/// M of every tree at q computed by a MultibodyData that never kept anything.
std::vector<Eigen::MatrixXd> fresh_M(const MultibodyModel& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  MultibodyData data(model);
  forward_kinematics(model, data, q, v);
  crba(model, data);
  return data.M;
}

class CrbaKeptTest : public ::testing::TestWithParam<int> {
 protected:
  MultibodyModel model() const { return test::tree_model(GetParam()); }
};

TEST_P(CrbaKeptTest, KeptMassMatrixIsTheRecomputedOneToTheBit) {
  const MultibodyModel m = model();
  MultibodyData data(m);
  std::mt19937 rng(11);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::VectorXd q = random_configuration(m, rng), v = random_vector(m.nv, rng);
    forward_kinematics(m, data, q, v);
    crba(m, data);
    // The same q with another v: the same I and S, so the kept path runs; v is no input of M.
    forward_kinematics(m, data, q, random_vector(m.nv, rng));
    crba(m, data);
    const std::vector<Eigen::MatrixXd> expected = fresh_M(m, q, v);
    for (std::size_t t = 0; t < expected.size(); ++t) EXPECT_TRUE(same_bits(data.M[t], expected[t])) << "trial " << trial;
  }
}

TEST_P(CrbaKeptTest, ChangedInputsAreNotAnsweredWithTheKeptMassMatrix) {
  const MultibodyModel m = model();
  MultibodyData data(m);
  std::mt19937 rng(12);
  int moved = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::VectorXd q1 = random_configuration(m, rng), v = random_vector(m.nv, rng);
    Eigen::VectorXd q2 = random_configuration(m, rng);
    if (trial % 2 == 1) {   // one ulp of one coordinate: I or S move by round-off only, or not at all
      q2 = q1;
      const int k = std::uniform_int_distribution<int>(0, m.nq - 1)(rng);
      q2[k] = std::nextafter(q2[k], 2.0);
    }
    forward_kinematics(m, data, q1, v);
    crba(m, data);
    const std::vector<Eigen::MatrixXd> M1 = data.M;
    forward_kinematics(m, data, q2, v);
    crba(m, data);
    const std::vector<Eigen::MatrixXd> expected = fresh_M(m, q2, v);
    for (std::size_t t = 0; t < expected.size(); ++t) {
      EXPECT_TRUE(same_bits(data.M[t], expected[t])) << "trial " << trial;
      moved += !same_bits(M1[t], expected[t]);
    }
  }
  EXPECT_GT(moved, 0) << "no trial changed M: the test could not see a stale one";
}

// A walk in which each step's passes go over some trees only (forward_kinematics_of_tree, as the step's kinematics
// keep a tree at rest): the trees no pass wrote keep M unread, the others compare or recompute it, and every M is
// the recursion's at the current q to the bit.
TEST(CrbaKept, TreesNoPassWroteKeepTheirMassMatrix) {
  const MultibodyModel m = test::trees_model({0, 1, 2, 3, 0});
  MultibodyData data(m);
  std::mt19937 rng(13);
  std::bernoulli_distribution moves(0.3);
  Eigen::VectorXd q = random_configuration(m, rng), v = random_vector(m.nv, rng);
  forward_kinematics(m, data, q, v);
  crba(m, data);
  int unwritten = 0, written = 0;
  for (int step = 0; step < 100; ++step) {
    const Eigen::VectorXd q_new = random_configuration(m, rng), v_new = random_vector(m.nv, rng);
    for (int t = 0; t < static_cast<int>(m.trees.size()); ++t) {
      const Tree& tree = m.trees[t];
      if (!moves(rng)) {
        ++unwritten;
        continue;
      }
      ++written;
      q.segment(tree.q_offset, tree.nq) = q_new.segment(tree.q_offset, tree.nq);
      v.segment(tree.v_offset, tree.nv) = v_new.segment(tree.v_offset, tree.nv);
      forward_kinematics_of_tree(m, data, q, v, t);
    }
    crba(m, data);
    const std::vector<Eigen::MatrixXd> expected = fresh_M(m, q, v);
    for (std::size_t t = 0; t < expected.size(); ++t) ASSERT_TRUE(same_bits(data.M[t], expected[t])) << "step " << step;
  }
  EXPECT_GT(unwritten, 100);
  EXPECT_GT(written, 100);
}

INSTANTIATE_TEST_SUITE_P(FreeBodyMixedTreePlanarAndFloatingChild, CrbaKeptTest, ::testing::Values(0, 1, 2, 3));

}  // namespace
}  // namespace impetus
