/* aotc/runtime.h: the C runtime that objects compiled by aotc link against.
 *
 * Three small pieces: the status codes a model's NAME_run function returns,
 * an aligned bump allocator (aotc_arena) for carving model scratch memory out
 * of one static buffer, and the parallel-for hook that generated code calls
 * for large loops. The library is pure C99 and freestanding: it calls no libc
 * function, allocates nothing and references no external symbol, so it links
 * into bare-metal firmware as well as into ordinary programs.
 *
 * Thread safety: status messages and arenas are reentrant (an arena must not
 * be shared between threads without the caller's own locking). The
 * parallel-for hook is one process-wide setting that is read without
 * synchronization: install it before any model runs, never while one runs.
 */
#ifndef AOTC_RUNTIME_H_
#define AOTC_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/* What NAME_run and NAME_run_packed return. The values are part of the ABI
 * and never change; new codes only get new numbers. */
typedef enum aotc_status {
  AOTC_OK = 0,
  /* An argument pointer (or the packed args array) is null. */
  AOTC_ERROR_NULL_ARGUMENT = 1,
  /* A result pointer (or the packed results array) is null. */
  AOTC_ERROR_NULL_RESULT = 2,
  /* The temp buffer is null. */
  AOTC_ERROR_NULL_TEMP = 3,
  /* The temp buffer is not aligned to NAME_ALIGNMENT bytes. */
  AOTC_ERROR_MISALIGNED_TEMP = 4,
  /* Memory for buffers could not be allocated (returned by the C++ wrapper
   * class's AllocateBuffers; the compiled code itself never allocates). */
  AOTC_ERROR_OUT_OF_MEMORY = 5,
  /* An external function called for a custom-call returned nonzero
   * (docs/codegen.md); the results are then unspecified. */
  AOTC_ERROR_CUSTOM_CALL = 6
} aotc_status;

/* A short English description of `status`, e.g. "temp buffer is null".
 * Every int gets a message; codes this runtime does not know get
 * "unknown aotc status code". The string is static; never free it. */
const char* aotc_status_message(int status);

/* ------------------------------------------------------------------------ */
/* Aligned arena                                                            */
/* ------------------------------------------------------------------------ */

/* A bump allocator over caller-provided memory. Allocations are only ever
 * released all at once by aotc_arena_reset. Typical use: one static buffer
 * holds the scratch memory (NAME_TEMP_BYTES at NAME_ALIGNMENT) of several
 * models. The fields are private to the runtime. */
typedef struct aotc_arena {
  unsigned char* base;
  size_t size;
  size_t used;
} aotc_arena;

/* Makes `arena` hand out the `size` bytes at `memory`. `memory` needs no
 * particular alignment: each allocation aligns its own address. A null
 * `memory` gives an arena from which every allocation fails. */
void aotc_arena_init(aotc_arena* arena, void* memory, size_t size);

/* Returns `size` bytes whose address is a multiple of `alignment`, or NULL
 * when `alignment` is not a power of two, when the remaining memory is too
 * small (the padding needed for the alignment counts), or when `arena` is
 * null. A failed allocation leaves the arena unchanged. A zero-byte request
 * that fits returns a valid aligned address without using memory past it. */
void* aotc_arena_alloc(aotc_arena* arena, size_t size, size_t alignment);

/* Forgets every allocation; the whole memory is available again. */
void aotc_arena_reset(aotc_arena* arena);

/* Bytes handed out so far, including alignment padding. */
size_t aotc_arena_used(const aotc_arena* arena);

/* `value` rounded up to a multiple of `alignment`. Returns 0 when `alignment`
 * is not a power of two or when the result does not fit in size_t (for a
 * non-zero `value`, 0 therefore always means failure). */
size_t aotc_align_up(size_t value, size_t alignment);

/* The same rounding as a constant expression, for sizing static buffers:
 *   static unsigned char scratch[AOTC_ALIGN_UP(A_TEMP_BYTES, 64) +
 *                                AOTC_ALIGN_UP(B_TEMP_BYTES, 64) + 64];
 * The arguments are evaluated more than once and overflow is not checked. */
#define AOTC_ALIGN_UP(value, alignment) \
  ((((value) + (alignment)-1) / (alignment)) * (alignment))

/* ------------------------------------------------------------------------ */
/* Parallel for                                                             */
/* ------------------------------------------------------------------------ */

/* One piece of a loop: runs iterations [begin, end) with `context`. */
typedef void (*aotc_task_fn)(void* context, int64_t begin, int64_t end);

/* A hook that runs task(context, begin, end) over chunks covering
 * [0, count), each index exactly once, and returns only when every chunk has
 * finished. Chunks may run concurrently on any threads; a chunk should hold
 * at least `min_chunk` iterations (except a final remainder) because smaller
 * ones cost more in scheduling than they save. `user_data` is the pointer
 * given to aotc_set_parallel_for (a thread pool, for instance). A hook may be
 * entered from several threads at once when models run concurrently, and
 * from inside a task if generated code nests parallel loops; running such
 * nested calls serially on the calling thread is always correct. */
typedef void (*aotc_parallel_for_fn)(void* user_data, aotc_task_fn task,
                                     void* context, int64_t count,
                                     int64_t min_chunk);

/* Installs `fn` (with `user_data`) as the process-wide hook; NULL restores
 * the default, which runs every loop serially on the calling thread. Not
 * synchronized: call it before running any model, not while one runs. */
void aotc_set_parallel_for(aotc_parallel_for_fn fn, void* user_data);

/* Runs task over [0, count). Does nothing when count <= 0. Without a hook,
 * or when count <= min_chunk, calls task(context, 0, count) on the calling
 * thread; otherwise hands the loop to the hook with min_chunk raised to at
 * least 1. Generated code calls this for its large loops. */
void aotc_parallel_for(aotc_task_fn task, void* context, int64_t count,
                       int64_t min_chunk);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOTC_RUNTIME_H_ */
