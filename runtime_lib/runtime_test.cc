// Tests of the aotc C runtime: status messages, aligned arena arithmetic and
// exhaustion, and the parallel-for hook with and without a threaded hook.
#include "aotc/runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace {

TEST(StatusTest, MessagesOfKnownCodes) {
  EXPECT_STREQ(aotc_status_message(AOTC_OK), "ok");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_NULL_ARGUMENT),
               "argument buffer is null");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_NULL_RESULT),
               "result buffer is null");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_NULL_TEMP),
               "temp buffer is null");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_MISALIGNED_TEMP),
               "temp buffer is not aligned to the model's alignment");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_OUT_OF_MEMORY), "out of memory");
  EXPECT_STREQ(aotc_status_message(AOTC_ERROR_CUSTOM_CALL),
               "an external custom-call function failed");
}

TEST(StatusTest, CodesAreStableNumbers) {
  EXPECT_EQ(AOTC_OK, 0);
  EXPECT_EQ(AOTC_ERROR_NULL_ARGUMENT, 1);
  EXPECT_EQ(AOTC_ERROR_NULL_RESULT, 2);
  EXPECT_EQ(AOTC_ERROR_NULL_TEMP, 3);
  EXPECT_EQ(AOTC_ERROR_MISALIGNED_TEMP, 4);
  EXPECT_EQ(AOTC_ERROR_OUT_OF_MEMORY, 5);
  EXPECT_EQ(AOTC_ERROR_CUSTOM_CALL, 6);
}

TEST(StatusTest, UnknownCodesGetAMessage) {
  for (int code : {-1, 7, 1000, INT32_MIN, INT32_MAX}) {
    EXPECT_STREQ(aotc_status_message(code), "unknown aotc status code") << code;
  }
}

TEST(AlignUpTest, RoundsUpToPowersOfTwo) {
  EXPECT_EQ(aotc_align_up(0, 64), 0u);
  EXPECT_EQ(aotc_align_up(1, 64), 64u);
  EXPECT_EQ(aotc_align_up(64, 64), 64u);
  EXPECT_EQ(aotc_align_up(65, 64), 128u);
  EXPECT_EQ(aotc_align_up(7, 1), 7u);
  EXPECT_EQ(aotc_align_up(5, 4), 8u);
}

TEST(AlignUpTest, RefusesNonPowersOfTwo) {
  EXPECT_EQ(aotc_align_up(5, 0), 0u);
  EXPECT_EQ(aotc_align_up(5, 3), 0u);
  EXPECT_EQ(aotc_align_up(5, 48), 0u);
}

TEST(AlignUpTest, OverflowGivesZero) {
  const size_t max = SIZE_MAX;
  EXPECT_EQ(aotc_align_up(max, 64), 0u);
  EXPECT_EQ(aotc_align_up(max - 62, 64), 0u);
  // The largest multiple of 64 is still representable.
  EXPECT_EQ(aotc_align_up(max - 63, 64), max - 63);
  EXPECT_EQ(aotc_align_up(max, 1), max);
}

TEST(AlignUpTest, MacroMatchesFunction) {
  static_assert(AOTC_ALIGN_UP(0, 64) == 0);
  static_assert(AOTC_ALIGN_UP(1, 64) == 64);
  static_assert(AOTC_ALIGN_UP(64, 64) == 64);
  static_assert(AOTC_ALIGN_UP(100, 32) == 128);
}

// 1 KiB at a 256-byte aligned address, so offsets from it are addresses
// modulo 256.
struct alignas(256) Buffer {
  unsigned char bytes[1024];
};

TEST(ArenaTest, AlignsTheAddressNotTheOffset) {
  Buffer buffer;
  aotc_arena arena;
  // A base one byte past an aligned address: the first 64-aligned address
  // is 63 bytes in.
  aotc_arena_init(&arena, buffer.bytes + 1, 1000);
  void* a = aotc_arena_alloc(&arena, 10, 64);
  EXPECT_EQ(a, buffer.bytes + 64);
  EXPECT_EQ(aotc_arena_used(&arena), 63u + 10u);
  // Next free byte is buffer+74; the next 16-aligned address is buffer+80.
  void* b = aotc_arena_alloc(&arena, 1, 16);
  EXPECT_EQ(b, buffer.bytes + 80);
  EXPECT_EQ(aotc_arena_used(&arena), 80u);
  // Alignment 1 never pads.
  void* c = aotc_arena_alloc(&arena, 3, 1);
  EXPECT_EQ(c, buffer.bytes + 81);
  EXPECT_EQ(aotc_arena_used(&arena), 83u);
}

