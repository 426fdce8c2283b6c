// Stage 5 leaves an island's rows as they are while they would be assembled of the same inputs
// (sim/assembly_repeat.hpp). Two spheres resting apart on the ground, their contacts given: assembled twice of the
// same state, the second problems repeat; whatever input of a problem moves (the warm start, v, a contact point, a
// kinematics pass, M_eff made again), that island's problem is the one assembled afresh and does not repeat.
#include <gtest/gtest.h>

#include <cmath>

#include "contact/problem_bits.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/assembly.hpp"
#include "sim/free_velocity.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus {
namespace {

constexpr double kDt = 1e-3;

const char* kScene =
    "<scene name=\"two spheres\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/><ground/>\n"
    "<body name=\"a\" mass=\"1\"><origin xyz=\"0 0 0.1\" rpy=\"0 0 0\"/>"
    "<collision><geometry><sphere radius=\"0.1\"/></geometry></collision></body>\n"
    "<body name=\"b\" mass=\"2\"><origin xyz=\"1 0 0.1\" rpy=\"0 0 0\"/>"
    "<collision><geometry><sphere radius=\"0.1\"/></geometry></collision></body>\n"
    "</scene>\n";

class AssemblyRepeat : public ::testing::Test {
 protected:
  AssemblyRepeat() : world_(load_scene_string(kScene, "two_spheres.xml")), data_(world_.model), state_(world_.initial) {
    for (int g = 0; g < static_cast<int>(world_.model.geometries.size()); ++g) {
      ContactPoint c;
      c.geom_a = g;
      c.link_a = world_.model.geometries[g].link;
      c.p_W = Eigen::Vector3d(g, 0, 0);
      c.n_W = Eigen::Vector3d::UnitZ();
      c.phi = 0;
      contacts_.push_back(c);
    }
    kinematics();
  }
  void kinematics() { forward_kinematics(world_.model.multibody, data_.multibody, state_.q, state_.v); }
  /// Stages 4 and 5 of the step, the contacts given.
  void assemble(StepData& data) {
    compute_free_velocity(world_.model, kDt, state_, Eigen::VectorXd(), data);
    data.contacts = contacts_;
    assemble_contact_problems(world_.model, state_, kDt, memory_, data, Compliance::Soft);
  }
  /// Island k's problem is, to the bit, the one a StepData that never assembled before makes of the same inputs.
  void expect_assembled_afresh(int k) {
    StepData fresh(world_.model);
    forward_kinematics(world_.model.multibody, fresh.multibody, state_.q, state_.v);
    assemble(fresh);
    ProblemBits afresh;
    afresh.keep(fresh.problems[k]);
    EXPECT_TRUE(afresh.same(data_.problems[k])) << "island " << k;
  }
  /// Assembles again, and expects island `moved` alone not to repeat.
  void expect_only_island_changed(int moved) {
    ProblemBits other;
    other.keep(data_.problems[1 - moved]);
    assemble(data_);
    ASSERT_EQ(data_.problems.size(), 2u);
    EXPECT_FALSE(data_.problem_repeats[moved]);
    EXPECT_TRUE(data_.problem_repeats[1 - moved]);
    EXPECT_TRUE(other.same(data_.problems[1 - moved]));
    expect_assembled_afresh(0);
    expect_assembled_afresh(1);
  }

  World world_;
  StepData data_;
  State state_;
  ContactSet contacts_;
  ImpulseMemory memory_;
};

TEST_F(AssemblyRepeat, TheSameInputsRepeatTheProblems) {
  assemble(data_);
  ASSERT_EQ(data_.problems.size(), 2u);
  EXPECT_FALSE(data_.problem_repeats[0]);   // nothing assembled before
  ProblemBits first[2];
  for (int k = 0; k < 2; ++k) first[k].keep(data_.problems[k]);
  assemble(data_);
  for (int k = 0; k < 2; ++k) {
    EXPECT_TRUE(data_.problem_repeats[k]) << "island " << k;
    EXPECT_TRUE(first[k].same(data_.problems[k])) << "island " << k;
    expect_assembled_afresh(k);
  }
}

TEST_F(AssemblyRepeat, ANewWarmStartIsTaken) {
  assemble(data_);
  memory_[data_.problems[1].keys[0]] = Eigen::Vector3d(0.02, 1e-3, -1e-3);
  expect_only_island_changed(1);
  EXPECT_EQ(data_.problems[1].p_N_guess[0], 0.02);
  memory_.clear();   // and a guess no longer held is zero again
  expect_only_island_changed(1);
  EXPECT_EQ(data_.problems[1].p_N_guess[0], 0.0);
}

TEST_F(AssemblyRepeat, AVelocityMovedByOneUlpIsTaken) {
  assemble(data_);
  const int tree = world_.model.multibody.links[world_.model.geometries[0].link].tree;
  double& v = state_.v[world_.model.multibody.trees[tree].v_offset + 2];
  v = std::nextafter(v, 1.0);   // without a kinematics pass: only v and v* can tell
  expect_only_island_changed(0);
}

TEST_F(AssemblyRepeat, AContactPointMovedByOneUlpIsTaken) {
  assemble(data_);
  contacts_[1].phi = std::nextafter(0.0, 1.0);
  expect_only_island_changed(1);
  EXPECT_GT(data_.problems[1].phi[0], 0.0);
}

TEST_F(AssemblyRepeat, AKinematicsPassAssemblesTheRowsAgain) {
  assemble(data_);
  kinematics();   // the same q: the same bits, but the rows are assembled again
  assemble(data_);
  for (int k = 0; k < 2; ++k) {
    EXPECT_FALSE(data_.problem_repeats[k]) << "island " << k;
    expect_assembled_afresh(k);
  }
}

TEST_F(AssemblyRepeat, AnEffectiveInertiaMadeAgainIsTaken) {
  assemble(data_);
  const int tree = world_.model.multibody.links[world_.model.geometries[0].link].tree;
  ++data_.multibody.M_writes[tree];   // as if crba had written M (the same bits): M_eff is made again of it
  expect_only_island_changed(0);
}

TEST_F(AssemblyRepeat, AnIslandGoneAndBackIsAssembledAfresh) {
  assemble(data_);
  const ContactSet both = contacts_;
  contacts_.erase(contacts_.begin());   // sphere a leaves the ground: sphere b's island is island 0, and island 1 gone
  assemble(data_);
  ASSERT_EQ(data_.problems.size(), 1u);
  EXPECT_FALSE(data_.problem_repeats[0]);
  contacts_ = both;   // island 1 is sphere b's again, its trees unmoved, but its problem was made anew
  assemble(data_);
  ASSERT_EQ(data_.problems.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_FALSE(data_.problem_repeats[k]) << "island " << k;
    expect_assembled_afresh(k);
  }
}

}  // namespace
}  // namespace impetus
