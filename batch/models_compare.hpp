// `impetus models-compare SCENE`: one scene under every contact model, side by side in one
// self-contained page: the bodies' trajectories overlaid, energy, penetration, contacts and solver
// work over time, and a table of each run's summary. The runs go through the batch machinery (a
// generated manifest, one child process per model), so a model that crashes or diverges is shown
// as such and the others still are.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace impetus::batch {

struct ModelsCompareOptions {
  std::filesystem::path out;        // default runs/<scene stem>-models/
  std::vector<std::string> models;  // default: every model of `impetus models`
  double dt = 0, duration = -1;     // 0 / < 0: the scene's
  double record_dt = 0.01;
  int jobs = 1;
  bool progress = false;
};

/// Runs and writes OUT/models.html; returns 0 when every model's run is "ok", 3 otherwise.
int models_compare(const std::string& scene, ModelsCompareOptions options, std::ostream& out);

/// Bodies shown in the trajectory plots, those that move most: a scene of hundreds of bodies
/// would make a page nobody reads.
constexpr std::size_t kModelsCompareBodies = 4;

}  // namespace impetus::batch
