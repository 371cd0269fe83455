// The benchmark's thread pool: workers spin briefly, then sleep on a
// condition variable between loops, and the threads of a loop take chunk
// indices from an atomic counter.
//
// Completion needs no per-chunk count: a worker registers itself in the job
// (under the mutex) before taking chunks and deregisters after its last one,
// and the caller, once the counter is exhausted, waits until no worker is
// registered and then withdraws the job under the same mutex. A worker that
// wakes late therefore either finds no chunk left or no job at all.
#include "tools/thread_pool.h"

#include <algorithm>
#include <chrono>

namespace aotc {

namespace {

// Chunks per thread: a few, so that a thread delayed by another process on
// this shared machine does not hold the whole loop back.
constexpr int64_t kChunksPerThread = 4;
// How long a worker watches for the next loop before it sleeps.
constexpr int64_t kSpinMicroseconds = 200;

// Spins while `busy()` holds, for at most kSpinMicroseconds; whatever it
// saw, the caller decides under the mutex afterwards.
template <typename Busy>
void SpinWhile(Busy busy) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::microseconds(kSpinMicroseconds);
  for (int i = 0; busy(); ++i) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
    if (i % 64 == 63 && std::chrono::steady_clock::now() > deadline) return;
  }
}

}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  for (int i = 1; i < num_threads; ++i) {
    workers_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Hook(void* user_data, aotc_task_fn task, void* context,
                      int64_t count, int64_t min_chunk) {
  static_cast<ThreadPool*>(user_data)->Run(task, context, count, min_chunk);
}

void ThreadPool::Run(aotc_task_fn task, void* context, int64_t count,
                     int64_t min_chunk) {
  if (count <= 0) return;
  min_chunk = std::max<int64_t>(min_chunk, 1);
  int64_t chunks = std::min(count / min_chunk, kChunksPerThread * num_threads());
  std::unique_lock<std::mutex> running(run_mutex_, std::try_to_lock);
  if (chunks <= 1 || workers_.empty() || !running.owns_lock()) {
    task(context, 0, count);
    return;
  }

  Job job;
  job.task = task;
  job.context = context;
  job.count = count;
  job.chunks = chunks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  RunChunks(job);

  // The last chunks are short: spin for them before sleeping.
  SpinWhile([&] {
    return job.workers_inside.load(std::memory_order_acquire) != 0;
  });
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return job.workers_inside.load() == 0; });
  job_ = nullptr;
}

void ThreadPool::RunChunks(Job& job) {
  for (;;) {
    int64_t chunk = job.next_chunk.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= job.chunks) return;
    // Chunk i covers [i * count / chunks, (i + 1) * count / chunks): sizes
    // differ by at most one and are >= min_chunk since chunks <= count /
    // min_chunk.
    int64_t begin = chunk * job.count / job.chunks;
    int64_t end = (chunk + 1) * job.count / job.chunks;
    job.task(job.context, begin, end);
  }
}

void ThreadPool::WorkerLoop() {
  uint64_t seen = 0;
  for (;;) {
    Job* job;
    SpinWhile([&] {
      return generation_.load(std::memory_order_acquire) == seen &&
             !stop_.load(std::memory_order_relaxed);
    });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] {
        return stop_.load(std::memory_order_relaxed) ||
               (job_ != nullptr &&
                generation_.load(std::memory_order_relaxed) != seen);
      });
      if (stop_.load(std::memory_order_relaxed)) return;
      seen = generation_.load(std::memory_order_relaxed);
      job = job_;
      ++job->workers_inside;
    }
    RunChunks(*job);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --job->workers_inside;
    }
    done_.notify_all();
  }
}

}  // namespace aotc
