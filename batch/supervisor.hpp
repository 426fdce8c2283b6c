// Runs as child processes: a run that crashes, runs out of memory or time is recorded as such and
// never takes the batch down. A child is this process forked (no exec: nothing to look up, ~1 ms),
// with RLIMIT_AS at the manifest's memory limit, its output in the run's log.txt, and killed with
// its parent (PR_SET_PDEATHSIG), so a killed batch leaves no run finishing behind its back.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "batch/manifest.hpp"
#include "batch/run_record.hpp"

namespace impetus::batch {

/// How a run ended, as the supervisor saw it.
struct Finished {
  const Run* run;
  RunRecord record;
  bool already_complete = false;  // another process completed it first; nothing was replaced
};

class Supervisor {
 public:
  Supervisor(const Manifest& manifest, std::filesystem::path out);
  ~Supervisor();  // kills runs still going (their partial folders stay for --resume)

  /// Forks a child for `run` into DIR/.partial/<id>.<pid>/.
  void start(const Run& run);
  std::size_t running() const { return children_.size(); }

  /// Waits up to `timeout` for runs to end (killing those past the wall-time limit), moves each
  /// ended run's folder into place and returns them.
  std::vector<Finished> wait(std::chrono::milliseconds timeout);

 private:
  struct Child {
    const Run* run;
    std::filesystem::path partial;
    std::chrono::steady_clock::time_point started;
    bool timed_out = false;
  };
  Finished finish(const Child& child, int wait_status);

  const Manifest& manifest_;
  std::filesystem::path out_;
  std::map<pid_t, Child> children_;
  sigset_t old_mask_;
};

}  // namespace impetus::batch
