// project_onto_joint_limits (dynamics/integration.hpp): a joint past its limit is put back on it in the
// configuration; coordinates within their limits, and joints without limits, keep their bits; a mimic
// leader is clamped to the limits its followers impose on it, and the followers follow.
#include <gtest/gtest.h>

#include <vector>

#include "dynamics/integration.hpp"
#include "dynamics/mimic.hpp"
#include "fixtures.hpp"

namespace impetus {
namespace {

// q_follower = g·q_leader + o with O(1) numbers: exact to a few ulps.
constexpr double kRoundOff = 1e-14;

/// Links named `names`, each on the first, which is fixed to the world; joint types left to the caller.
std::vector<Link> links_on_a_fixed_base(const std::vector<const char*>& names) {
  std::vector<Link> links(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    links[i].name = names[i];
    links[i].joint.name = names[i];
    links[i].parent = i == 0 ? -1 : 0;
    links[i].inertia = test::box_inertia(1.0, {0.1, 0.2, 0.3});
  }
  links[0].joint.type = JointType::Fixed;
  return links;
}

/// A fixed base carrying revolute `a` in [−0.5, 0.5], prismatic `b` in [0, 0.2], continuous `d`.
MultibodyModel limited_model() {
  MultibodyModel model;
  std::vector<Link> links = links_on_a_fixed_base({"base", "a", "b", "d"});
  links[1].joint.type = JointType::Revolute;
  links[1].joint.has_limits = true;
  links[1].joint.lower = -0.5;
  links[1].joint.upper = 0.5;
  links[2].joint.type = JointType::Prismatic;
  links[2].joint.has_limits = true;
  links[2].joint.lower = 0;
  links[2].joint.upper = 0.2;
  links[3].joint.type = JointType::Continuous;
  model.add_tree("limited", links);
  return model;
}

/// A fixed base; revolute leader `a` without limits; prismatic `b` mimics it, q_b = 2 q_a + 0.1, with
/// b in [0, 0.5], so that a may only move in [−0.05, 0.2].
MultibodyModel mimic_model() {
  MultibodyModel model;
  std::vector<Link> links = links_on_a_fixed_base({"base", "a", "b"});
  links[1].joint.type = JointType::Revolute;
  links[2].joint.type = JointType::Prismatic;
  links[2].joint.mimic = 1;
  links[2].joint.mimic_multiplier = 2;
  links[2].joint.mimic_offset = 0.1;
  links[2].joint.has_limits = true;
  links[2].joint.lower = 0;
  links[2].joint.upper = 0.5;
  model.add_tree("mimic", links);
  return model;
}

int q_index(const MultibodyModel& model, const char* name) { return model.links[model.find_link(name)].joint.q_index; }

TEST(JointLimits, ACoordinatePastItsLimitIsPutOnItAndNothingElseMoves) {
  const MultibodyModel model = limited_model();
  Eigen::VectorXd q(model.nq);
  q[q_index(model, "a")] = 0.7;
  q[q_index(model, "b")] = -0.01;
  q[q_index(model, "d")] = 5.0;  // no limits
  project_onto_joint_limits(model, q);
  EXPECT_EQ(q[q_index(model, "a")], 0.5);
  EXPECT_EQ(q[q_index(model, "b")], 0.0);
  EXPECT_EQ(q[q_index(model, "d")], 5.0);

  const double inside_a = 0.1234567890123, inside_b = 0.2;  // within, and exactly at, a limit
  q[q_index(model, "a")] = inside_a;
  q[q_index(model, "b")] = inside_b;
  project_onto_joint_limits(model, q);
  EXPECT_EQ(q[q_index(model, "a")], inside_a);
  EXPECT_EQ(q[q_index(model, "b")], inside_b);
}

TEST(JointLimits, AMimicLeaderIsClampedToItsFollowersLimitsAndTheFollowersFollow) {
  const MultibodyModel model = mimic_model();
  const Tree& tree = model.trees[0];
  ASSERT_EQ(tree.nu, 1);
  Eigen::VectorXd q(model.nq);
  q[q_index(model, "a")] = 0.3;  // b would be 0.7, past its upper limit 0.5
  q[q_index(model, "b")] = 2 * 0.3 + 0.1;
  project_onto_joint_limits(model, q);
  EXPECT_NEAR(q[q_index(model, "a")], 0.2, kRoundOff);
  EXPECT_NEAR(q[q_index(model, "b")], 0.5, kRoundOff);

  q[q_index(model, "a")] = -0.1;  // b would be −0.1, past its lower limit 0
  q[q_index(model, "b")] = 2 * -0.1 + 0.1;
  project_onto_joint_limits(model, q);
  EXPECT_NEAR(q[q_index(model, "a")], -0.05, kRoundOff);
  EXPECT_NEAR(q[q_index(model, "b")], 0.0, kRoundOff);

  const double a = 0.05, b = 2 * a + 0.1;  // within: both keep their bits
  q[q_index(model, "a")] = a;
  q[q_index(model, "b")] = b;
  project_onto_joint_limits(model, q);
  EXPECT_EQ(q[q_index(model, "a")], a);
  EXPECT_EQ(q[q_index(model, "b")], b);
}

}  // namespace
}  // namespace impetus
