// Restart points: the State with the stepper's warm-start memory (Stepper::warm_start_memory, sim/step_data.hpp)
// is all a step depends on, so a run resumed mid-way from one continues bit for bit as the uninterrupted run,
// under every contact model — the ECP's body–plane warm starts included.
#include <gtest/gtest.h>

#include "contact/factory.hpp"
#include "scene_fixture.hpp"

namespace impetus {
namespace {

bool same_bits(const State& a, const State& b) {
  return a.t == b.t && a.q.size() == b.q.size() && a.v.size() == b.v.size() && a.q == b.q && a.v == b.v;
}

TEST(Restart, AResumedRunIsBitIdenticalToTheUninterruptedOneUnderEveryModel) {
  // Scenes whose contacts persist across the restart (so the warm starts matter): a sliding box, spheres
  // that land and rest; under ecp a box pushed across the ground, whose pair is warm-started step to step.
  struct Case {
    std::string scene;
    int before, after;   // steps before and after the restart point
  };
  for (const ContactModelInfo& m : contact_models()) {
    // The spheres land after 0.35 s (dt = 1 ms); the ECP scenes step at 10 ms.
    const std::vector<Case> cases = m.needs.hull_plane_pairs
                                        ? std::vector<Case>{{"ecp_box_push.xml", 30, 30}, {"ecp_tbar.xml", 50, 50}}
                                        : std::vector<Case>{{"box_slide.xml", 150, 150}, {"spheres_drop.xml", 450, 100}};
    for (const auto& [scene, before, after] : cases) {
      test::SceneRun whole(scene, m.name);
      for (int i = 0; i < before; ++i) whole.step();
      const State restart = whole.state;
      const WarmStartMemory memory = whole.stepper.warm_start_memory();
      for (int i = 0; i < after; ++i) whole.step();

      test::SceneRun resumed(scene, m.name);
      resumed.state = restart;
      resumed.stepper.restore_warm_start_memory(memory);
      for (int i = 0; i < after; ++i) resumed.step();
      EXPECT_TRUE(same_bits(resumed.state, whole.state)) << scene << " under " << m.name;
      if (m.needs.hull_plane_pairs) EXPECT_FALSE(memory.body_plane.empty()) << scene << ": no pair to warm-start";
      else EXPECT_FALSE(memory.impulses.empty()) << scene << ": no contact to warm-start";
    }
  }
}

}  // namespace
}  // namespace impetus
