/* The aotc runtime: status messages, the aligned arena and the parallel-for
 * hook declared in aotc/runtime.h.
 *
 * Freestanding C99 on purpose: only <stddef.h> and <stdint.h>, no libc call,
 * no allocation, no reference to any external symbol (a CTest checks this
 * with `nm -u` on an object built with -ffreestanding -nostdlib). Keep it
 * that way: firmware links this file with nothing else.
 */
#include "aotc/runtime.h"

const char* aotc_status_message(int status) {
  switch (status) {
    case AOTC_OK:
      return "ok";
    case AOTC_ERROR_NULL_ARGUMENT:
      return "argument buffer is null";
    case AOTC_ERROR_NULL_RESULT:
      return "result buffer is null";
    case AOTC_ERROR_NULL_TEMP:
      return "temp buffer is null";
    case AOTC_ERROR_MISALIGNED_TEMP:
      return "temp buffer is not aligned to the model's alignment";
    case AOTC_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case AOTC_ERROR_CUSTOM_CALL:
      return "an external custom-call function failed";
    default:
      return "unknown aotc status code";
  }
}

static int IsPowerOfTwo(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

size_t aotc_align_up(size_t value, size_t alignment) {
  size_t mask;
  if (!IsPowerOfTwo(alignment)) return 0;
  mask = alignment - 1;
  if (value > (size_t)-1 - mask) return 0;
  return (value + mask) & ~mask;
}

void aotc_arena_init(aotc_arena* arena, void* memory, size_t size) {
  if (arena == NULL) return;
  arena->base = (unsigned char*)memory;
  arena->size = memory == NULL ? 0 : size;
  arena->used = 0;
}

void* aotc_arena_alloc(aotc_arena* arena, size_t size, size_t alignment) {
  size_t available;
  size_t padding;
  uintptr_t address;
  unsigned char* result;
  if (arena == NULL || arena->base == NULL) return NULL;
  if (!IsPowerOfTwo(alignment)) return NULL;
  /* The padding depends on the real address, not on the offset, because
   * the memory the caller gave need not be aligned itself. */
  address = (uintptr_t)(arena->base + arena->used);
  padding = (size_t)((alignment - (size_t)(address & (alignment - 1))) &
                     (alignment - 1));
  available = arena->size - arena->used;
  /* Compared by subtraction so that no sum can wrap around. */
  if (padding > available || size > available - padding) return NULL;
  result = arena->base + arena->used + padding;
  arena->used += padding + size;
  return result;
}

void aotc_arena_reset(aotc_arena* arena) {
  if (arena != NULL) arena->used = 0;
}

size_t aotc_arena_used(const aotc_arena* arena) {
  return arena == NULL ? 0 : arena->used;
}

/* The installed hook; NULL means serial. Plain globals: C99 has no atomics,
 * and the hook is documented as set-before-use. */
static aotc_parallel_for_fn g_parallel_for = NULL;
static void* g_parallel_for_user_data = NULL;

void aotc_set_parallel_for(aotc_parallel_for_fn fn, void* user_data) {
  g_parallel_for = fn;
  g_parallel_for_user_data = fn == NULL ? NULL : user_data;
}

void aotc_parallel_for(aotc_task_fn task, void* context, int64_t count,
                       int64_t min_chunk) {
  if (task == NULL || count <= 0) return;
  if (min_chunk < 1) min_chunk = 1;
  if (g_parallel_for == NULL || count <= min_chunk) {
    task(context, 0, count);
    return;
  }
  g_parallel_for(g_parallel_for_user_data, task, context, count, min_chunk);
}
