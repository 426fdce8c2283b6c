// Mimic joints by coordinate elimination (dynamics/mimic.hpp): the map G of a chain of mimics, the
// reduced operators GᵀAG and Gᵀx against a dense G, and the refusals of add_tree.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dynamics/mimic.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

// Products of a few O(1) numbers: exact to a few ulps.
constexpr double kRoundOff = 1e-14;

/// A fixed base; a revolute leader A; prismatic B mimics A (q_B = 2 q_A + 0.1); prismatic C mimics B
/// (q_C = −3 q_B + 0.5 = −6 q_A + 0.2); an independent continuous D. C comes before B in the tree.
MultibodyModel chain_model() {
  MultibodyModel model;
  std::vector<Link> links(5);
  const char* names[] = {"base", "a", "c", "b", "d"};
  for (int i = 0; i < 5; ++i) {
    links[i].name = names[i];
    links[i].joint.name = names[i];
    links[i].parent = i == 0 ? -1 : 0;
    links[i].inertia = test::box_inertia(1.0 + i, {0.1, 0.2, 0.3});
    links[i].joint.X_PJ.translation() << 0.1 * i, 0.05, 0;
  }
  links[0].joint.type = JointType::Fixed;
  links[1].joint.type = JointType::Revolute;
  links[1].joint.axis = Eigen::Vector3d::UnitZ();
  links[2].joint.type = JointType::Prismatic;
  links[2].joint.mimic = 3;
  links[2].joint.mimic_multiplier = -3;
  links[2].joint.mimic_offset = 0.5;
  links[3].joint.type = JointType::Prismatic;
  links[3].joint.mimic = 1;
  links[3].joint.mimic_multiplier = 2;
  links[3].joint.mimic_offset = 0.1;
  links[4].joint.type = JointType::Continuous;
  links[4].joint.axis = Eigen::Vector3d::UnitX();
  model.add_tree("chain", links);
  return model;
}

TEST(Mimic, AChainComposesItsMultipliersAndOffsetsToTheRootLeader) {
  const MultibodyModel model = chain_model();
  const Tree& tree = model.trees[0];
  ASSERT_EQ(tree.nv, 4);
  ASSERT_EQ(tree.nu, 2);  // a and d
  const MimicRoot c = mimic_root(model, model.find_link("c"));
  EXPECT_EQ(c.link, model.find_link("a"));
  EXPECT_DOUBLE_EQ(c.gain, -6.0);
  EXPECT_DOUBLE_EQ(c.offset, -3 * 0.1 + 0.5);

  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq), v = Eigen::VectorXd::Zero(model.nv);
  const auto index = [&](const char* name) { return model.links[model.find_link(name)].joint.q_index; };
  q[index("a")] = 0.7;
  q[index("d")] = -1.3;
  v[index("a")] = 2.0;
  v[index("d")] = 5.0;
  enforce_mimic_positions(model, q);
  enforce_mimic_velocities(model, v);
  EXPECT_NEAR(q[index("b")], 2 * 0.7 + 0.1, kRoundOff);
  EXPECT_NEAR(q[index("c")], -3 * (2 * 0.7 + 0.1) + 0.5, kRoundOff);
  EXPECT_NEAR(v[index("c")], -6 * 2.0, kRoundOff);
  EXPECT_EQ(q[index("d")], -1.3);

  // v = G u reproduces the enforced velocities; u gathers the independent ones back.
  Eigen::VectorXd u(tree.nu), v_expanded(tree.nv);
  gather_independent(tree, v, u);
  EXPECT_EQ(u, Eigen::Vector2d(2.0, 5.0));
  expand_independent(tree, u, v_expanded);
  EXPECT_LT((v_expanded - v).norm(), kRoundOff);
}

TEST(Mimic, ReducedOperatorsEqualTheProductsWithADenseG) {
  const MultibodyModel model = chain_model();
  const Tree& tree = model.trees[0];
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(tree.nv, tree.nu);
  for (int k = 0; k < tree.nv; ++k) G(k, tree.u_column[k]) = tree.u_gain[k];
  const Eigen::MatrixXd R = Eigen::MatrixXd::Random(tree.nv, tree.nv);
  const Eigen::MatrixXd A = R * R.transpose() + Eigen::MatrixXd::Identity(tree.nv, tree.nv);
  const Eigen::VectorXd x = Eigen::VectorXd::Random(tree.nv);
  Eigen::MatrixXd A_u;
  reduce_matrix(tree, A, A_u);
  Eigen::VectorXd x_u(tree.nu);
  reduce_vector(tree, x, x_u);
  EXPECT_LT((A_u - G.transpose() * A * G).norm(), kRoundOff * A.norm() * G.squaredNorm());
  EXPECT_LT((x_u - G.transpose() * x).norm(), kRoundOff * x.norm() * G.norm());
  // Kinetic energy is the same in both coordinates: ½uᵀ(GᵀMG)u = ½vᵀMv for v = Gu.
  const Eigen::VectorXd u = Eigen::VectorXd::Random(tree.nu);
  Eigen::VectorXd v(tree.nv);
  expand_independent(tree, u, v);
  EXPECT_NEAR(u.dot(A_u * u), v.dot(A * v), kRoundOff * v.squaredNorm() * A.norm() * 10);
}

TEST(Mimic, AModelWithoutMimicJointsHasTheIdentityMap) {
  const MultibodyModel model = test::mixed_tree_model();
  const Tree& tree = model.trees[0];
  EXPECT_FALSE(tree.has_mimic());
  for (int k = 0; k < tree.nv; ++k) {
    EXPECT_EQ(tree.u_column[k], k);
    EXPECT_EQ(tree.u_gain[k], 1.0);
  }
}

TEST(Mimic, ACycleOfLeadersOrAMimicOfAFixedJointIsRefused) {
  std::vector<Link> links(3);
  for (int i = 0; i < 3; ++i) {
    links[i].name = links[i].joint.name = "l" + std::to_string(i);
    links[i].parent = i - 1;
    links[i].inertia = test::box_inertia(1.0, {0.1, 0.1, 0.1});
    links[i].joint.type = i == 0 ? JointType::Fixed : JointType::Revolute;
  }
  links[1].joint.mimic = 2;
  links[2].joint.mimic = 1;
  MultibodyModel cycle;
  EXPECT_THROW(cycle.add_tree("cycle", links), std::invalid_argument);
  links[2].joint.mimic = 0;  // follows the fixed root joint
  MultibodyModel fixed;
  EXPECT_THROW(fixed.add_tree("fixed", links), std::invalid_argument);
}

}  // namespace
}  // namespace impetus
