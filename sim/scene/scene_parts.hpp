// Internal to the scene loader: the pieces of a scene being built, and one reader per element.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "control/gait/closed_loop_trot.hpp"
#include "sim/urdf/package_path.hpp"
#include "sim/urdf/urdf_model.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"
#include "sim/world.hpp"
#include "sim/xml/document.hpp"

namespace impetus::scene {

/// The initial coordinates the elements ask for, applied once every tree is in the model.
struct InitialValues {
  std::vector<std::pair<int, Eigen::Isometry3d>> floating_poses;     // link → X_WL
  struct BodyVelocity { int link; Eigen::Vector3d v_WL, w_WL; };     // origin velocity, angular velocity
  std::vector<BodyVelocity> body_velocities;
  struct JointValue { int link; double position, velocity; };
  std::vector<JointValue> joint_values;
};

struct SceneBuild {
  std::string file;                         // the scene, as given
  std::string base_dir;                     // its folder: relative paths start here
  std::vector<std::string> package_path;    // ROS_PACKAGE_PATH at load time
  MeshCache meshes;
  WorldModel model;
  InitialValues initial;
  std::vector<int> tree_lines;              // per tree: line of the <body> or <model> that made it
  std::set<std::string> names;              // body and model names taken
  bool strict = false;                      // refuse what the URDF conversion would repair
  std::vector<UrdfSummary> urdf_models;     // per <model>
  std::vector<std::vector<int>> model_links; // per <model> (model.collision.models): its links
};

void read_physics(const xml::Element& physics, WorldModel& model);
void read_ground(const xml::Element& ground, WorldModel& model);
void add_body(const xml::Element& body, SceneBuild& build);
void add_model(const xml::Element& model, SceneBuild& build);
void read_contact(const xml::Element& contact, WorldModel& model);
/// <load body force torque force_amplitude torque_amplitude frequency phase start end/>
void read_load(const xml::Element& load, WorldModel& model);
/// <actuator joint effort kp kd target target_velocity/> of a <model>, driving the joint of `link`.
JointActuator read_actuator(const xml::Element& actuator, int link);

/// A <controller> read before its model is placed (the links of its joints are known only after).
struct ControllerDraft {
  struct DrivenJoint {
    std::string name;
    int urdf_joint = -1;
    int line = 0;
    bool has_generator = false;          // q or a sinusoid given; else the initial position is held
    JointSinusoid generator;
  };
  int line = 0;
  ControllerSettings settings;
  std::string trajectory_file;           // as written; empty: built-in generators
  std::vector<DrivenJoint> joints;       // empty: every 1-DoF joint of the model
  struct Trot {                          // <trot>: the closed-loop trot (control/gait/closed_loop_trot.hpp)
    int line = 0;
    std::vector<std::string> legs;       // the abduction links (URDF names), LF RF LH RH
    ClosedLoopTrotParameters parameters; // plan.path.duration < 0: the scene's duration
  };
  std::optional<Trot> trot;
};
/// <controller type … trajectory …><joint name q | offset amplitude frequency phase/>…<trot …/></controller>.
ControllerDraft read_controller(const xml::Element& controller, const UrdfModel& urdf, const std::string& urdf_path);
/// Adds the controller of a placed model; `initial_position`: URDF joint → its <joint position>.
void add_controller(const ControllerDraft& draft, const xml::Element& model_element, const std::string& model_name,
                    const UrdfModel& urdf, const UrdfInstance& instance, const std::map<int, double>& initial_position,
                    SceneBuild& build);
/// The mesh_collision attribute of a <body> or <model>: "hull" (default; false) or "exact" (true).
bool exact_mesh_collision(const xml::Element& element);

/// Refuses a name already taken, empty, with '/' (or `extra_forbidden`), or "ground"; then takes it.
void claim_name(const xml::Element& element, const std::string& name, const std::string& extra_forbidden,
                SceneBuild& build);

}  // namespace impetus::scene
