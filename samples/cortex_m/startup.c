/* Start-up code for the MPS2 Cortex-M boards: the vector table, and a reset
 * handler that copies .data from flash, clears .bss, turns the FPU on when
 * the program was built for one, connects the C library's output to the
 * debugger (semihosting) and calls main. main's return value ends the
 * program through semihosting, so qemu exits with it. */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t __data_start, __data_end, __data_load, __bss_start, __bss_end;
extern uint32_t __stack_top;

int main(void);
/* From newlib's librdimon: opens stdin/stdout/stderr over semihosting. */
void initialise_monitor_handles(void);

void reset_handler(void) {
  uint32_t* src = &__data_load;
  uint32_t* dst;
  for (dst = &__data_start; dst < &__data_end;) *dst++ = *src++;
  for (dst = &__bss_start; dst < &__bss_end;) *dst++ = 0;
#if defined(__ARM_FP)
  /* CPACR: full access to coprocessors 10 and 11 (the FPU). */
  *(volatile uint32_t*)0xE000ED88 |= 0xFu << 20;
  __asm volatile("dsb\n\tisb");
#endif
  initialise_monitor_handles();
  exit(main());
}

/* A fault ends the program with a failure instead of hanging qemu. */
static void fault_handler(void) { _Exit(70); }

__attribute__((section(".vectors"), used)) static void* const vectors[16] = {
    &__stack_top,   reset_handler, fault_handler, fault_handler,
    fault_handler,  fault_handler, fault_handler, 0,
    0,              0,             0,             fault_handler,
    fault_handler,  0,             fault_handler, fault_handler,
};
