// `impetus batch`: the selected runs of a manifest (all, a shard, or one index), N at a time, each
// in its own child process (supervisor.hpp), with a progress line and a log of completions.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <vector>

#include "batch/expand.hpp"
#include "batch/manifest.hpp"

namespace impetus::batch {

struct BatchOptions {
  std::filesystem::path out;
  int jobs = 1;
  std::optional<std::size_t> index;                          // --index I
  std::optional<std::pair<std::size_t, std::size_t>> shard;  // --shard i/N
  bool resume = false;     // complete a batch in `out`: run what is missing, discard what is partial
  bool progress = false;   // a progress line on stderr (a terminal)
};

/// Runs the selection. A whole batch (no index or shard) into a folder that already holds runs is
/// refused without `resume`; an index or a shard is idempotent (complete runs are skipped), as
/// Slurm and GNU parallel retries need. Returns 0 when every selected run is "ok", 3 when any is
/// recorded otherwise; throws for bad usage or an output folder it cannot write.
int run_batch(const Manifest& manifest, const std::vector<Run>& runs, const BatchOptions& options, std::ostream& out);

/// `--shard i/N` → (i, N), checked: 0 ≤ i < N.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text);

}  // namespace impetus::batch
