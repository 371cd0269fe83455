// A small persistent thread pool that serves as aotc's parallel-for hook.
//
// ThreadPool(n) starts n - 1 worker threads; a parallel loop runs on those and
// on the calling thread, so n is the number of threads that work on a loop.
// Hook() has the aotc_parallel_for_fn signature: install it with
// aotc_set_parallel_for(&ThreadPool::Hook, &pool) and every large loop of a
// compiled model is split into chunks that the threads take one after the
// other from a shared counter. The same pool runs the benchmark's hand-written
// loops through ParallelFor(), so both are measured with the same machinery;
// `aotc run --threads N` installs one too.
//
// A worker that finishes a loop spins for a short while (kSpinMicroseconds)
// watching for the next one before it sleeps: a model's loops follow each
// other within microseconds, and waking a sleeping thread costs about as
// much as a small loop.
//
// One loop runs at a time. A call made while another loop is running (from
// inside a task, or from a second thread) runs its whole range serially on
// the calling thread, which is always correct and cannot deadlock.
#ifndef AOTC_TOOLS_THREAD_POOL_H_
#define AOTC_TOOLS_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "aotc/runtime.h"

namespace aotc {

class ThreadPool {
 public:
  // `num_threads` >= 1 counts the calling thread.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs task(context, begin, end) over chunks covering [0, count), each of
  // at least `min_chunk` iterations, and returns when all have finished.
  void Run(aotc_task_fn task, void* context, int64_t count,
           int64_t min_chunk);

  // The aotc_parallel_for_fn hook; `user_data` is the ThreadPool.
  static void Hook(void* user_data, aotc_task_fn task, void* context,
                   int64_t count, int64_t min_chunk);

  // Run() for a callable body(begin, end).
  template <typename Body>
  void ParallelFor(int64_t count, int64_t min_chunk, Body&& body) {
    using Plain = std::remove_reference_t<Body>;
    Run(
        [](void* context, int64_t begin, int64_t end) {
          (*static_cast<Plain*>(context))(begin, end);
        },
        &body, count, min_chunk);
  }

 private:
  // One loop in flight. Lives on the stack of the thread that called Run();
  // workers only reach it through `job_`, under `mutex_`.
  struct Job {
    aotc_task_fn task;
    void* context;
    int64_t count;
    int64_t chunks;
    std::atomic<int64_t> next_chunk{0};
    // Written under mutex_; the caller may read it without, spinning.
    std::atomic<int> workers_inside{0};
  };

  void WorkerLoop();
  static void RunChunks(Job& job);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // held by the thread whose loop is in flight
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  Job* job_ = nullptr;        // guarded by mutex_
  // Counts posted jobs; written under mutex_, read without it by workers
  // spinning for the next job before they sleep.
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stop_{false};  // written under mutex_
};

}  // namespace aotc

#endif  // AOTC_TOOLS_THREAD_POOL_H_
