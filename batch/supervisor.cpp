#include "batch/supervisor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "batch/run_inline.hpp"

namespace impetus::batch {

namespace fs = std::filesystem;

namespace {

/// The child's side: limits, output redirected, the run, and an exit without the parent's atexit work.
[[noreturn]] void child_main(const Manifest& manifest, const Run& run, const fs::path& partial, pid_t parent,
                             const sigset_t& mask) {
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(128 + SIGKILL);  // the parent died before the line above
  const rlim_t bytes = static_cast<rlim_t>(manifest.limits.memory_mb * 1024 * 1024);
  const rlimit as{bytes, bytes}, no_core{0, 0};
  setrlimit(RLIMIT_AS, &as);
  setrlimit(RLIMIT_CORE, &no_core);
  std::error_code ec;
  fs::create_directories(partial, ec);
  const int log = open((partial / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log >= 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    close(log);
  }
  int code = 1;
  try {
    code = run_inline(manifest, run, partial).exit_code;
  } catch (const std::exception& e) {  // run.json itself could not be written
    std::fprintf(stderr, "impetus batch: %s\n", e.what());
  }
  std::fflush(nullptr);
  _exit(code);
}

std::string describe(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return "crashed: signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "crashed: exit " + std::to_string(WEXITSTATUS(wait_status)) + " without a record";
}

}  // namespace

Supervisor::Supervisor(const Manifest& manifest, fs::path out) : manifest_(manifest), out_(std::move(out)) {
  // SIGCHLD is blocked and taken with sigtimedwait: a run's end wakes the batch at once.
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old_mask_);
}

Supervisor::~Supervisor() {
  for (const auto& [pid, child] : children_) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

void Supervisor::start(const Run& run) {
  const fs::path partial = partial_root(out_) / (run.id + "." + std::to_string(getpid()));
  fs::remove_all(partial);
  std::fflush(nullptr);
  std::cout.flush();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("batch: fork failed: ") + std::strerror(errno));
  if (pid == 0) child_main(manifest_, run, partial, parent, old_mask_);
  children_[pid] = {&run, partial, std::chrono::steady_clock::now()};
}

std::vector<Finished> Supervisor::wait(std::chrono::milliseconds timeout) {
  std::vector<Finished> done;
  // Sleep until a child ends, the next wall-time limit, or the timeout.
  auto now = std::chrono::steady_clock::now();
  auto until = now + timeout;
  const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(manifest_.limits.wall_time_s));
  for (const auto& [pid, child] : children_) until = std::min(until, child.started + limit);
  if (until > now) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(until - now).count();
    const timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigtimedwait(&chld, nullptr, &ts);
  }
  now = std::chrono::steady_clock::now();
  for (auto& [pid, child] : children_)
    if (!child.timed_out && now - child.started >= limit) {
      child.timed_out = true;
      kill(pid, SIGKILL);
    }
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    auto it = children_.find(pid);
    if (it == children_.end()) continue;
    done.push_back(finish(it->second, status));
    children_.erase(it);
  }
  return done;
}

Finished Supervisor::finish(const Child& child, int wait_status) {
  Finished f{child.run, {}};
  f.record.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - child.started).count();
  const bool exited = WIFEXITED(wait_status);
  f.record.exit_code = exited ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
  const std::string recorded = exited ? read_run_status(child.partial) : "";
  if (child.timed_out) {
    f.record.status = "timeout";
  } else if (!recorded.empty()) {
    f.record.status = recorded;
  } else {
    f.record.status = describe(wait_status);
  }
  // A run that did not record itself is recorded here, with whatever it wrote before it ended.
  if (recorded.empty() || child.timed_out) {
    fs::create_directories(child.partial);
    write_run_json(child.partial, *child.run, f.record);
  }
  const fs::path target = run_folder(out_, *child.run);
  std::error_code ec;
  fs::rename(child.partial, target, ec);
  if (ec) {  // completed meanwhile by another process (a rename never replaces a complete run)
    f.already_complete = fs::exists(target / "run.json");
    if (!f.already_complete) throw std::runtime_error("batch: cannot move " + child.partial.string() + " to " +
                                                      target.string() + ": " + ec.message());
    fs::remove_all(child.partial);
  }
  return f;
}

}  // namespace impetus::batch
