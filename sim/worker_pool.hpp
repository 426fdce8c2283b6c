// A fixed set of threads that run the items of one loop in parallel: the contact stage solves its
// independent islands on them (sim/stepper.cpp). Items are handed out in contiguous chunks from a
// shared counter, so which thread runs an item varies from call to call; a caller whose items write only their
// own slots (and read nothing another item writes) gets the same bits whatever the thread count.
// A call allocates nothing, so the step loop stays allocation-free once warm.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace impetus {

class WorkerPool {
 public:
  /// threads ≥ 1: the calling thread and threads − 1 workers started here.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls f(item, thread) once for every item in [0, items), thread in [0, threads()) naming the thread
  /// that runs it (0 is the caller), and returns when all have returned. The first exception thrown by f
  /// is rethrown here, after the other items ran.
  template <class F>
  void run(int items, F& f) {
    run_erased(items, &f, [](void* fp, int item, int thread) { (*static_cast<F*>(fp))(item, thread); });
  }

  /// run() hands the items out in contiguous chunks, each run whole by one thread: chunks(items) of them, item
  /// in chunk chunk_of(item, items) (one chunk when run() loops on the caller alone). Buffers kept per chunk
  /// are used by one thread at a time and, while the item count stays, always by the same items.
  int chunks(int items) const { return sequential(items) ? 1 : (items + chunk_size(items) - 1) / chunk_size(items); }
  int chunk_of(int item, int items) const { return sequential(items) ? 0 : item / chunk_size(items); }

 private:
  using Call = void (*)(void* f, int item, int thread);
  void run_erased(int items, void* f, Call call);
  bool sequential(int items) const { return workers_.empty() || items <= 1; }
  /// Contiguous chunks, a few per thread: neighbouring items write neighbouring memory (false sharing
  /// otherwise), and a thread that runs late still finds work.
  int chunk_size(int items) const { return std::max(1, items / (threads() * kChunksPerThread)); }
  void work(int thread);
  void drain(int thread);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  static constexpr int kChunksPerThread = 8;
  std::uint64_t generation_ = 0;     // one per run(); a worker joins each generation at most once
  bool stopping_ = false;
  bool open_ = false;                // workers may still join the current run (its caller is draining)
  int active_ = 0;                   // workers in the current run
  // The current run's loop.
  void* f_ = nullptr;
  Call call_ = nullptr;
  int items_ = 0;
  int chunk_ = 1;                    // items taken at a time
  std::atomic<int> next_{0};
  std::exception_ptr error_;
};

/// pool->run(items, f), or the same loop on this thread when there is no pool.
template <class F>
void for_each_item(WorkerPool* pool, int items, F& f) {
  if (pool != nullptr) {
    pool->run(items, f);
    return;
  }
  for (int i = 0; i < items; ++i) f(i, 0);
}

/// The cores this process may run on: its CPU affinity mask (what taskset, cgroups' cpusets and
/// Slurm's --cpus-per-task leave it), not the machine's core count; at least 1.
int available_cores();

/// The thread count an option asks for: n ≥ 1 as given, 0 for every available core.
int resolve_thread_count(int requested);

}  // namespace impetus
