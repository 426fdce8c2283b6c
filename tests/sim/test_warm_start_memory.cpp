// AssemblyStage::remember leaves the warm-start memory holding exactly this step's contact keys with their
// impulses. Its shortcut for a step with the last step's keys (no sort, no search of every entry) must leave
// the memory as the full update does, entry for entry and in the same iteration order (a restart point writes
// the memory in that order): checked against the full update on a copy, over a sequence of steps that keeps,
// drops, adds and repeats keys, and one whose memory was changed between steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "scene_fixture.hpp"
#include "sim/assembly_stage.hpp"

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

}  // namespace
}  // namespace impetus
