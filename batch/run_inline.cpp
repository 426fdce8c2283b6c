#include "batch/run_inline.hpp"

#include <chrono>
#include <filesystem>

#include "batch/scene_overrides.hpp"
#include "sim/simulation.hpp"

namespace impetus::batch {

RunRecord run_inline(const Manifest& manifest, const Run& run, const std::filesystem::path& dir) {
  const auto start = std::chrono::steady_clock::now();
  RunRecord record;
  std::filesystem::create_directories(dir);
  try {
    const World world = load_scene_with(run.scene_path, run.overrides);
    RunOptions options;
    options.contact_model = run.model;
    options.dt = run.dt;
    options.duration = run.duration;
    options.record_dt = manifest.record_dt;
    options.out_dir = dir.string();
    options.threads = 1;   // the batch runs its runs side by side (--jobs): one thread each
    record.status = run_simulation(world, options).status;
  } catch (const std::exception& e) {
    record.status = std::string("error: ") + e.what();
  }
  record.exit_code = exit_code_for(record.status);
  record.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_run_json(dir, run, record);
  return record;
}

}  // namespace impetus::batch
