// Restart points (sim/restart_point.hpp): the State with the stepper's memory (Stepper::memory) is all a step
// depends on, so a run resumed mid-way from one — written to a file and read back — continues bit for bit
// as the uninterrupted run, under every contact model (the ECP's body–plane warm starts included) and with
// controllers (held and lagged τ, ∫e, the impulses id_sensed reads two steps late, the ID warm starts).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "base/load_error.hpp"
#include "contact/factory.hpp"
#include "scene_fixture.hpp"
#include "sim/restart_point.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

bool same_bits(const State& a, const State& b) {
  return a.t == b.t && a.q.size() == b.q.size() && a.v.size() == b.v.size() && a.q == b.q && a.v == b.v;
}

/// `before` steps, a restart point through a file, `after` steps more; returns the point taken.
RestartPoint step_through_file(const WorldModel& model, Stepper& stepper, State& state, int before, int after,
                               const std::string& file, StepperMemory* written = nullptr) {
  for (int i = 0; i < before; ++i) stepper.step(state);
  write_restart_point(file, {state, stepper.memory()});
  if (written) *written = stepper.memory();
  for (int i = 0; i < after; ++i) stepper.step(state);
  return read_restart_point(file, model);
}

TEST(Restart, AResumedRunIsBitIdenticalToTheUninterruptedOneUnderEveryModel) {
  // Scenes whose contacts persist across the restart (so the warm starts matter): a sliding box, spheres
  // that land and rest; under ecp a box pushed across the ground, whose pair is warm-started step to step.
  struct Case {
    std::string scene;
    int before, after;   // steps before and after the restart point
  };
  const test::TempDir dir("restart");
  for (const ContactModelInfo& m : contact_models()) {
    // The spheres land after 0.35 s (dt = 1 ms); the ECP scenes step at 10 ms.
    const std::vector<Case> cases = m.needs.hull_plane_pairs
                                        ? std::vector<Case>{{"ecp_box_push.xml", 30, 30}, {"ecp_tbar.xml", 50, 50}}
                                        : std::vector<Case>{{"box_slide.xml", 150, 150}, {"spheres_drop.xml", 450, 100}};
    for (const auto& [scene, before, after] : cases) {
      test::SceneRun whole(scene, m.name);
      const RestartPoint point = step_through_file(whole.world.model, whole.stepper, whole.state, before, after,
                                                   dir.path() + "/" + m.name + "_" + scene + ".restart");

      test::SceneRun resumed(scene, m.name);
      resumed.state = point.state;
      resumed.stepper.restore(point.memory);
      for (int i = 0; i < after; ++i) resumed.step();
      EXPECT_TRUE(same_bits(resumed.state, whole.state)) << scene << " under " << m.name;
      const WarmStartMemory& memory = point.memory.warm_start;
      if (m.needs.hull_plane_pairs) {
        EXPECT_FALSE(memory.body_plane.empty()) << scene << ": no pair to warm-start";
      } else {
        EXPECT_FALSE(memory.impulses.empty()) << scene << ": no contact to warm-start";
      }
    }
  }
}

// The quadruped of models/quadruped standing on its four feet (hips 0.8 rad, knees 1.2 rad: the feet just
// touch), its body height 0.005 + 0.077 sin 0.8 + 0.1 sin 2.0 + 0.01 m, held by one controller.
std::string standing_quadruped(const std::string& model, const std::string& controller) {
  const double height = 0.005 + 0.077 * std::sin(0.8) + 0.1 * std::sin(2.0) + 0.01;
  std::string joints;
  for (const std::string leg : {"LF", "RF", "LH", "RH"})
    joints += "<joint name=\"" + leg + "_Y_2\" position=\"0.8\"/><joint name=\"" + leg + "_Y_3\" position=\"1.2\"/>";
  return R"(<scene name="quad"><physics dt="0.001" contact_model=")" + model + R"(" mu="1"/><ground/>
  <model name="quad" urdf=")" + std::string(IMPETUS_SOURCE_DIR) + R"(/models/quadruped/quadruped.urdf" base="floating">
  <origin xyz="0 0 )" + std::to_string(height) + R"("/>)" + joints + controller + R"(</model></scene>)";
}