TEST(ArenaTest, ExhaustionFailsWithoutChangingTheArena) {
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes, 128);
  EXPECT_EQ(aotc_arena_alloc(&arena, 100, 1), buffer.bytes);
  EXPECT_EQ(aotc_arena_alloc(&arena, 29, 1), nullptr);
  EXPECT_EQ(aotc_arena_used(&arena), 100u);
  // 28 more bytes fit exactly.
  EXPECT_EQ(aotc_arena_alloc(&arena, 28, 1), buffer.bytes + 100);
  EXPECT_EQ(aotc_arena_used(&arena), 128u);
  EXPECT_EQ(aotc_arena_alloc(&arena, 1, 1), nullptr);
  // A zero-byte request that needs no padding still fits at the end.
  EXPECT_EQ(aotc_arena_alloc(&arena, 0, 1), buffer.bytes + 128);
  EXPECT_EQ(aotc_arena_used(&arena), 128u);
}

TEST(ArenaTest, PaddingCountsTowardsExhaustion) {
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes, 128);
  EXPECT_EQ(aotc_arena_alloc(&arena, 1, 1), buffer.bytes);
  // 64 bytes at 64 need 63 bytes of padding first: 1 + 63 + 64 = 128 fits.
  EXPECT_EQ(aotc_arena_alloc(&arena, 64, 64), buffer.bytes + 64);
  aotc_arena_reset(&arena);
  EXPECT_EQ(aotc_arena_alloc(&arena, 2, 1), buffer.bytes);
  // Now 2 + 62 + 65 = 129 > 128.
  EXPECT_EQ(aotc_arena_alloc(&arena, 65, 64), nullptr);
  EXPECT_EQ(aotc_arena_used(&arena), 2u);
}

TEST(ArenaTest, HugeSizesAndAlignmentsDoNotWrapAround) {
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes + 1, 1000);
  EXPECT_EQ(aotc_arena_alloc(&arena, SIZE_MAX, 1), nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, SIZE_MAX - 10, 64), nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, 1, size_t{1} << (sizeof(size_t) * 8 - 1)),
            nullptr);
  EXPECT_EQ(aotc_arena_used(&arena), 0u);
}

TEST(ArenaTest, RefusesAlignmentsThatAreNotPowersOfTwo) {
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes, 1024);
  EXPECT_EQ(aotc_arena_alloc(&arena, 8, 0), nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, 8, 3), nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, 8, 96), nullptr);
  EXPECT_EQ(aotc_arena_used(&arena), 0u);
}

TEST(ArenaTest, ResetMakesEverythingAvailableAgain) {
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes + 3, 512);
  void* first = aotc_arena_alloc(&arena, 500, 8);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, 500, 8), nullptr);
  aotc_arena_reset(&arena);
  EXPECT_EQ(aotc_arena_used(&arena), 0u);
  EXPECT_EQ(aotc_arena_alloc(&arena, 500, 8), first);
}

TEST(ArenaTest, NullArenaAndNullMemory) {
  EXPECT_EQ(aotc_arena_alloc(nullptr, 1, 1), nullptr);
  EXPECT_EQ(aotc_arena_used(nullptr), 0u);
  aotc_arena_reset(nullptr);
  aotc_arena_init(nullptr, nullptr, 0);

  aotc_arena arena;
  aotc_arena_init(&arena, nullptr, 4096);
  EXPECT_EQ(aotc_arena_alloc(&arena, 0, 1), nullptr);
  EXPECT_EQ(aotc_arena_alloc(&arena, 1, 1), nullptr);
}

TEST(ArenaTest, ScratchForTwoModelsFromOneStaticBuffer) {
  // Two models needing 100 and 30 bytes of scratch at 64-byte alignment; the
  // size formula from the header leaves room for an unaligned buffer.
  constexpr size_t kBytes = AOTC_ALIGN_UP(100, 64) + AOTC_ALIGN_UP(30, 64) + 64;
  static_assert(kBytes == 128 + 64 + 64);
  Buffer buffer;
  aotc_arena arena;
  aotc_arena_init(&arena, buffer.bytes + 5, kBytes);
  void* a = aotc_arena_alloc(&arena, 100, 64);
  void* b = aotc_arena_alloc(&arena, 30, 64);
  EXPECT_EQ(a, buffer.bytes + 64);
  EXPECT_EQ(b, buffer.bytes + 192);
}

// Records the [begin, end) ranges a task was called with.
struct Recorder {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> calls;
  std::vector<std::atomic<int>> hits;

  explicit Recorder(int64_t count) : hits(count) {}

  static void Task(void* context, int64_t begin, int64_t end) {
    auto* self = static_cast<Recorder*>(context);
    for (int64_t i = begin; i < end; ++i) self->hits[i].fetch_add(1);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->calls.emplace_back(begin, end);
  }

  std::vector<std::pair<int64_t, int64_t>> SortedCalls() {
    std::vector<std::pair<int64_t, int64_t>> sorted = calls;
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }
};

// A hook that splits the loop into chunks of at least min_chunk iterations
// over up to `threads` std::threads, as a firmware or application thread
// pool would.
struct ThreadedHook {
  int threads = 4;
  int invocations = 0;
  int64_t last_min_chunk = 0;
  std::thread::id caller;

