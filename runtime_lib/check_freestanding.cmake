# Proves that runtime.c is freestanding C99: it compiles with
# -ffreestanding -nostdlib under strict warnings, and the object references
# no external symbol at all (`nm -u` prints nothing). Run by CTest:
#   cmake -DCC=cc -DNM=nm -DSOURCE=runtime.c -DINCLUDE_DIR=include
#         -DOUT_DIR=dir -P check_freestanding.cmake
foreach(var CC NM SOURCE INCLUDE_DIR OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_freestanding.cmake needs -D${var}=...")
  endif()
endforeach()

file(MAKE_DIRECTORY "${OUT_DIR}")
# Each optimization level may make the compiler introduce different calls
# (memset for a loop, a stack protector), so every one is checked.
foreach(opt -O0 -O2 -Os)
  set(object "${OUT_DIR}/runtime${opt}.o")
  execute_process(
    COMMAND "${CC}" -std=c99 -ffreestanding -nostdlib -Wall -Wextra -Werror
            -pedantic ${opt} -I "${INCLUDE_DIR}" -c "${SOURCE}" -o "${object}"
    RESULT_VARIABLE rc
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "freestanding ${opt} compile failed:\n${err}")
  endif()
  execute_process(
    COMMAND "${NM}" -u "${object}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE undefined
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm -u failed on ${object}:\n${err}")
  endif()
  string(STRIP "${undefined}" undefined)
  if(NOT undefined STREQUAL "")
    message(FATAL_ERROR
            "runtime object built with ${opt} references external symbols:\n"
            "${undefined}")
  endif()
  message(STATUS "${opt}: no external symbols")
endforeach()
