// sim/worker_pool.hpp: every item runs exactly once, on a thread index in range, for any item count around
// the chunk size; the items of one chunk (chunk_of) run on one thread; an exception thrown by an item reaches
// the caller after the other items ran.
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

TEST(WorkerPool, TheItemsOfAChunkRunOnOneThread) {
  // What makes buffers kept per chunk (the stepper's contact workspaces) safe: no two threads share a chunk.
  for (int threads : {1, 2, 4}) {
    WorkerPool pool(threads);
    for (int items : {0, 1, 2, 7, 64, 1001}) {
      const int chunks = pool.chunks(items);
      ASSERT_GE(chunks, 1);
      std::vector<int> thread_of(items, -1);
      auto item = [&](int k, int thread) { thread_of[k] = thread; };
      for (int run = 0; run < 20; ++run) {
        pool.run(items, item);
        std::vector<int> thread_of_chunk(chunks, -1);
        for (int k = 0; k < items; ++k) {
          const int c = pool.chunk_of(k, items);
          ASSERT_GE(c, 0);
          ASSERT_LT(c, chunks);
          if (k > 0) {   // chunks are contiguous runs of items, in order
            const int step = c - pool.chunk_of(k - 1, items);
            ASSERT_TRUE(step == 0 || step == 1) << threads << " threads, " << items << " items, item " << k;
          }
          if (thread_of_chunk[c] < 0) thread_of_chunk[c] = thread_of[k];
          ASSERT_EQ(thread_of[k], thread_of_chunk[c]) << threads << " threads, " << items << " items, item " << k;
        }
        if (items > 0) {
          EXPECT_EQ(pool.chunk_of(items - 1, items), chunks - 1);
        }
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
