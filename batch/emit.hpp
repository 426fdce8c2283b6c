// Hand-offs to the engines that fan runs out (Impetus has no scheduler of its own): each task is
// `impetus batch MANIFEST --out DIR --index I`, one idempotent run.
#pragma once

#include <filesystem>
#include <string>

#include "batch/manifest.hpp"

namespace impetus::batch {

struct EmitTarget {
  std::string impetus;              // absolute path of the program the tasks run
  std::filesystem::path manifest;   // absolute
  std::filesystem::path out;        // absolute
  std::size_t runs = 0;
  int jobs = 0;                     // parallel: --jobs (0: the manifest's, else one per core)
};

/// An sbatch script: one array task per run (%K from [slurm] max_parallel), the task time limit the
/// manifest's wall-time limit plus a margin for loading and writing, memory its memory limit.
std::string emit_slurm(const Manifest& manifest, const EmitTarget& target);

/// A GNU parallel command line with --joblog DIR/parallel.joblog and --resume-failed: run again,
/// it retries only the tasks that failed or never ran.
std::string emit_parallel(const Manifest& manifest, const EmitTarget& target);

/// A word quoted for the POSIX shell.
std::string shell_quote(const std::string& word);

/// Seconds Slurm's time limit adds to the manifest's wall-time limit: process start, loading the
/// scene and writing the run folder happen outside the run's own clock.
constexpr double kSlurmTimeMargin = 60;

}  // namespace impetus::batch
