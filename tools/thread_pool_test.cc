// Tests of the tools' thread pool: every index of every loop runs exactly
// once, in chunks of at least min_chunk, whether the workers catch a loop
// while spinning (loops back to back) or after sleeping (a pause between
// loops); nested and small loops run serially on the calling thread.
#include "tools/thread_pool.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace aotc {
namespace {

// Runs one loop of `count` over `pool`, checking that each index is covered
// once and that every chunk holds min_chunk iterations (a loop of fewer runs
// whole, as one chunk).
void RunAndCheck(ThreadPool& pool, int64_t count, int64_t min_chunk) {
  std::vector<std::atomic<int>> hits(count);
  std::atomic<int> short_chunks{0};
  pool.ParallelFor(count, min_chunk, [&](int64_t begin, int64_t end) {
    if (end - begin < min_chunk && !(begin == 0 && end == count)) {
      short_chunks.fetch_add(1);
    }
    for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
  });
  for (int64_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  EXPECT_EQ(short_chunks.load(), 0);
}

TEST(ThreadPoolTest, LoopsBackToBackAndAfterAPauseCoverEveryIndexOnce) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.num_threads(), 3);
  for (int loop = 0; loop < 2000; ++loop) {
    RunAndCheck(pool, 1 + loop % 97, 1 + loop % 5);
  }
  // Long enough for the workers to stop spinning and sleep.
  for (int loop = 0; loop < 5; ++loop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    RunAndCheck(pool, 1000, 7);
  }
}

TEST(ThreadPoolTest, NestedAndSmallLoopsRunOnTheCallingThread) {
  ThreadPool pool(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> serial{0};
  std::atomic<int> inner_total{0};
  pool.ParallelFor(8, 1, [&](int64_t begin, int64_t end) {
    const std::thread::id outer = std::this_thread::get_id();
    pool.ParallelFor(100, 1, [&](int64_t b, int64_t e) {
      if (std::this_thread::get_id() == outer && b == 0 && e == 100) {
        serial.fetch_add(1);
      }
      inner_total.fetch_add(static_cast<int>(e - b));
    });
    (void)begin;
    (void)end;
  });
  EXPECT_EQ(inner_total.load() % 100, 0);
  EXPECT_EQ(serial.load() * 100, inner_total.load());
  // Fewer than two chunks' worth: one call on the caller's thread.
  int calls = 0;
  pool.ParallelFor(5, 10, [&](int64_t begin, int64_t end) {
    ++calls;
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 5);
    EXPECT_EQ(std::this_thread::get_id(), caller);
  });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace aotc
