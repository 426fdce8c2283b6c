// <load>: an external wrench on a body, and <actuator>, inside a <model>: a driven joint
// (control/actuation.hpp). Both enter τ of stage 3.
#include <cmath>
#include <limits>

#include "base/load_error.hpp"
#include "sim/scene/scene_parts.hpp"

namespace impetus::scene {

void read_load(const xml::Element& element, WorldModel& model) {
  element.allow_only({"body", "force", "torque", "force_amplitude", "torque_amplitude", "frequency", "phase", "start",
                      "end"},
                     {});
  const std::string id = element.text("body");
  ExternalLoad load;
  load.link = model.multibody.find_link(id);
  if (load.link < 0) element.fail_value("body", "a body ID: a <body> name or MODEL/LINK");
  if (model.multibody.trees[model.multibody.links[load.link].tree].nv == 0)
    element.fail("body '" + id + "' cannot move (static, or welded to the world): a load on it does nothing");
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  load.force.constant = element.vector3_or("force", zero);
  load.torque.constant = element.vector3_or("torque", zero);
  load.force.amplitude = element.vector3_or("force_amplitude", zero);
  load.torque.amplitude = element.vector3_or("torque_amplitude", zero);
  const double frequency = element.non_negative_or("frequency", 0);
  const double phase = element.real_or("phase", 0);
  load.force.frequency = load.torque.frequency = frequency;
  load.force.phase = load.torque.phase = Eigen::Vector3d::Constant(phase);
  load.start = element.real_or("start", 0);
  load.end = element.has("end") ? element.real("end") : std::numeric_limits<double>::infinity();
  if (!(load.end > load.start)) element.fail_value("end", "a time after start (" + std::to_string(load.start) + " s)");
  model.loads.push_back(load);
}

JointActuator read_actuator(const xml::Element& element, int link) {
  element.allow_only({"joint", "effort", "kp", "kd", "target", "target_velocity"}, {});
  JointActuator actuator;
  actuator.link = link;
  actuator.effort = element.real_or("effort", 0);
  actuator.kp = element.non_negative_or("kp", 0);
  actuator.kd = element.non_negative_or("kd", 0);
  actuator.target = element.real_or("target", 0);
  actuator.target_velocity = element.real_or("target_velocity", 0);
  return actuator;
}

}  // namespace impetus::scene
