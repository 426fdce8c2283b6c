#include "batch_commands.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "batch/batch_runner.hpp"
#include "batch/compare_report.hpp"
#include "batch/emit.hpp"
#include "batch/models_compare.hpp"
#include "sim/worker_pool.hpp"

namespace impetus {

namespace fs = std::filesystem;
using namespace impetus::batch;

struct BatchCommands::Options {
  CLI::App *batch = nullptr, *compare = nullptr, *models = nullptr;
  // batch
  std::string manifest, out, shard, emit;
  int jobs = 1;
  long index = -1;
  bool resume = false, list = false;
  // compare
  std::string baseline, candidate, compare_manifest, report;
  // models-compare
  std::string scene, models_out, models_list;
  double dt = 0, duration = -1, record_dt = 0.01;
  int models_jobs = 0;
};

namespace {

std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("impetus") : p.string();
}

int default_jobs() { return available_cores(); }

}  // namespace

BatchCommands::BatchCommands(CLI::App& app) : o_(std::make_unique<Options>()) {
  Options& o = *o_;
  o.batch = app.add_subcommand("batch", "run a manifest's runs (README \"Batch runs\")");
  o.batch->add_option("manifest", o.manifest, "manifest (.toml)")->required();
  o.batch->add_option("--out", o.out, "output folder: one run folder per run id");
  o.batch->add_option("--jobs", o.jobs, "runs at a time, each its own process (default 1)")->check(CLI::PositiveNumber);
  auto* index = o.batch->add_option("--index", o.index, "run only run I (0-based, the order of --list)")
                    ->check(CLI::NonNegativeNumber);
  o.batch->add_option("--shard", o.shard, "run every N-th run from i: i/N")->excludes(index);
  o.batch->add_flag("--resume", o.resume, "complete a batch in --out: run what is missing or was cut short");
  o.batch->add_flag("--list", o.list, "print the runs, one per line: id, then parameters");
  o.batch->add_option("--emit", o.emit, "print a Slurm array script or a GNU parallel command line")
      ->check(CLI::IsMember({"slurm", "parallel"}));

  o.compare = app.add_subcommand("compare", "compare two batch folders; exit 2 on any regression");
  o.compare->add_option("baseline", o.baseline, "baseline batch folder (e.g. goldens)")->required();
  o.compare->add_option("candidate", o.candidate, "candidate batch folder")->required();
  o.compare->add_option("--manifest", o.compare_manifest, "manifest whose [tolerances] apply (default: the candidate's)");
  o.compare->add_option("--report", o.report, "folder for compare.md and compare.html (default: the candidate)");

  o.models = app.add_subcommand("models-compare", "one scene under every contact model, side by side (models.html)");
  o.models->add_option("scene", o.scene, "scene file (.xml)")->required();
  o.models->add_option("--out", o.models_out, "output folder (default runs/<scene>-models/)");
  o.models->add_option("--models", o.models_list, "comma-separated models (default: all)");
  o.models->add_option("--dt", o.dt, "time step in s (default: the scene's)")->check(CLI::PositiveNumber);
  o.models->add_option("--duration", o.duration, "simulated time in s (default: the scene's)")
      ->check(CLI::NonNegativeNumber);
  o.models->add_option("--record-dt", o.record_dt, "recording interval in s (default 0.01)")->check(CLI::NonNegativeNumber);
  o.models->add_option("--jobs", o.models_jobs, "runs at a time (default: one per core)")->check(CLI::PositiveNumber);
}

BatchCommands::~BatchCommands() = default;

bool BatchCommands::parsed() const { return o_->batch->parsed() || o_->compare->parsed() || o_->models->parsed(); }

int BatchCommands::run() const {
  const Options& o = *o_;
  if (o.batch->parsed()) {
    const Manifest manifest = load_manifest(o.manifest);
    const std::vector<Run> runs = expand(manifest);
    if (o.list) {
      for (const Run& r : runs) {
        std::cout << r.id << "  scene=" << r.scene;
        for (const std::string& p : r.parameters()) std::cout << ' ' << p;
        std::cout << '\n';
      }
      return 0;
    }
    if (o.out.empty()) throw std::invalid_argument("batch: --out DIR is required (except with --list)");
    const fs::path out = fs::absolute(o.out).lexically_normal();
    if (!o.emit.empty()) {
      fs::create_directories(out / ".slurm");
      EmitTarget target{self_path(), manifest.path, out, runs.size(), o.batch->count("--jobs") ? o.jobs : 0};
      std::cout << (o.emit == "slurm" ? emit_slurm(manifest, target) : emit_parallel(manifest, target));
      return 0;
    }
    BatchOptions options;
    options.out = out;
    options.jobs = o.jobs;
    if (o.index >= 0) options.index = static_cast<std::size_t>(o.index);
    if (!o.shard.empty()) options.shard = parse_shard(o.shard);
    options.resume = o.resume;
    options.progress = isatty(STDERR_FILENO);
    return run_batch(manifest, runs, options, std::cout);
  }
  if (o.compare->parsed()) {
    const std::optional<fs::path> manifest =
        o.compare_manifest.empty() ? std::nullopt : std::optional<fs::path>(o.compare_manifest);
    const Comparison c = compare_batches(o.baseline, o.candidate, manifest);
    const fs::path report = o.report.empty() ? fs::path(o.candidate) : fs::path(o.report);
    fs::create_directories(report);
    write_compare_md(c, report / "compare.md");
    write_compare_html(c, report / "compare.html", o.baseline, o.candidate);
    print_comparison(c, std::cout);
    std::cout << "report: " << (report / "compare.md").string() << ", " << (report / "compare.html").string() << '\n';
    return c.regressions() > 0 ? 2 : 0;
  }
  ModelsCompareOptions options;
  options.out = o.models_out;
  for (std::size_t begin = 0; begin < o.models_list.size();) {
    const std::size_t end = std::min(o.models_list.find(',', begin), o.models_list.size());
    options.models.push_back(o.models_list.substr(begin, end - begin));
    begin = end + 1;
  }
  options.dt = o.dt;
  options.duration = o.duration;
  options.record_dt = o.record_dt;
  options.jobs = o.models_jobs > 0 ? o.models_jobs : default_jobs();
  options.progress = isatty(STDERR_FILENO);
  return models_compare(o.scene, options, std::cout);
}

}  // namespace impetus
