#!/usr/bin/env bash
# Drives the CMake integration tests: installs the build tree, then
# configures, builds and runs downstream projects against it.
#
#   driver.sh install BUILD_DIR PREFIX
#   driver.sh project NAME SOURCE_DIR WORK_DIR CHECK_FILE PROGRAM [CMAKE_ARG...]
#   driver.sh python-project VENV NAME SOURCE_DIR WORK_DIR CHECK_FILE PROGRAM [CMAKE_ARG...]
#   driver.sh symbols OBJECT:NAME...
#   driver.sh subdirectory SOURCE_DIR WORK_DIR AOTC_SOURCE_DIR TARGET
#   driver.sh cross SOURCE_DIR WORK_DIR PREFIX TOOLCHAIN_FILE
#   driver.sh argument-errors SOURCE_DIR WORK_DIR CASES_FILE
#
# The environment gives the tools: AOTC_CMAKE, AOTC_GENERATOR, AOTC_CC,
# AOTC_CXX, AOTC_FILECHECK, AOTC_NM (llvm-nm), AOTC_NINJA (for
# `subdirectory`), and for `cross` AOTC_CROSS_CC and AOTC_READOBJ. Every step
# logs to WORK_DIR; the first failing step stops the test with a message
# naming the step, followed by the end of its log. Exit code 77 means skipped.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../skip.sh"

die() {
  echo "cmake_integration: FAILED: $*" >&2
  exit 1
}

# run_step DESCRIPTION LOG COMMAND...: runs COMMAND with its output in LOG.
run_step() {
  local description=$1 log=$2
  shift 2
  echo "cmake_integration: $description"
  "$@" >"$log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "---- last lines of $log ----" >&2
    tail -n 40 "$log" >&2
    echo "----" >&2
    die "$description (exit code $rc; full log: $log)"
  fi
}

# configure SOURCE_DIR BUILD_DIR LOG [CMAKE_ARG...]: a fresh configure with the
# generator and compilers of the aotc build.
configure() {
  local source=$1 build=$2 log=$3
  shift 3
  rm -rf "$build"
  run_step "configure $source" "$log" \
    "$AOTC_CMAKE" -S "$source" -B "$build" -G "$AOTC_GENERATOR" \
    -DCMAKE_C_COMPILER="$AOTC_CC" -DCMAKE_CXX_COMPILER="$AOTC_CXX" \
    -DCMAKE_BUILD_TYPE=Release "$@"
}

# check_symbols OBJECT NAME: the model object defines only symbols starting
# with NAME_ (so models never clash) and needs nothing but the aotc runtime
# and the mem* functions compilers may call (in particular no libm).
check_symbols() {
  local object=$1 name=$2 log="$1.symbols.log" bad
  run_step "list the symbols of $object" "$log" \
    "$AOTC_NM" --extern-only --format=just-symbols --defined-only "$object"
  [ -s "$log" ] || die "$object defines no symbol"
  bad=$(grep -v -E "^${name}_[A-Za-z0-9_]+\$" "$log")
  [ -z "$bad" ] || die "$object defines symbols without the prefix ${name}_: $bad"
  run_step "list the undefined symbols of $object" "$log" \
    "$AOTC_NM" --undefined-only --format=just-symbols "$object"
  bad=$(grep -v -E '^(aotc_[A-Za-z0-9_]+|memcpy|memmove|memset)$' "$log")
  [ -z "$bad" ] || die "$object needs symbols beyond the aotc runtime and mem*: $bad"
}

step_install() {
  local build=$1 prefix=$2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  run_step "install $build into $prefix" "$prefix.log" \
    "$AOTC_CMAKE" --install "$build" --prefix "$prefix"
  local file
  for file in bin/aotc lib/libaotc_runtime.a include/aotc/runtime.h \
      share/aotc/runtime/runtime.c lib/cmake/aotc/aotcConfig.cmake \
      lib/cmake/aotc/aotcConfigVersion.cmake lib/cmake/aotc/aotcTargets.cmake \
      lib/cmake/aotc/aotcRuntimeTargets.cmake lib/cmake/aotc/AotcModel.cmake; do
    [ -f "$prefix/$file" ] || die "the install has no $file (see $prefix.log)"
  done
  run_step "run the installed aotc" "$prefix.version.log" \
    "$prefix/bin/aotc" --version
}

