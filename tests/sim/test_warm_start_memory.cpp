// AssemblyStage::remember leaves the warm-start memory holding exactly this step's contact keys with their
// impulses. Its shortcut for a step with the last step's keys (no sort, no search of every entry) must leave
// the memory as the full update does, entry for entry and in the same iteration order (a restart point writes
// the memory in that order): checked against the full update on a copy, over a sequence of steps that keeps,
// drops, adds and repeats keys, and one whose memory was changed between steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "islands_scene.hpp"
#include "scene_fixture.hpp"
#include "sim/assembly_stage.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

constexpr const char* kScene = R"(<scene name="ball">
  <physics dt="0.001" duration="1" contact_model="stewart_trinkle"/>
  <body name="ball" mass="1">
    <origin xyz="0 0 1"/>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </body>
</scene>)";

/// This step's contacts: one island per key, contact i with key keys[i] and impulse (i + step, 0, 0).
void fill_step(const std::vector<ContactKey>& keys, int step, StepData& data) {
  data.problems.resize(keys.size());
  data.islands.resize(keys.size());
  data.impulse.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    data.problems[i].nc = 1;
    data.problems[i].keys.assign(1, keys[i]);
    data.islands[i].contacts.assign(1, static_cast<int>(i));
    data.impulse[i] = Eigen::Vector3d(static_cast<double>(i + step), 0, 0);
  }
}

/// The full update: erase every entry whose key is not this step's, then store this step's impulses.
void full_update(const StepData& data, ImpulseMemory& memory) {
  std::vector<ContactKey> keys;
  for (const ContactProblem& p : data.problems) keys.insert(keys.end(), p.keys.begin(), p.keys.begin() + p.nc);
  const auto before = [](const ContactKey& a, const ContactKey& b) {
    return std::tie(a.geom_a, a.geom_b, a.feature) < std::tie(b.geom_a, b.geom_b, b.feature);
  };
  std::sort(keys.begin(), keys.end(), before);
  std::erase_if(memory, [&](const auto& e) { return !std::binary_search(keys.begin(), keys.end(), e.first, before); });
  for (std::size_t k = 0; k < data.islands.size(); ++k)
    for (int r = 0; r < data.problems[k].nc; ++r)
      memory[data.problems[k].keys[r]] = data.impulse[data.islands[k].contacts[r]];
}

TEST(WarmStartMemory, RememberIsTheFullUpdateEntryForEntryInOrder) {
  const World world = load_scene_string(kScene, "ball.xml");
  const AssemblyStage stage(world.model, ProblemNeeds{});
  StepData data(world.model);
  WarmStartMemory memory;
  ImpulseMemory expected;
  const ContactKey a{0, 1, 0}, b{0, 2, 0}, c{0, 3, 1}, d{1, 2, 0}, e{2, 3, 4};
  const std::vector<std::vector<ContactKey>> steps = {
      {a, b, c}, {a, b, c}, {a, b, c}, {a, c}, {a, c}, {a, c, e}, {a, c, e}, {}, {}, {b, b, d}, {b, b, d}, {b, d}, {b, d}};
  for (std::size_t step = 0; step < steps.size(); ++step) {
    if (step == 2 || step == 4) {   // the memory changed between steps (a restart point read, say)
      memory.impulses[d] = expected[d] = Eigen::Vector3d(-1, 0, 0);
      if (step == 4) memory.impulses.erase(a), expected.erase(a);
    }
    fill_step(steps[step], static_cast<int>(step), data);
    stage.remember(data, memory);
    full_update(data, expected);
    ASSERT_EQ(memory.impulses.size(), expected.size()) << "step " << step;
    auto it = memory.impulses.begin();
    for (const auto& [key, p] : expected) {
      EXPECT_EQ(it->first, key) << "step " << step;
      EXPECT_EQ(it->second, p) << "step " << step;
      ++it;
    }
  }
}

void expect_same_in_order(const ImpulseMemory& memory, const ImpulseMemory& expected, int step) {
  ASSERT_EQ(memory.size(), expected.size()) << "step " << step;
  auto it = memory.begin();
  for (const auto& [key, p] : expected) {
    ASSERT_EQ(it->first, key) << "step " << step;
    ASSERT_EQ(it->second, p) << "step " << step;
    ++it;
  }
}

