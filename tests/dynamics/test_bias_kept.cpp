// crba_and_bias_forces_of_tree keeps a tree's h (tau, a, f) while its M is kept and its v and links' V are bitwise
// the last call's: the kept h must be the recursion's to the bit, and a change of any input, or a write of tau, a, f
// by another call, must be seen (a stale h would break the tests below).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "dynamics/crba.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/rnea.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

using test::random_configuration;
using test::random_vector;

constexpr int kTrials = 50;

template <typename A, typename B>
bool same_bits(const A& a, const B& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

/// h, a, f of the whole model from a MultibodyData that never kept anything: the kinematics at (q, v_V), the
/// recursion given v (v_V = v but where a test moves the links' V alone).
struct Fresh {
  Eigen::VectorXd h;
  std::vector<Vec6> a, f;
};

Fresh fresh(const MultibodyModel& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v_V, const Eigen::VectorXd& v) {
  MultibodyData data(model);
  forward_kinematics(model, data, q, v_V);
  bias_forces(model, data, v);
  return {data.tau, data.a, data.f};
}

void crba_and_bias(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v_V,
                   const Eigen::VectorXd& v) {
  forward_kinematics(model, data, q, v_V);
  for (int t = 0; t < static_cast<int>(model.trees.size()); ++t) crba_and_bias_forces_of_tree(model, data, v, t);
}

void crba_and_bias(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  crba_and_bias(model, data, q, v, v);
}

/// data's h, a, f are those of (q, v_V, v) to the bit; `moved` counts whether they differ from `before`'s.
void expect_fresh(const MultibodyModel& model, const MultibodyData& data, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& v_V, const Eigen::VectorXd& v, int trial,
                  const Eigen::VectorXd* before = nullptr, int* moved = nullptr) {
  const Fresh expected = fresh(model, q, v_V, v);
  EXPECT_TRUE(same_bits(data.tau, expected.h)) << "trial " << trial;
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    EXPECT_TRUE(same_bits(data.a[i], expected.a[i])) << "trial " << trial << " link " << i;
    EXPECT_TRUE(same_bits(data.f[i], expected.f[i])) << "trial " << trial << " link " << i;
  }
  if (before != nullptr) *moved += !same_bits(*before, expected.h);
}

class BiasKeptTest : public ::testing::TestWithParam<int> {
 protected:
  MultibodyModel model() const { return test::tree_model(GetParam()); }
};

TEST_P(BiasKeptTest, KeptBiasIsTheRecomputedOneToTheBit) {
  const MultibodyModel m = model();
  MultibodyData data(m);
  std::mt19937 rng(21);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::VectorXd q = random_configuration(m, rng), v = random_vector(m.nv, rng);
    crba_and_bias(m, data, q, v);
    crba_and_bias(m, data, q, v);   // every input the same bits: the kept path
    expect_fresh(m, data, q, v, v, trial);
  }
}

// Each kind of change alone is asserted to move h somewhere: a compare dropped from the keep fails it.
TEST_P(BiasKeptTest, ChangedInputsAreNotAnsweredWithTheKeptBias) {
  const MultibodyModel m = model();
  MultibodyData data(m);
  std::mt19937 rng(22);
  constexpr int kKinds = 6;
  int moved[kKinds] = {};
  for (int trial = 0; trial < kKinds * kTrials; ++trial) {
    const int kind = trial % kKinds;
    Eigen::VectorXd q1 = random_configuration(m, rng), v1 = random_vector(m.nv, rng);
    if (kind == 4) v1.setZero();
    Eigen::VectorXd q2 = q1, v2 = v1, v2_V = v1;
    switch (kind) {
      case 0: q2 = random_configuration(m, rng), v2 = v2_V = random_vector(m.nv, rng); break;
      case 1: v2 = v2_V = random_vector(m.nv, rng); break;   // I and S the same bits: M kept, h not
      case 2: {   // one ulp of one velocity: V and the bias terms move by round-off only, or not at all
        const int k = std::uniform_int_distribution<int>(0, m.nv - 1)(rng);
        v2[k] = std::nextafter(v2[k], 2.0);
        v2_V = v2;
        break;
      }
      case 3: {   // one ulp of one coordinate
        const int k = std::uniform_int_distribution<int>(0, m.nq - 1)(rng);
        q2[k] = std::nextafter(q2[k], 2.0);
        break;
      }
      case 4: q2 = random_configuration(m, rng); break;   // at v = 0 every V is 0: only I and S move
      default: v2_V = random_vector(m.nv, rng);           // the links' V alone move, v is the same bits
    }
    crba_and_bias(m, data, q1, v1);
    const Eigen::VectorXd h1 = data.tau;
    crba_and_bias(m, data, q2, v2_V, v2);
    expect_fresh(m, data, q2, v2_V, v2, trial, &h1, &moved[kind]);
  }
  for (int kind = 0; kind < kKinds; ++kind) {
    if (kind == 4 && GetParam() == 0) continue;   // a free body's h at v = 0 is its weight at the COM, whatever q
    EXPECT_GT(moved[kind], 0) << "kind " << kind << " never changed h: the test could not see a stale one";
  }
}

TEST_P(BiasKeptTest, OtherWritersOfTheBiasOrOfMAreSeen) {
  const MultibodyModel m = model();
  MultibodyData data(m);
  std::mt19937 rng(23);
  int moved = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Eigen::VectorXd q = random_configuration(m, rng), v = random_vector(m.nv, rng);
    const Eigen::VectorXd q2 = random_configuration(m, rng), v2 = random_vector(m.nv, rng);
    crba_and_bias(m, data, q, v);
    const Eigen::VectorXd h = data.tau;
    switch (trial % 3) {
      case 0: rnea(m, data, v, v2); break;                                   // tau = M v̇ + h, a and f of v̇ ≠ 0
      case 1:
        for (int t = 0; t < static_cast<int>(m.trees.size()); ++t) bias_forces_of_tree(m, data, v2, t);
        break;
      default: {
        // At v = 0 every V is 0 whatever q: only I and S differ, and crba_of_tree alone has taken them in.
        const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv);
        crba_and_bias(m, data, q, zero);
        const Eigen::VectorXd h0 = data.tau;
        forward_kinematics(m, data, q2, zero);
        crba(m, data);
        crba_and_bias(m, data, q2, zero);
        expect_fresh(m, data, q2, zero, zero, trial, &h0, &moved);
        continue;
      }
    }
    const Eigen::VectorXd written = data.tau;
    crba_and_bias(m, data, q, v);
    expect_fresh(m, data, q, v, v, trial, &written, &moved);
    EXPECT_TRUE(same_bits(data.tau, h)) << "trial " << trial;
  }
  EXPECT_GT(moved, 0) << "no other writer changed h: the test could not see a stale one";
}

INSTANTIATE_TEST_SUITE_P(FreeBodyMixedTreePlanarAndFloatingChild, BiasKeptTest, ::testing::Values(0, 1, 2, 3));

}  // namespace
}  // namespace impetus
