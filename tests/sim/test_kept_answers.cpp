// An island whose problem is, to the bit, the one its result answered last step keeps that result
// (Stepper::solve_island, contact/problem_bits.hpp). Whatever the model, every island's result after every step
// must then be what the model answers when asked afresh — and the scene must repeat problems, or the kept path
// was not exercised.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "contact/factory.hpp"
#include "contact/problem_bits.hpp"
#include "dynamics/kinematics.hpp"
#include "islands_scene.hpp"
#include "sim/assembly.hpp"
#include "sim/free_velocity.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

class KeptAnswers : public ::testing::TestWithParam<const char*> {};

TEST_P(KeptAnswers, EveryIslandsResultIsTheModelsAnswerAskedAfresh) {
  const std::string name = GetParam();
  const World world = load_scene_string(test::islands_scene(1e-3), "islands.xml");
  Stepper stepper(world.model, name, 1e-3, 1);
  const std::unique_ptr<ContactModel> fresh = make_contact_model(name, {});
  const std::unique_ptr<ContactWorkspace> workspace = fresh->make_workspace();
  State state = world.initial;
  std::vector<ProblemBits> last;   // each island's problem of the step before
  int repeated = 0, islands = 0;
  for (int step = 0; step < 400; ++step) {
    stepper.step(state);
    const StepData& data = stepper.data();
    if (last.size() < data.islands.size()) last.resize(data.islands.size());
    for (std::size_t k = 0; k < data.islands.size(); ++k) {
      const ContactProblem& problem = data.problems[k];
      repeated += last[k].same(problem);
      ++islands;
      last[k].keep(problem);
      ContactResult answer;
      fresh->solve(problem, answer, *workspace);
      const ContactResult& result = data.results[k];
      ASSERT_TRUE(same_bits(result.v_plus, answer.v_plus)) << name << ", step " << step << ", island " << k;
      ASSERT_TRUE(same_bits(result.p_N, answer.p_N)) << name << ", step " << step << ", island " << k;
      ASSERT_TRUE(same_bits(result.p_S, answer.p_S)) << name << ", step " << step << ", island " << k;
      ASSERT_TRUE(same_bits(result.p_T, answer.p_T)) << name << ", step " << step << ", island " << k;
      ASSERT_EQ(result.stats.status, answer.stats.status) << name << ", step " << step << ", island " << k;
      ASSERT_EQ(result.stats.iterations, answer.stats.iterations) << name << ", step " << step << ", island " << k;
    }
    for (std::size_t k = data.islands.size(); k < last.size(); ++k) last[k].forget();
  }
  EXPECT_GT(repeated, islands / 10) << name << ": too few repeated problems to exercise the kept answers";
  EXPECT_LT(repeated, islands) << name << ": the scene's problems never change";
}

// A problem is kept only when the next one may be the same, which needs v⁺ = v to the bit (the next problem's v is
// this v⁺): a moving island's problem is not copied step after step for a compare that cannot succeed, and a
// resting island's still is. The scene has both.
TEST_P(KeptAnswers, OnlyAnIslandAtRestKeepsItsProblem) {
  const std::string name = GetParam();
  const World world = load_scene_string(test::islands_scene(1e-3), "islands.xml");
  Stepper stepper(world.model, name, 1e-3, 1);
  State state = world.initial;
  int resting = 0, moving = 0;
  for (int step = 0; step < 400; ++step) {
    stepper.step(state);
    const StepData& data = stepper.data();
    for (std::size_t k = 0; k < data.islands.size(); ++k) {
      const bool at_rest = same_bits(data.results[k].v_plus, data.problems[k].v);
      ASSERT_EQ(data.answered[k].same(data.problems[k]), at_rest) << name << ", step " << step << ", island " << k;
      (at_rest ? resting : moving) += 1;
    }
  }
  EXPECT_GT(resting, 100) << name;
  EXPECT_GT(moving, 100) << name;
}

