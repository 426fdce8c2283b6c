// Named, versioned benchmark replays (issue 14): robot, terrain, task, trajectory, controller and contact
// model, built into a scene (and its desired-trajectory table) in the run folder, run like any scene, with
// the metrics of seed 004's tables in metrics.json (replay_metrics.hpp).
//
// Replays so far:
//   links_stance   LINKS stands still at init.xml's pose (seed 004 §7.1: Σ f_N = 47.088 N)
//   links_trot     LINKS trots seed 004's waypoints (§7.2; control/gait/), on flat terrains only (the
//                  planner does not yet place feet on a height map)
// Terrains: flat (the plane, μ = 0.1, "slippery"), flat_noslip (the plane, μ = ∞ "sticky": the paper's
// no-slip contact, S v⁺ = T v⁺ = 0 as equality constraints, i.e. the no_slip model — not a large μ),
// height_map (seed 004's rough terrain, <ground><height_map/>, seed 1). The contact model is the paper's
// simulator, stewart_trinkle, unless asked, and no_slip on flat_noslip (another --model is refused there).
#pragma once

#include <string>
#include <vector>

namespace impetus {

struct ReplayInfo {
  std::string name;
  std::string what;
  std::vector<std::string> terrains;       // the first is the default
  std::vector<std::string> controllers;    // the first is the default
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
  std::string contact_model;               // empty: stewart_trinkle
  double duration = -1;                    // s; < 0: the replay's
};

/// Writes DIR/replay.xml (and DIR/desired.csv for a planned trajectory) for the request, with the models
/// from models_dir (the repository's models/). Returns the scene's path. Throws std::invalid_argument for
/// an unknown name, controller or terrain.
std::string write_replay_scene(const ReplayRequest& request, const std::string& models_dir, const std::string& dir);

}  // namespace impetus
