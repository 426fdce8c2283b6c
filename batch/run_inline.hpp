// One run, in this process: the scene with its overrides, through run_simulation (the code path of
// `impetus run`), into a folder, with run.json written last.
#pragma once

#include <filesystem>

#include "batch/manifest.hpp"
#include "batch/run_record.hpp"

namespace impetus::batch {

/// Never throws for a run's failure: refused input is recorded as "error: …".
RunRecord run_inline(const Manifest& manifest, const Run& run, const std::filesystem::path& dir);

}  // namespace impetus::batch
