#include "sim/worker_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace impetus {

int resolve_thread_count(int requested) {
  if (requested < 0) throw std::invalid_argument("thread count must be ≥ 0 (0: every core), got " + std::to_string(requested));
  return requested > 0 ? requested : available_cores();
}

int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

WorkerPool::WorkerPool(int threads) {
  if (threads < 1) throw std::invalid_argument("WorkerPool: threads must be ≥ 1, got " + std::to_string(threads));
  workers_.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void WorkerPool::drain(int thread) {
  for (int first = next_.fetch_add(chunk_); first < items_; first = next_.fetch_add(chunk_)) {
    const int end = std::min(first + chunk_, items_);
    for (int item = first; item < end; ++item) {
      try {
        call_(f_, item, thread);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
}

void WorkerPool::work(int thread) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      // A worker that wakes after the caller ran out of items has nothing to join (on a loaded machine the
      // caller does not wait for threads the scheduler has not run yet).
      if (!open_) continue;
      ++active_;
    }
    drain(thread);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_ == 0 && !open_) done_.notify_one();
    }
  }
}

void WorkerPool::run_erased(int items, void* f, Call call) {
  if (sequential(items)) {
    for (int item = 0; item < items; ++item) call(f, item, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    f_ = f;
    call_ = call;
    items_ = items;
    chunk_ = chunk_size(items);
    next_.store(0);
    error_ = nullptr;
    open_ = true;
    active_ = 0;
    ++generation_;
  }
  start_.notify_all();
  drain(0);
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    open_ = false;
    done_.wait(lock, [&] { return active_ == 0; });
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace impetus
