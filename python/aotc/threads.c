/* The parallel-for hook that aotc.load links into every model's shared library.
 *
 * aotc's runtime runs each large loop of a model on the calling thread unless
 * a hook is installed (docs/runtime.md). aotc_py_call sets the calling
 * thread's thread count for one call of NAME_run_packed; the hook then splits
 * each loop into at most that many chunks of at least min_chunk iterations,
 * runs the first on the calling thread and the others on threads it starts
 * for that loop, and joins them before returning. Threads it starts have a
 * count of 0, so a loop nested in a task runs serially, which the runtime asks
 * for. The count lives in a thread-local variable, so calls from several
 * Python threads with different counts do not disturb each other. Threads are
 * started per loop, not kept in a pool: simpler, and their cost (tens of
 * microseconds) is small beside the loops the runtime hands to a hook. Needs
 * C11 (_Thread_local), POSIX threads and GCC's or Clang's __atomic built-ins;
 * declares the runtime's types itself so that it compiles without
 * aotc/runtime.h on the include path.
 */
#include <pthread.h>
#include <stdint.h>

typedef void (*aotc_task_fn)(void* context, int64_t begin, int64_t end);
typedef void (*aotc_parallel_for_fn)(void* user_data, aotc_task_fn task,
                                     void* context, int64_t count,
                                     int64_t min_chunk);
void aotc_set_parallel_for(aotc_parallel_for_fn fn, void* user_data);
typedef int (*aotc_run_packed_fn)(const void* const* args,
                                  void* const* results, void* temp);

enum { kMaxThreads = 256 };

static _Thread_local int call_threads;
/* Threads started so far, for the tests: proof that loops were split. */
static int64_t threads_started;

typedef struct {
  aotc_task_fn task;
  void* context;
  int64_t begin;
  int64_t end;
} chunk;

static void* run_chunk(void* arg) {
  chunk* c = (chunk*)arg;
  c->task(c->context, c->begin, c->end);
  return 0;
}

static void parallel_for(void* user_data, aotc_task_fn task, void* context,
                         int64_t count, int64_t min_chunk) {
  (void)user_data;
  int64_t n = call_threads;
  if (min_chunk < 1) min_chunk = 1;
  if (n > count / min_chunk) n = count / min_chunk;
  if (n <= 1) {
    task(context, 0, count);
    return;
  }
  chunk chunks[kMaxThreads];
  pthread_t ids[kMaxThreads];
  int started[kMaxThreads];
  for (int64_t i = 0; i < n; ++i) {
    chunks[i].task = task;
    chunks[i].context = context;
    chunks[i].begin = count / n * i + (i < count % n ? i : count % n);
    chunks[i].end = chunks[i].begin + count / n + (i < count % n ? 1 : 0);
  }
  for (int64_t i = 1; i < n; ++i) {
    started[i] = pthread_create(&ids[i], 0, run_chunk, &chunks[i]) == 0;
    if (started[i]) __atomic_fetch_add(&threads_started, 1, __ATOMIC_RELAXED);
  }
  run_chunk(&chunks[0]);
  /* A thread that could not be started leaves its chunk to this one. */
  for (int64_t i = 1; i < n; ++i) {
    if (started[i]) {
      pthread_join(ids[i], 0);
    } else {
      run_chunk(&chunks[i]);
    }
  }
}

int aotc_py_call(aotc_run_packed_fn run, const void* const* args,
                 void* const* results, void* temp, int threads) {
  int saved = call_threads;
  call_threads = threads > kMaxThreads ? kMaxThreads : threads;
  int status = run(args, results, temp);
  call_threads = saved;
  return status;
}

int64_t aotc_py_threads_started(void) {
  return __atomic_load_n(&threads_started, __ATOMIC_RELAXED);
}

void aotc_py_install(void) { aotc_set_parallel_for(parallel_for, 0); }
