// A manifest's runs: the products of its axes, minus the excluded, each with a stable id.
//
// Order: matrices in file order; within one, scenes, models, dt, duration, then the model's option
// axes and the scene parameter axes, each in key order (TOML tables are read sorted) and each in
// the order its values are written. Ids are built from the parameters alone (the scene as written
// in the manifest, never an absolute path), so a manifest gives the same ids in the same order on
// every machine.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "batch/manifest.hpp"

namespace impetus::batch {

/// One scene override: an attribute of the scene file set to a value before loading.
/// path "physics/@mu", "physics/stewart_trinkle/@friction_edges", "body[box]/velocity/@linear".
struct Override {
  std::string path, value;
};

struct Run {
  std::string id;             // readable, unique in the manifest, safe as a folder name
  std::string scene;          // as written in the manifest
  std::string scene_path;     // resolved
  std::string model;          // empty: the scene's
  double dt = 0;              // s; 0: the scene's
  double duration = -1;       // s; < 0: the scene's
  std::vector<Override> overrides;  // model options first, then scene parameters
  /// The parameters as "key=value" words, in id order (what `--list` prints after the id).
  std::vector<std::string> parameters() const;
};

std::vector<Run> expand(const Manifest& manifest);

/// The runs of shard i of n (every n-th, starting at i): shards 0..n−1 partition the runs.
std::vector<std::size_t> shard_indices(std::size_t runs, std::size_t i, std::size_t n);

/// Readable ids longer than this get shortened to their head plus a hash.
constexpr std::size_t kMaxReadableId = 96;

}  // namespace impetus::batch