/// ½v⁺ᵀMv⁺ − ½v*ᵀMv* of island k, over its trees, in Stepper::compute_energy_change's arithmetic.
double energy_change_afresh(const MultibodyModel& mb, const StepData& data, int k) {
  double change = 0;
  for (int t : data.islands[k].trees) {
    const Tree& tree = mb.trees[t];
    const auto v_plus = data.v_plus.segment(tree.v_offset, tree.nv);
    const auto v_star = data.v_star.segment(tree.v_offset, tree.nv);
    Eigen::VectorXd Mv(tree.nv);
    Mv.noalias() = data.multibody.M[t] * v_plus;
    const double twice_kinetic_plus = v_plus.dot(Mv);
    Mv.noalias() = data.multibody.M[t] * v_star;
    change += 0.5 * (twice_kinetic_plus - v_star.dot(Mv));
  }
  return change;
}

// An island of one tree whose answer is kept keeps its energy change too while the tree's M is unwritten
// (Stepper::same_energy_source): it must be the one computed afresh, step after step, as the islands' problems
// change and repeat.
TEST_P(KeptAnswers, EveryIslandsEnergyChangeIsTheOneComputedAfresh) {
  const std::string name = GetParam();
  const World world = load_scene_string(test::islands_scene(1e-3), "islands.xml");
  Stepper stepper(world.model, name, 1e-3, 1);
  State state = world.initial;
  for (int step = 0; step < 400; ++step) {
    stepper.step(state);
    const StepData& data = stepper.data();
    for (std::size_t k = 0; k < data.islands.size(); ++k) {
      const double afresh = energy_change_afresh(world.model.multibody, data, static_cast<int>(k));
      ASSERT_EQ(std::memcmp(&afresh, &data.island_energy_change[k], sizeof afresh), 0)
          << name << ", step " << step << ", island " << k << ": " << data.island_energy_change[k] << " kept, "
          << afresh << " afresh";
    }
  }
}

// An island whose rows repeat is not assembled again (sim/assembly_repeat.hpp): every island's problem after every
// step must be, to the bit, the one assembled afresh from the step's state, contacts and warm start, and one the
// assembly says repeats must be the last step's. Resting spheres must take that path, or it was not exercised.
TEST_P(KeptAnswers, EveryIslandsProblemIsTheOneAssembledAfresh) {
  const std::string name = GetParam();
  const World world = load_scene_string(test::islands_scene(1e-3), "islands.xml");
  const double dt = 1e-3;
  Stepper stepper(world.model, name, dt, 1);
  State state = world.initial;
  std::vector<ProblemBits> last;
  int repeats = 0, same = 0;
  for (int step = 0; step < 400; ++step) {
    const State before = state;
    const ImpulseMemory warm_start = stepper.memory().warm_start.impulses;
    stepper.step(state);
    const StepData& data = stepper.data();
    StepData fresh(world.model);
    forward_kinematics(world.model.multibody, fresh.multibody, before.q, before.v);
    compute_free_velocity(world.model, dt, before, data.tau_control, fresh, nullptr);
    fresh.contacts = data.contacts;
    assemble_contact_problems(world.model, before, dt, warm_start, fresh, Compliance::Soft);
    ASSERT_EQ(fresh.problems.size(), data.problems.size()) << name << ", step " << step;
    if (last.size() < data.islands.size()) last.resize(data.islands.size());
    for (std::size_t k = 0; k < data.islands.size(); ++k) {
      ProblemBits afresh;
      afresh.keep(fresh.problems[k]);
      ASSERT_TRUE(afresh.same(data.problems[k])) << name << ", step " << step << ", island " << k;
      const bool was_last = last[k].same(data.problems[k]);
      if (data.problem_repeats[k]) {
        ASSERT_TRUE(was_last) << name << ", step " << step << ", island " << k << " repeats, but not to the bit";
        ++repeats;
      }
      same += was_last;
      last[k].keep(data.problems[k]);
    }
    for (std::size_t k = data.islands.size(); k < last.size(); ++k) last[k].forget();
  }
  std::printf("%s: %d of %d repeated problems found without a compare\n", name.c_str(), repeats, same);
  EXPECT_GT(repeats, same / 2) << name << ": the resting islands' rows were assembled again";
}

INSTANTIATE_TEST_SUITE_P(Models, KeptAnswers,
                         ::testing::Values("stewart_trinkle", "no_slip", "viscous", "max_dissipation"));

}  // namespace
}  // namespace impetus
