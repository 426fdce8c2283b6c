// Loading shipped scenes and stepping them in tests.
#pragma once

#include <string>

#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace impetus::test {

inline std::string scene_path(const std::string& file) { return std::string(IMPETUS_SOURCE_DIR) + "/scenes/" + file; }

/// A loaded scene with its stepper and state, stepped by the test.
struct SceneRun {
  World world;
  State state;
  Stepper stepper;

  explicit SceneRun(const std::string& file, const std::string& model = "")
      : world(load_scene(scene_path(file))),
        state(world.initial),
        stepper(world.model, model.empty() ? world.model.physics.contact_model : model, world.model.physics.dt) {}
  /// A scene written in the test, `file_name` naming it in load errors.
  SceneRun(const char* xml, const char* file_name, const std::string& model)
      : world(load_scene_string(xml, file_name)), state(world.initial), stepper(world.model, model, world.model.physics.dt) {}

  double dt() const { return stepper.dt(); }
  int steps_for(double seconds) const { return static_cast<int>(std::lround(seconds / dt())); }
  void step() { stepper.step(state); }
  int link(const std::string& name) const { return world.model.multibody.find_link(name); }
  /// Pose of a free body (its floating joint's q).
  Eigen::Vector3d position(const std::string& body) const {
    return state.q.segment<3>(world.model.multibody.links[link(body)].joint.q_index);
  }
  /// The centre-of-mass velocity of a free body (its floating joint's v).
  Eigen::Vector3d velocity(const std::string& body) const {
    return state.v.segment<3>(world.model.multibody.links[link(body)].joint.v_index);
  }
  /// Σ p_N over the last step's contacts.
  double total_normal_impulse() const {
    double sum = 0;
    for (const Eigen::Vector3d& p : stepper.data().impulse) sum += p[0];
    return sum;
  }
};

}  // namespace impetus::test
