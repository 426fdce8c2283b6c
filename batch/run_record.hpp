// A batch's output folder:
//   DIR/<run id>/          a run, complete: the files of `impetus run` plus run.json. It appears
//                          only by an atomic rename, so a folder that exists is complete.
//   DIR/.partial/<id>.<pid>/   a run under way (or left by a killed batch; --resume discards it)
//   DIR/manifest.toml      the manifest the batch ran (compare reads its tolerances)
//   DIR/batch.log          one line per run completed: "<id> <status>", appended atomically
#pragma once

#include <filesystem>
#include <string>

#include "batch/expand.hpp"

namespace impetus::batch {

/// What `impetus batch` records of a run in run.json, besides the run's own summary.json.
struct RunRecord {
  std::string status;        // the run's status ("ok", "diverged", "stopped: …"), or "error: …" (refused
                             // input), "timeout" (killed at the wall-time limit), "crashed: …" (signal or exit)
  double wall_time_s = 0;    // the run's process, start to end (loading and writing included)
  int exit_code = 0;         // of the run's process; 128 + signal when killed
};

std::filesystem::path run_folder(const std::filesystem::path& out, const Run& run);
std::filesystem::path partial_root(const std::filesystem::path& out);

/// Writes DIR/run.json: the record and the run's parameters.
void write_run_json(const std::filesystem::path& dir, const Run& run, const RunRecord& record);

/// The status in DIR/run.json; empty when there is none (not a batch run, or unreadable).
std::string read_run_status(const std::filesystem::path& dir);

/// Exit status of a run's process for a recorded status: 0 "ok", 1 input refused, 3 anything else.
int exit_code_for(const std::string& status);

}  // namespace impetus::batch
