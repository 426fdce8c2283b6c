// The contact stage solves independent islands on several threads (Stepper's `threads`, sim/worker_pool.hpp):
// each island writes only its own slots and the statistics are summed in island order, so a run is the same
// bits for every thread count, under every contact model.
#include <gtest/gtest.h>

#include "contact/factory.hpp"
#include "islands_scene.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus {
namespace {

bool same_bits(const std::vector<Eigen::Vector3d>& a, const std::vector<Eigen::Vector3d>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

TEST(ParallelIslands, EveryThreadCountGivesTheSameBitsUnderEveryModel) {
  for (const ContactModelInfo& m : contact_models()) {
    // The ECP steps at 10 ms like its scenes (its body–plane pairs), the others at 1 ms.
    const double dt = m.needs.hull_plane_pairs ? 1e-2 : 1e-3;
    const int steps = m.needs.hull_plane_pairs ? 40 : 400;
    const World world = load_scene_string(test::islands_scene(dt), "islands.xml");
    Stepper one(world.model, m.name, dt, 1), two(world.model, m.name, dt, 2), four(world.model, m.name, dt, 4);
    State s1 = world.initial, s2 = world.initial, s4 = world.initial;
    int most_islands = 0;
    for (int k = 0; k < steps; ++k) {
      one.step(s1);
      two.step(s2);
      four.step(s4);
      most_islands = std::max(most_islands, one.data().stats.islands);
      ASSERT_TRUE(s1.q == s2.q && s1.v == s2.v) << m.name << ": 2 threads differ at step " << k;
      ASSERT_TRUE(s1.q == s4.q && s1.v == s4.v) << m.name << ": 4 threads differ at step " << k;
      ASSERT_TRUE(same_bits(one.data().impulse, two.data().impulse)) << m.name << ": impulses, step " << k;
      ASSERT_TRUE(same_bits(one.data().impulse, four.data().impulse)) << m.name << ": impulses, step " << k;
      ASSERT_EQ(one.data().reported.size(), four.data().reported.size()) << m.name << ", step " << k;
      for (std::size_t i = 0; i < one.data().reported.size(); ++i)
        ASSERT_TRUE(one.data().reported[i].impulse == four.data().reported[i].impulse &&
                    one.data().reported[i].p_W == four.data().reported[i].p_W)
            << m.name << ": reported contact " << i << ", step " << k;
      ASSERT_EQ(one.data().stats.contact_energy_change, four.data().stats.contact_energy_change) << m.name;
    }
    // Several islands at once, or the threads had nothing to share.
    EXPECT_GE(most_islands, 4) << m.name;
  }
}

}  // namespace
}  // namespace impetus