TEST(Restart, AResumedRunWithControllersIsBitIdenticalAndNeedsTheControlMemory) {
  // id_sensed reads the impulses of two steps back (sensed_lag 2), calls every second step (rate 2) and
  // applies τ one step late (lag 1), with ∫e (ki); id_lcp_noslip warm-starts its pivoting from its last
  // prediction (without lag: with one, this stance topples); pid calls every third step, two steps late.
  // The restart falls between two calls (an odd step), with a lagged τ pending where there is lag.
  struct Case {
    std::string model, controller;
    bool lagged;   // a lagged τ is pending at the restart
  };
  const Case cases[] = {
      {"stewart_trinkle", R"(<controller type="id_sensed" sensed_lag="2" rate="2" lag="1" kp="100" kd="20" ki="50"/>)", true},
      {"no_slip", R"(<controller type="id_lcp_noslip" kp="100" kd="20" ki="5"/>)", false},
      {"stewart_trinkle", R"(<controller type="pid" rate="3" lag="2" kp="2" kd="0.1" ki="5"/>)", true},
      // id_qp_coulomb starts from its last settled set and (QP6) basis (id_qp.hpp QP19).
      {"max_dissipation", R"(<controller type="id_qp_coulomb" kp="100" kd="20" ki="5"/>)", false},
  };
  constexpr int kBefore = 151, kAfter = 100;   // the feet carry the body from the first steps on
  const test::TempDir dir("restart_control");
  for (const Case& c : cases) {
    const World world = load_scene_string(standing_quadruped(c.model, c.controller), dir.path() + "/quad.xml");
    Stepper whole(world.model, c.model, world.model.physics.dt);
    State state = world.initial;
    StepperMemory written;
    const RestartPoint point =
        step_through_file(world.model, whole, state, kBefore, kAfter, dir.path() + "/quad.restart", &written);
    const ControlMemory& control = point.memory.control;
    ASSERT_EQ(control.slots.size(), 1u);
    EXPECT_EQ(control.step, kBefore);
    EXPECT_EQ(control.slots[0].pending.empty(), !c.lagged) << c.controller;
    EXPECT_NE(control.slots[0].controller.integral.norm(), 0.0) << c.controller;
    if (c.controller.find("id_sensed") != std::string::npos) {
      EXPECT_FALSE(control.applied_before.empty());
    }
    if (c.controller.find("id_lcp_noslip") != std::string::npos) {
      EXPECT_FALSE(control.slots[0].controller.prediction.p_N.empty());
    }
    if (c.controller.find("id_qp_") != std::string::npos) {   // its kept basis, read back to the bit
      const PredictionMemory &read = control.slots[0].controller.prediction,
                             &kept = written.control.slots[0].controller.prediction;
      EXPECT_GT(read.lcp.size(), 0);
      EXPECT_TRUE(read.keys == kept.keys && read.set == kept.set && read.lcp == kept.lcp);
    }

    Stepper resumed(world.model, c.model, world.model.physics.dt);
    State resumed_state = point.state;
    resumed.restore(point.memory);
    for (int i = 0; i < kAfter; ++i) resumed.step(resumed_state);
    EXPECT_TRUE(same_bits(resumed_state, state)) << c.controller;

    // Without the control stage's memory the resumed run is another run: the memory is needed.
    Stepper forgetful(world.model, c.model, world.model.physics.dt);
    State forgetful_state = point.state;
    forgetful.restore({point.memory.warm_start, forgetful.memory().control});
    for (int i = 0; i < kAfter; ++i) forgetful.step(forgetful_state);
    EXPECT_FALSE(same_bits(forgetful_state, state)) << c.controller;
  }
}

TEST(Restart, AVersionOneFileIsReadWithoutTheIdQpBasisAndAnUnknownVersionIsRefused) {
  // Version 1 was written before id_qp_* kept its settled basis (QP19): such a file is the version-2 one
  // without the basis and lcp lines. It is read, every other record as written, and the controller resumes
  // cold (its first call pivots as a fresh one).
  const test::TempDir dir("restart_version");
  const World world = load_scene_string(
      standing_quadruped("max_dissipation", R"(<controller type="id_qp_coulomb" kp="100" kd="20" ki="5"/>)"),
      dir.path() + "/quad.xml");
  Stepper stepper(world.model, "max_dissipation", world.model.physics.dt);
  State state = world.initial;
  const std::string file = dir.path() + "/quad.restart";
  const RestartPoint v2 = step_through_file(world.model, stepper, state, 20, 0, file);
  ASSERT_GT(v2.memory.control.slots.at(0).controller.prediction.lcp.size(), 0);
  std::ifstream in(file);
  std::string line, v1_text, v3_text;
  std::getline(in, line);
  ASSERT_EQ(line, "impetus restart point 2");
  v1_text = "impetus restart point 1\n";
  v3_text = "impetus restart point 3\n";
  while (std::getline(in, line)) {
    v3_text += line + "\n";
    if (line.rfind("basis", 0) != 0 && line.rfind("lcp", 0) != 0) v1_text += line + "\n";
  }
  const RestartPoint v1 = read_restart_point(dir.write("v1.restart", v1_text), world.model);
  EXPECT_TRUE(same_bits(v1.state, v2.state));
  const ControllerMemory &old_memory = v1.memory.control.slots.at(0).controller,
                         &new_memory = v2.memory.control.slots.at(0).controller;
  EXPECT_TRUE(old_memory.prediction.keys.empty() && old_memory.prediction.lcp.size() == 0);
  EXPECT_EQ(old_memory.integral, new_memory.integral);
  Stepper resumed(world.model, "max_dissipation", world.model.physics.dt);
  State resumed_state = v1.state;
  resumed.restore(v1.memory);
  for (int i = 0; i < 10; ++i) resumed.step(resumed_state);
  EXPECT_TRUE(resumed_state.q.allFinite());
  try {
    read_restart_point(dir.write("v3.restart", v3_text), world.model);
    ADD_FAILURE() << "a restart point of an unknown version was read";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 1) << e.what();
  }
}

TEST(Restart, AFileOfAnotherSceneOrCutShortIsRefusedWithItsLine) {
  const test::TempDir dir("restart_refusal");
  test::SceneRun box("box_slide.xml");
  box.step();
  const std::string file = dir.path() + "/box.restart";
  write_restart_point(file, {box.state, box.stepper.memory()});
  const test::SceneRun spheres("spheres_drop.xml");
  try {
    read_restart_point(file, spheres.world.model);
    ADD_FAILURE() << "a restart point of another scene was read";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 3) << e.what();   // q, whose size is the scene's
  }
  std::ifstream in(file);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  const std::string cut = dir.write("cut.restart", first + "\n" + second + "\n");
  try {
    read_restart_point(cut, box.world.model);
    ADD_FAILURE() << "a restart point cut short was read";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 2) << e.what();
  }
}

}  // namespace
}  // namespace impetus
