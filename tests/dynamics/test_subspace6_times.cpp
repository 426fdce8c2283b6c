// A floating joint's V = S·v (dynamics/subspace6_times.hpp) against Eigen's product of the same runtime-sized
// blocks, bit for bit; and forward kinematics, which takes it, against the generic expressions it replaced, on
// random states with exact zeros of both signs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "dynamics/kinematics.hpp"
#include "dynamics/subspace6_times.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

constexpr int kTrials = 2000;

template <typename A, typename B>
bool same_bits(const A& a, const B& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

/// Numbers whose sums and products round in every way, with exact ±0 and ±1 among them (the entries of S).
double awkward(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1.0;
    case 3: return -1.0;
    case 4: return u(rng) * 1e-9;
    default: return u(rng) * std::pow(10.0, std::uniform_int_distribution<int>(-3, 3)(rng));
  }
}

TEST(Subspace6Times, IsEigensProductOfTheBlocksToTheBit) {
  if (!kExactSubspace6Times) GTEST_SKIP() << "forward kinematics keeps Eigen's product in this build";
  std::mt19937 rng(5);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int k = std::uniform_int_distribution<int>(0, 6)(rng), nv = k + 6 + std::uniform_int_distribution<int>(0, 3)(rng);
    Eigen::Matrix<double, 6, Eigen::Dynamic> S(6, nv);
    Eigen::VectorXd x(nv);
    Vec6 A;
    for (int i = 0; i < S.size(); ++i) S.data()[i] = awkward(rng);
    for (int i = 0; i < nv; ++i) x[i] = awkward(rng);
    for (int i = 0; i < 6; ++i) A[i] = awkward(rng);
    if (trial % 4 == 0) x.setZero();   // at rest: every product an exact zero
    if (trial % 8 == 1) x = -x;

    const Vec6 expected = A + S.middleCols(k, 6) * x.segment(k, 6);   // under a link: V_P + S·v
    const Vec6 V = A + subspace6_times(&S(0, k), &x[k]);
    EXPECT_TRUE(same_bits(V, expected)) << "trial " << trial << ": " << V.transpose() << " vs " << expected.transpose();
    const Vec6 expected_on_world = Vec6::Zero() + S.middleCols(k, 6) * x.segment(k, 6);
    EXPECT_TRUE(same_bits(Vec6(Vec6::Zero() + subspace6_times(&S(0, k), &x[k])), expected_on_world)) << "trial " << trial;
  }
}

// The generic pass's S columns of a floating joint on the world (kinematics.cpp before the fixed-size writes):
// [0; e_c] and [e_c; p_WC × e_c], whose products by 0 and 1 are exact whoever compiles them.
Eigen::Matrix<double, 6, 6> generic_root_S(const Vec3& p) {
  Eigen::Matrix<double, 6, Eigen::Dynamic> S(6, 6);
  for (int c = 0; c < 3; ++c) {
    S.col(c) << Vec3::Zero(), Vec3::Unit(c);
    S.col(3 + c) << Vec3::Unit(c), p.cross(Vec3::Unit(c));
  }
  return S;
}

// Every floating joint of the models with one (a free body; a floating base under revolute, prismatic, fixed and
// continuous joints; a floating joint under a link, which the on-the-world writes must not take): S and V equal
// the generic expressions' to the bit, at random velocities and at rest (+0 and −0).
TEST(Subspace6Times, FloatingJointsKinematicsIsTheGenericExpressionsToTheBit) {
  std::mt19937 rng(11);
  for (const MultibodyModel& model : {test::free_body_model(), test::mixed_tree_model(), test::floating_child_model()}) {
    MultibodyData data(model);
    for (int trial = 0; trial < 300; ++trial) {
      const Eigen::VectorXd q = test::random_configuration(model, rng);
      Eigen::VectorXd v = test::random_vector(model.nv, rng);
      if (trial % 3 == 1) v.setZero();
      if (trial % 3 == 2) v.setConstant(-0.0);
      forward_kinematics(model, data, q, v);
      for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
        const Link& link = model.links[i];
        if (link.joint.type != JointType::Floating) continue;
        const int k = link.joint.v_index;
        const Eigen::Matrix<double, 6, Eigen::Dynamic> S = data.S.middleCols<6>(k);
        if (link.parent < 0) {
          ASSERT_TRUE(same_bits(Eigen::Matrix<double, 6, 6>(S), generic_root_S(data.p_WC[i]))) << "link " << i;
        } else {   // under a link the turns are L's axes, not W's (the on-the-world writes taken here would fail)
          ASSERT_TRUE(same_bits(Mat3(S.topRightCorner<3, 3>()), Mat3(data.X_WL[i].linear()))) << "link " << i;
        }
        const Vec6 V_parent = link.parent < 0 ? Vec6::Zero() : data.V[link.parent];
        const Vec6 V = V_parent + S.middleCols(0, 6) * v.segment(k, 6);
        EXPECT_TRUE(same_bits(data.V[i], V)) << "link " << i << " trial " << trial;
      }
    }
  }
}

}  // namespace
}  // namespace impetus
