// The world: the immutable model a scene file loads into, and the state it starts from.
#pragma once

#include <Eigen/Dense>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collision/geometry.hpp"
#include "collision/height_field.hpp"
#include "contact/compliance.hpp"
#include "contact/contact_model.hpp"
#include "control/actuation.hpp"
#include "control/controller.hpp"
#include "dynamics/model.hpp"
#include "base/load_error.hpp"
#include "sim/urdf/urdf_summary.hpp"

namespace impetus {

/// <physics>: defaults for the run and for every contact pair.
struct PhysicsSettings {
  double dt = 0.001;                                  // s
  double duration = 1.0;                              // s
  std::string contact_model = "stewart_trinkle";
  double mu = 0.5;                                    // Coulomb coefficient of every pair by default
  double mu_viscous = 0.0;                            // viscous coefficient (N·s/m) by default
  std::map<std::string, ModelOptions> model_options;  // <physics><MODEL …/> attributes, by model name
};

/// Self-collision of one <model> (its `self_collision` attribute).
enum class SelfCollision {
  Off,        // no pair of its links is tested (PyBullet's default for URDFs)
  Filtered,   // all but adjacent pairs and pairs in contact at the initial or zero configuration (MoveIt, Drake)
  On,         // every pair (but parent–child ones while exclude_parent_child)
};

/// A pair of links never tested, and why (for `impetus check`).
struct FilteredPair {
  enum class Reason { SelfCollisionOff, Adjacent, InContactInitially, InContactAtZero, Excluded };
  int link_a = -1, link_b = -1;                       // link indices; −1 the ground
  Reason reason = Reason::Excluded;
  int line = 0;                                       // of the <exclude>, or of the <model>
};

/// An <include>: a pair tested whatever the rules say.
struct IncludedPair {
  int link_a = -1, link_b = -1;
  int line = 0;
};

/// The self-collision policy a <model> asked for, for the report.
struct ModelCollision {
  std::string name;
  SelfCollision self_collision = SelfCollision::Off;
  int line = 0;
};

/// Collision settings (scene <physics><collision …/>) and which pairs are tested
/// (sim/scene/scene_collision.hpp decides; collision/pair_filter.hpp applies).
struct CollisionSettings {
  double margin = 0.005;                              // m: pairs closer than this enter the contact stage
  bool exclude_parent_child = true;                   // skip geometry pairs of a link and its parent
  std::vector<int> link_body;                         // per link: its rigid body, named by a link (pair_filter.hpp)
  std::vector<bool> link_movable;                     // per link: false when welded to the world
  std::vector<ModelCollision> models;                 // per <model>
  std::vector<FilteredPair> filtered;                 // link pairs never tested
  std::vector<IncludedPair> included;                 // link pairs always tested
};

/// A per-pair override (<contact a= b= …>); link −1 is the ground.
struct PairMaterial {
  int link_a = -1, link_b = -1;
  double mu = 0, mu_viscous = 0;
  std::optional<SurfaceCompliance> compliance;        // its stiffness and damping; none: as without the <contact>
};

/// A 1-DoF joint written to trajectory.csv as MODEL.JOINT.q / .qd.
struct RecordedJoint {
  std::string column;                                 // "MODEL.JOINT"
  int q_index = 0, v_index = 0;
};

/// A <controller> of a <model>: what it drives and how (control/controller.hpp).
struct ControllerSpec {
  std::string model;                                  // the <model>'s name
  int tree = -1;                                      // its tree
  std::vector<int> links;                             // (na) the link of each driven 1-DoF joint
  std::vector<std::string> joints;                    // (na) "MODEL.JOINT", the control.csv column stems
  ControllerSettings settings;
  DesiredTrajectory trajectory;
  std::shared_ptr<const TrajectorySource> source;   // a closed-loop trajectory (<trot>); null: `trajectory`
};

struct WorldModel {
  std::string name;                                   // scene name
  std::string source_file;                            // the scene file, as given
  PhysicsSettings physics;
  CollisionSettings collision;
  MultibodyModel multibody;                           // every body and robot link; link names are body IDs
  std::vector<Geometry> geometries;
  bool has_ground = false;                            // static plane z = 0, normal +z
  std::shared_ptr<const HeightField> terrain;         // <ground><height_map>: the ground on its rectangle (null: none)
  double ground_mu = 0.5, ground_mu_viscous = 0.0;
  SurfaceCompliance ground_compliance;                // <ground stiffness damping>: rigid unless given
  std::vector<PairMaterial> pair_materials;
  std::vector<RecordedJoint> recorded_joints;
  std::vector<ExternalLoad> loads;                    // <load>: wrenches on bodies
  std::vector<JointActuator> actuators;               // <actuator>: joint efforts and PD control
  std::vector<LoadWarning> warnings;                  // what the loaders repaired (summary.json `warnings`)
  std::vector<ControllerSpec> controllers;            // <controller>: stage 3 (sim/control_stage.hpp)
};

struct State {
  Eigen::VectorXd q;                                  // (nq)
  Eigen::VectorXd v;                                  // (nv)
  double t = 0;                                       // s
};

struct World {
  WorldModel model;
  State initial;
  std::vector<UrdfSummary> urdf_models;               // per <model>, for `impetus check`
};

}  // namespace impetus
