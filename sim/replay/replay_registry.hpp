// Named, versioned benchmark replays (issue 14): robot, terrain, task, trajectory, controller and contact
// model, built into a scene (and its desired-trajectory table) in the run folder, run like any scene, with
// the metrics of seed 004's tables in metrics.json (replay_metrics.hpp).
//
// Replays:
//   links_stance    LINKS stands still at init.xml's pose (seed 004 §7.1: Σ f_N = 47.088 N)
//   links_trot      LINKS trots seed 004's waypoints (§7.2; control/gait/); on the height map the plan is
//                   for a flat ground at the map's mid-height (the planner does not read the terrain)
//   arm7_grasp      seed 004's manipulator (§7.3): arm7_hand holds the 6000 kg/m³ box, placed in the hand
//                   at q = π/2 by forward kinematics, while its 7 joints follow q_des = π/2 − 0.1(1 − cos 10t)
//                   and the fingers are commanded 0.01 rad further closed than π/4; 3 s
//   seed000_grasp   seed 000's grasp (Drumwright, Fig. 1; scenes/grasp_no_slip.xml's robot and boxes): two
//                   fingers squeeze two boxes against gravity, dt = 0.01 s, 1000 steps; the contact models
//                   compared: no_slip against stewart_trinkle (Table I)
//   seed000_walk    seed 000's walk (Tables II, III): LINKS trotting 10 s on the height map under no_slip and
//                   viscous, each solved by principal pivoting and by Lemke
// Terrains: flat (the plane, μ = 0.1, "slippery"), flat_noslip (the plane, μ = ∞ "sticky": the paper's
// no-slip contact, S v⁺ = T v⁺ = 0 as equality constraints, i.e. the no_slip model — not a large μ),
// compliant and compliant_noslip (the same two frictions on seed 004's compliant plane: a spring–damper ground,
// contact/compliance.hpp, on which LINKS at rest sinks 1 mm), height_map (seed 004's rough terrain,
// <ground><height_map/>, seed 1); for the manipulator the friction
// between fingertips and box: box_noslip (μ = ∞, no_slip) and box_mu1 (μ = 1). The contact model is the
// paper's simulator, stewart_trinkle, unless asked, and no_slip on a μ = ∞ terrain (another --model is
// refused there). Replays whose ReplayInfo::models is not empty compare contact models (and their
// solvers, "model:solver"): --model picks one of those.
#pragma once

#include <string>
#include <vector>

#include "sim/replay/replay_metrics.hpp"

namespace impetus {

struct ReplayInfo {
  std::string name;
  std::string what;
  std::vector<std::string> terrains;       // the first is the default
  std::vector<std::string> controllers;    // the first is the default; "none": the scene's own actuators
  std::vector<std::string> models;         // contact models compared ("model" or "model:solver"), the first
                                           // the default; empty: stewart_trinkle, or the terrain's
  double duration = 0;                     // s: the paper's
  int version = 1;                         // bumped when the replay's definition changes its results
};

/// Every replay, in a fixed order.
const std::vector<ReplayInfo>& replay_list();
/// The replay of that name; throws std::invalid_argument listing the names.
const ReplayInfo& find_replay(const std::string& name);

struct ReplayRequest {
  std::string name;
  std::string controller;                  // empty: the replay's default
  std::string terrain;                     // empty: the replay's default
  std::string contact_model;               // empty: the replay's default ("model" or "model:solver")
  double duration = -1;                    // s; < 0: the replay's
};

/// What a run of the replay watches beyond the controller's tables (replay_metrics.hpp's ReplayWatch),
/// by link name: held bodies and their holders, the base that may fall, the waypoints of the COM path.
struct ReplayWatchSpec {
  std::vector<std::pair<std::string, std::string>> held;   // (body link, holder link)
  std::string base;                                         // floating base link; empty: none
  bool waypoints = false;                                   // the trot's waypoint segments (Fig. 17)
  std::vector<int> tracked_joints;                          // indices into the driven joints; empty: all
};
ReplayWatchSpec replay_watch(const std::string& name);
/// The same with the links of the replay's loaded scene (throws std::logic_error for a link it lacks).
ReplayWatch replay_watch(const std::string& name, const WorldModel& model);

/// Writes DIR/replay.xml (and DIR/desired.csv for a planned trajectory) for the request, with the models
/// from models_dir (the repository's models/). Returns the scene's path. Throws std::invalid_argument for
/// an unknown name, controller or terrain.
std::string write_replay_scene(const ReplayRequest& request, const std::string& models_dir, const std::string& dir);

}  // namespace impetus
