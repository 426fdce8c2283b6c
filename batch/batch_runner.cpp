#include "batch/batch_runner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <ostream>
#include <stdexcept>

#include "batch/run_record.hpp"
#include "batch/supervisor.hpp"

namespace impetus::batch {

namespace fs = std::filesystem;

namespace {

/// How often the progress line is redrawn while runs go on.
constexpr std::chrono::milliseconds kProgressInterval{500};

/// Appends one line with one write(2) to an O_APPEND file: whole lines, even from concurrent batches.
void append_line(const fs::path& file, const std::string& line) {
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  const std::string text = line + "\n";
  [[maybe_unused]] const ssize_t n = write(fd, text.data(), text.size());
  close(fd);
}

/// The manifest beside the runs, for compare's tolerances; replaced atomically.
void keep_manifest(const Manifest& manifest, const fs::path& out) {
  // Named by host and process: array tasks on several nodes may write it at once.
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const fs::path temp = out / (".manifest.toml." + std::string(host) + "." + std::to_string(getpid()));
  fs::copy_file(manifest.path, temp, fs::copy_options::overwrite_existing);
  fs::rename(temp, out / "manifest.toml");
}

class ProgressLine {
 public:
  ProgressLine(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
  void show(std::size_t done, std::size_t failed, std::size_t running) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::string eta = "ETA –";
    if (done > 0) eta = "ETA " + std::to_string(static_cast<long>(elapsed / done * (total_ - done) + 0.5)) + " s";
    std::fprintf(stderr, "\rbatch: %zu/%zu done, %zu failed, %zu running, %s   ", done, total_, failed, running,
                 eta.c_str());
    shown_ = true;
  }
  void clear() {
    if (shown_) std::fprintf(stderr, "\r%78s\r", "");
  }

 private:
  bool enabled_, shown_ = false;
  std::size_t total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  std::size_t i = 0, n = 0;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    std::size_t used = 0;
    i = std::stoul(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("");
    n = std::stoul(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw std::invalid_argument("--shard: expected i/N (e.g. 0/4), got '" + text + "'");
  }
  if (n == 0 || i >= n) throw std::invalid_argument("--shard: expected 0 ≤ i < N, got " + text);
  return {i, n};
}

int run_batch(const Manifest& manifest, const std::vector<Run>& runs, const BatchOptions& options, std::ostream& out) {
  std::vector<std::size_t> selected;
  if (options.index) {
    if (*options.index >= runs.size())
      throw std::invalid_argument("--index " + std::to_string(*options.index) + ": the manifest has " +
                                  std::to_string(runs.size()) + " runs (0 … " + std::to_string(runs.size() - 1) + ")");
    selected = {*options.index};
  } else if (options.shard) {
    selected = shard_indices(runs.size(), options.shard->first, options.shard->second);
  } else {
    selected = shard_indices(runs.size(), 0, 1);
  }
  const bool whole = !options.index && !options.shard;

  fs::create_directories(partial_root(options.out));
  if (whole && !options.resume) {
    bool holds_runs = !fs::is_empty(partial_root(options.out));
    for (const Run& r : runs) holds_runs |= fs::exists(run_folder(options.out, r));
    if (holds_runs)
      throw std::invalid_argument(options.out.string() +
                                  " already holds runs of a batch: --resume completes it, or choose another --out");
  }
  keep_manifest(manifest, options.out);

  // Partial folders are runs that never completed: a whole batch owns them all, an index or a shard
  // only its own runs' (others may be under way in other processes).
  if (whole) {
    for (const auto& entry : fs::directory_iterator(partial_root(options.out))) fs::remove_all(entry.path());
  } else {
    for (const auto& entry : fs::directory_iterator(partial_root(options.out))) {
      const std::string name = entry.path().filename().string();
      const std::string id = name.substr(0, name.rfind('.'));
      for (std::size_t k : selected)
        if (runs[k].id == id && name.substr(name.rfind('.') + 1) != std::to_string(getpid())) fs::remove_all(entry.path());
    }
  }

  std::deque<const Run*> pending;
  std::size_t done = 0, failed = 0;
  for (std::size_t k : selected) {
    const fs::path folder = run_folder(options.out, runs[k]);
    if (fs::exists(folder)) {
      ++done;
      if (read_run_status(folder) != "ok") ++failed;
    } else {
      pending.push_back(&runs[k]);
    }
  }
  const std::size_t skipped = done;

  ProgressLine progress(options.progress, selected.size());
  Supervisor supervisor(manifest, options.out);
  const std::size_t jobs = static_cast<std::size_t>(std::max(1, options.jobs));
  while (!pending.empty() || supervisor.running() > 0) {
    while (!pending.empty() && supervisor.running() < jobs) {
      supervisor.start(*pending.front());
      pending.pop_front();
    }
    progress.show(done, failed, supervisor.running());
    for (const Finished& f : supervisor.wait(kProgressInterval)) {
      ++done;
      const std::string status = f.already_complete ? read_run_status(run_folder(options.out, *f.run)) : f.record.status;
      if (status != "ok") ++failed;
      if (!f.already_complete) append_line(options.out / "batch.log", f.run->id + " " + f.record.status);
      if (!options.progress || status != "ok") {
        progress.clear();
        char wall[32];
        std::snprintf(wall, sizeof wall, "%.2f s", f.record.wall_time_s);
        out << "[" << done << "/" << selected.size() << "] " << f.run->id << ": " << status
            << (f.already_complete ? " (completed by another process)" : "") << ", " << wall << std::endl;
      }
    }
  }
  progress.clear();
  if (whole || selected.size() > 1)
    out << "batch " << manifest.name << ": " << selected.size() << " runs, " << (selected.size() - failed) << " ok, "
        << failed << " not ok" << (skipped ? ", " + std::to_string(skipped) + " complete before" : std::string())
        << "; " << options.out.string() << "/" << std::endl;
  if (options.index) return exit_code_for(read_run_status(run_folder(options.out, runs[*options.index])));
  return failed == 0 ? 0 : 3;
}

}  // namespace impetus::batch
