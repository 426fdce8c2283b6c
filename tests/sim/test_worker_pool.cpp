// sim/worker_pool.hpp: every item runs exactly once, on a thread index in range, for any item count around
// the chunk size; an exception thrown by an item reaches the caller after the other items ran.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/worker_pool.hpp"

namespace impetus {
namespace {

TEST(WorkerPool, EveryItemRunsOnceOnAThreadOfThePool) {
  for (int threads : {1, 2, 4}) {
    WorkerPool pool(threads);
    ASSERT_EQ(pool.threads(), threads);
    for (int items : {0, 1, 2, 7, 64, 1001}) {
      std::vector<int> runs(items, 0), thread_of(items, -1);
      auto item = [&](int k, int thread) {
        ++runs[k];
        thread_of[k] = thread;
      };
      pool.run(items, item);
      for (int k = 0; k < items; ++k) {
        ASSERT_EQ(runs[k], 1) << threads << " threads, " << items << " items, item " << k;
        ASSERT_GE(thread_of[k], 0);
        ASSERT_LT(thread_of[k], threads);
      }
    }
  }
}

TEST(WorkerPool, AnItemsExceptionReachesTheCallerAfterTheOtherItems) {
  WorkerPool pool(2);
  std::vector<int> runs(100, 0);
  auto item = [&](int k, int) {
    ++runs[k];
    if (k == 37) throw std::runtime_error("item 37");
  };
  EXPECT_THROW(pool.run(100, item), std::runtime_error);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(runs[k], 1) << k;
  // The pool is still usable.
  std::vector<int> again(10, 0);
  auto count = [&](int k, int) { ++again[k]; };
  pool.run(10, count);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(again[k], 1);
}

TEST(WorkerPool, ThreadCountOption) {
  EXPECT_EQ(resolve_thread_count(3), 3);
  EXPECT_GE(resolve_thread_count(0), 1);   // every core, at least one
  EXPECT_THROW(resolve_thread_count(-1), std::invalid_argument);
}

}  // namespace
}  // namespace impetus
