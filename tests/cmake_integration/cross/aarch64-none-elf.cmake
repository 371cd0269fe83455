# Toolchain for the cross test: bare-metal AArch64 with clang (the compiler
# comes from the environment variable AOTC_CROSS_CC, which try_compile
# projects inherit too). Only static libraries are built, so no C library or
# linker script is needed.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER "$ENV{AOTC_CROSS_CC}")
set(CMAKE_C_COMPILER_TARGET aarch64-none-elf)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