step_project() {
  local name=$1 source=$2 work=$3 check=$4 program=$5
  shift 5
  local build="$work/$name"
  mkdir -p "$work"
  configure "$source" "$build" "$build.configure.log" "$@"
  run_step "build $name" "$build.build.log" "$AOTC_CMAKE" --build "$build"
  run_step "run $name" "$build.run.log" "$build/$program"
  cat "$build.run.log"
  run_step "check the output of $name against $check" "$build.check.log" \
    "$AOTC_FILECHECK" "$check" --input-file "$build.run.log"
}

# `project` for a sample whose export step runs Python: VENV is the test
# environment (tools/setup-python.sh), whose Python the sample gets as
# AOTC_SAMPLE_PYTHON; skipped without it.
step_python_project() {
  local venv=$1
  shift
  if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.aotc-requirements" ]; then
    skip_test "cmake_integration: no Python test environment at $venv (tools/setup-python.sh makes it)"
  fi
  step_project "$@" -DAOTC_SAMPLE_PYTHON="$venv/bin/python"
}

# Checks the symbols of models built by an earlier `project` step: each
# argument is OBJECT:NAME.
step_symbols() {
  local pair
  [ $# -gt 0 ] || die "symbols: no OBJECT:NAME given"
  for pair in "$@"; do
    [ -f "${pair%%:*}" ] || die "missing ${pair%%:*} (did the project build?)"
    check_symbols "${pair%%:*}" "${pair#*:}"
    echo "cmake_integration: ok: ${pair%%:*} exports only ${pair#*:}_* symbols"
  done
}

# add_subdirectory() mode builds all of aotc inside the downstream project,
# which takes minutes; the test stops after configuring and asks Ninja for a
# dry run, which shows that the model's rule runs the in-tree aotc only after
# linking it. (Make cannot dry-run CMake's recursive makefiles: they need the
# libraries a real build would have made, so Ninja is used whatever the
# generator of the aotc build.)
step_subdirectory() {
  local source=$1 work=$2 aotc_source=$3 target=$4
  local build="$work/subdirectory"
  if ! command -v "$AOTC_NINJA" >/dev/null 2>&1; then
    skip_test "cmake_integration: no ninja for the dry run"
  fi
  mkdir -p "$work"
  AOTC_GENERATOR=Ninja configure "$source" "$build" "$build.configure.log" \
    -DCMAKE_MAKE_PROGRAM="$AOTC_NINJA" -DAOTC_SOURCE_DIR="$aotc_source"
  run_step "dry-run build of $target" "$build.dry-run.log" \
    "$AOTC_NINJA" -C "$build" -n -v "$target"
  local link compile
  link=$(grep -n -E -- "-o [^ ]*aotc/tools/aotc( |$)" "$build.dry-run.log" |
         head -n 1 | cut -d: -f1)
  compile=$(grep -n -E -- "aotc/tools/aotc compile " "$build.dry-run.log" |
            head -n 1 | cut -d: -f1)
  [ -n "$link" ] || die "the dry run never links the in-tree aotc (see $build.dry-run.log)"
  [ -n "$compile" ] || die "the dry run never runs 'aotc compile' with the in-tree aotc (see $build.dry-run.log)"
  [ "$link" -lt "$compile" ] ||
    die "the model is compiled before aotc is linked (see $build.dry-run.log)"
  echo "cmake_integration: aotc is linked at line $link, the model compiled at line $compile"
}

# Cross-compiles a model library for AArch64 against the installed package:
# aotc gets the toolchain's target triple, the runtime is compiled from its
# installed source, and both objects must be AArch64 code.
step_cross() {
  local source=$1 work=$2 prefix=$3 toolchain=$4
  if ! command -v "$AOTC_CROSS_CC" >/dev/null 2>&1; then
    skip_test "cmake_integration: no $AOTC_CROSS_CC to cross-compile with"
  fi
  local build="$work/cross"
  mkdir -p "$work"
  rm -rf "$build"
  run_step "configure $source for AArch64" "$build.configure.log" \
    "$AOTC_CMAKE" -S "$source" -B "$build" -G "$AOTC_GENERATOR" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DAOTC_CROSS_CC="$AOTC_CROSS_CC" \
    -Daotc_DIR="$prefix/lib/cmake/aotc"
  run_step "build $source for AArch64" "$build.build.log" \
    "$AOTC_CMAKE" --build "$build" --verbose
  grep -q -- "--target-triple aarch64-none-elf" "$build.build.log" ||
    die "aotc did not get the toolchain's target triple (see $build.build.log)"
  local object
  for object in "$build/cross_model_aotc/cross_model.o" "$build/libaotc_runtime.a"; do
    [ -f "$object" ] || die "missing $object"
    run_step "read the headers of $object" "$build.readobj.log" \
      "$AOTC_READOBJ" --file-headers "$object"
    grep -q "EM_AARCH64" "$build.readobj.log" ||
      die "$object is not AArch64 code (see $build.readobj.log)"
  done
  check_symbols "$build/cross_model_aotc/cross_model.o" cross_model
  echo "cmake_integration: the model and the runtime are AArch64 objects"
}

# Builds the Cortex-M4 firmware of samples/cortex_m with its toolchain file
# against the installed aotc and runs it on qemu's MPS2 AN386 board; the
# output (semihosting) is checked with FileCheck.
step_firmware() {
  local source=$1 work=$2 prefix=$3 check=$4 tool
  for tool in arm-none-eabi-gcc qemu-system-arm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      skip_test "cmake_integration: no $tool (tools/setup-deps.sh installs it)"
    fi
  done
  if [ ! -f "$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard \
                -mfpu=fpv4-sp-d16 -print-file-name=librdimon.a)" ]; then
    skip_test "cmake_integration: no newlib for arm-none-eabi-gcc (libnewlib-arm-none-eabi)"
  fi
  local build="$work/cortex_m"
  mkdir -p "$work"
  rm -rf "$build"
  run_step "configure $source for Cortex-M4" "$build.configure.log" \
    "$AOTC_CMAKE" -S "$source" -B "$build" -G "$AOTC_GENERATOR" \
    -DCMAKE_TOOLCHAIN_FILE="$source/cortex_m4.cmake" \
    -Daotc_DIR="$prefix/lib/cmake/aotc"
  run_step "build the firmware" "$build.build.log" \
    "$AOTC_CMAKE" --build "$build"
  grep "footprint:\|constants:" "$build.build.log" || true
  run_step "size of the firmware" "$build.size.log" \
    arm-none-eabi-size -A "$build/firmware.elf"
  grep -E "^(\.text|\.flash_weights|\.data|\.bss) " "$build.size.log"
  run_step "run the firmware on qemu-system-arm -M mps2-an386" "$build.run.log" \
    timeout 60 qemu-system-arm -M mps2-an386 -nographic -monitor none \
    -serial none -semihosting-config enable=on,target=native \
    -kernel "$build/firmware.elf"
  cat "$build.run.log"
  run_step "check the output against $check" "$build.check.log" \
    "$AOTC_FILECHECK" "$check" --input-file "$build.run.log"
}

# Each case of CASES_FILE is one line `CALL => EXPECTED`: configuring
# SOURCE_DIR with -DCALL=CALL must fail with EXPECTED in its error output
# (compared with all whitespace runs collapsed, since CMake wraps messages).
step_argument_errors() {
  local source=$1 work=$2 cases=$3
  local build="$work/argument_errors" n=0 call expected output
  mkdir -p "$work"
  while IFS= read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    call=${line%% => *}
    expected=${line#* => }
    n=$((n + 1))
    rm -rf "$build"
    output=$("$AOTC_CMAKE" -S "$source" -B "$build" -DCALL="$call" 2>&1) &&
      die "configuring with $call succeeded; expected: $expected"
    output=$(echo "$output" | tr -s ' \n' ' ')
    case "$output" in
      *"$expected"*) echo "cmake_integration: ok: $call" ;;
      *) die "$call: expected the error '$expected', got: $output" ;;
    esac
  done <"$cases"
  [ $n -gt 0 ] || die "no cases in $cases"
}

[ $# -ge 1 ] || die "usage: driver.sh STEP ARG..."
step=$1
shift
case "$step" in
  install) step_install "$@" ;;
  project) step_project "$@" ;;
  python-project) step_python_project "$@" ;;
  symbols) step_symbols "$@" ;;
  subdirectory) step_subdirectory "$@" ;;
  cross) step_cross "$@" ;;
  firmware) step_firmware "$@" ;;
  argument-errors) step_argument_errors "$@" ;;
  *) die "unknown step '$step'" ;;
esac