  static void Run(void* user_data, aotc_task_fn task, void* context,
                  int64_t count, int64_t min_chunk) {
    auto* self = static_cast<ThreadedHook*>(user_data);
    ++self->invocations;
    self->last_min_chunk = min_chunk;
    int64_t chunk =
        std::max(min_chunk, (count + self->threads - 1) / self->threads);
    std::vector<std::thread> workers;
    for (int64_t begin = 0; begin < count; begin += chunk) {
      int64_t end = std::min(count, begin + chunk);
      workers.emplace_back([=] { task(context, begin, end); });
    }
    for (std::thread& t : workers) t.join();
  }
};

class ParallelForTest : public testing::Test {
 protected:
  void TearDown() override { aotc_set_parallel_for(nullptr, nullptr); }
};

TEST_F(ParallelForTest, DefaultRunsTheWholeRangeOnTheCaller) {
  Recorder recorder(1000);
  aotc_parallel_for(&Recorder::Task, &recorder, 1000, 16);
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_EQ(recorder.calls[0], std::make_pair(int64_t{0}, int64_t{1000}));
}

TEST_F(ParallelForTest, EmptyAndNegativeCountsRunNothing) {
  Recorder recorder(1);
  aotc_parallel_for(&Recorder::Task, &recorder, 0, 1);
  aotc_parallel_for(&Recorder::Task, &recorder, -5, 1);
  EXPECT_TRUE(recorder.calls.empty());
  aotc_parallel_for(nullptr, &recorder, 10, 1);
}

TEST_F(ParallelForTest, HookCoversEveryIndexExactlyOnce) {
  ThreadedHook hook;
  aotc_set_parallel_for(&ThreadedHook::Run, &hook);
  constexpr int64_t kCount = 10007;  // prime: the last chunk is short
  Recorder recorder(kCount);
  aotc_parallel_for(&Recorder::Task, &recorder, kCount, 100);
  EXPECT_EQ(hook.invocations, 1);
  EXPECT_EQ(hook.last_min_chunk, 100);
  for (int64_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(recorder.hits[i].load(), 1) << "index " << i;
  }
  // ceil(10007 / 4) = 2502: chunks [0,2502) [2502,5004) [5004,7506)
  // [7506,10007).
  std::vector<std::pair<int64_t, int64_t>> expected = {
      {0, 2502}, {2502, 5004}, {5004, 7506}, {7506, 10007}};
  EXPECT_EQ(recorder.SortedCalls(), expected);
}

TEST_F(ParallelForTest, HookRespectsMinChunk) {
  ThreadedHook hook;
  aotc_set_parallel_for(&ThreadedHook::Run, &hook);
  Recorder recorder(10);
  aotc_parallel_for(&Recorder::Task, &recorder, 10, 3);
  EXPECT_EQ(hook.invocations, 1);
  // ceil(10 / 4) = 3 = min_chunk: [0,3) [3,6) [6,9) [9,10).
  std::vector<std::pair<int64_t, int64_t>> expected = {
      {0, 3}, {3, 6}, {6, 9}, {9, 10}};
  EXPECT_EQ(recorder.SortedCalls(), expected);
  for (int64_t i = 0; i < 10; ++i) EXPECT_EQ(recorder.hits[i].load(), 1);
}

TEST_F(ParallelForTest, LoopsNoLargerThanOneChunkStayOnTheCaller) {
  ThreadedHook hook;
  aotc_set_parallel_for(&ThreadedHook::Run, &hook);
  Recorder recorder(64);
  aotc_parallel_for(&Recorder::Task, &recorder, 64, 64);
  EXPECT_EQ(hook.invocations, 0);
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_EQ(recorder.calls[0], std::make_pair(int64_t{0}, int64_t{64}));
}

TEST_F(ParallelForTest, NonPositiveMinChunkReachesTheHookAsOne) {
  ThreadedHook hook;
  aotc_set_parallel_for(&ThreadedHook::Run, &hook);
  Recorder recorder(8);
  aotc_parallel_for(&Recorder::Task, &recorder, 8, 0);
  EXPECT_EQ(hook.last_min_chunk, 1);
  aotc_parallel_for(&Recorder::Task, &recorder, 8, -7);
  EXPECT_EQ(hook.last_min_chunk, 1);
  EXPECT_EQ(hook.invocations, 2);
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(recorder.hits[i].load(), 2);
}

TEST_F(ParallelForTest, NullRestoresSerial) {
  ThreadedHook hook;
  aotc_set_parallel_for(&ThreadedHook::Run, &hook);
  aotc_set_parallel_for(nullptr, &hook);
  Recorder recorder(100);
  aotc_parallel_for(&Recorder::Task, &recorder, 100, 1);
  EXPECT_EQ(hook.invocations, 0);
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_EQ(recorder.calls[0], std::make_pair(int64_t{0}, int64_t{100}));
}

}  // namespace