// A step with other keys erases the last step's keys that are not this step's, found by a merge of the two sorted
// lists when the memory holds exactly the keys it was left with. Random subsets of 40 keys in random order, most
// steps changing some; now and then the memory is written between steps: an entry added, one erased, or one
// replaced by another key, which keeps its size (the merge would miss it).
TEST(WarmStartMemory, RememberAfterOtherKeysIsTheFullUpdateEntryForEntryInOrder) {
  const World world = load_scene_string(kScene, "ball.xml");
  const AssemblyStage stage(world.model, ProblemNeeds{});
  StepData data(world.model);
  WarmStartMemory memory;
  ImpulseMemory expected;
  std::vector<ContactKey> all;
  for (int k = 0; k < 40; ++k) all.push_back({k % 7, 7 + k % 5, k / 35});
  std::mt19937 random(3);
  std::uniform_int_distribution<int> coin(0, 9), which(0, 39);
  std::vector<char> in(all.size(), 0);
  int written = 0;
  for (int step = 0; step < 300; ++step) {
    if (coin(random) < 7)
      for (int flips = 1 + coin(random) % 4; flips > 0; --flips) in[which(random)] ^= 1;
    std::vector<ContactKey> keys;
    for (std::size_t k = 0; k < all.size(); ++k)
      if (in[k]) keys.push_back(all[k]);
    std::shuffle(keys.begin(), keys.end(), random);
    if (coin(random) == 0 && !expected.empty()) {   // the memory written between steps
      const ContactKey first = expected.begin()->first, other{99, 100 + step, 0};
      switch (written++ % 3) {
        case 0: memory.impulses[other] = expected[other] = Eigen::Vector3d(-1, 0, 0); break;
        case 1: memory.impulses.erase(first), expected.erase(first); break;
        case 2:   // replaced: the same size, another key
          memory.impulses.erase(first), expected.erase(first);
          memory.impulses[other] = expected[other] = Eigen::Vector3d(-2, 0, 0);
          break;
      }
    }
    fill_step(keys, step, data);
    stage.remember(data, memory);
    full_update(data, expected);
    expect_same_in_order(memory.impulses, expected, step);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(written, 20);
}

// AssemblyStage::assemble reads the memory into each row's guesses (p_N, p_S, p_T): the entry of the row's contact
// key, zero for a key the memory does not hold (sim/assembly.cpp, warm_start_guesses, a loop of its own after the
// rows). Islands of several contacts, a third of their keys left out of the memory and one key of no contact in it.
TEST(WarmStartMemory, AssemblyGuessesAreTheMemorysEntriesOfTheRowsKeys) {
  const World world = load_scene_string(test::islands_scene(1e-3), "islands.xml");
  Stepper stepper(world.model, "max_dissipation", 1e-3, 1);
  State state = world.initial;
  for (int k = 0; k < 5; ++k) stepper.step(state);
  StepData data = stepper.data();
  ASSERT_GT(data.contacts.size(), 4u);
  WarmStartMemory memory;
  const auto key_of = [&](int i) {
    const ContactPoint& c = data.contacts[i];
    return ContactKey{c.geom_a, c.geom_b, c.feature};
  };
  for (int i = 0; i < static_cast<int>(data.contacts.size()); ++i)
    if (i % 3 != 0) memory.impulses[key_of(i)] = Eigen::Vector3d(i + 0.25, -i, 2 * i + 0.5);
  memory.impulses[ContactKey{999, 1000, 0}] = Eigen::Vector3d(7, 8, 9);
  stepper.assembly().assemble(state, 1e-3, memory, data);
  int rows = 0;
  for (std::size_t k = 0; k < data.islands.size(); ++k) {
    const ContactProblem& P = data.problems[k];
    ASSERT_EQ(P.nc, static_cast<int>(data.islands[k].contacts.size()));
    for (int r = 0; r < P.nc; ++r, ++rows) {
      const int i = data.islands[k].contacts[r];
      const Eigen::Vector3d expected = i % 3 != 0 ? memory.impulses.at(key_of(i)) : Eigen::Vector3d::Zero();
      EXPECT_EQ(P.p_N_guess[r], expected[0]) << "contact " << i;
      EXPECT_EQ(P.p_S_guess[r], expected[1]) << "contact " << i;
      EXPECT_EQ(P.p_T_guess[r], expected[2]) << "contact " << i;
    }
  }
  EXPECT_EQ(rows, static_cast<int>(data.contacts.size()));
}

}  // namespace
}  // namespace impetus
