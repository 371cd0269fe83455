#!/usr/bin/env bash
# Installs the Debian 12 packages aotc needs, if any is missing. Idempotent
# and silent when everything is present. Needs root or sudo.
#
#   tools/setup-deps.sh          what building aotc and its samples needs
#                                (tools/quickstart.sh, tools/build.sh)
#   tools/setup-deps.sh --all    that, and what the whole test suite, the
#                                benchmarks and the sanitizer build need
#                                (tools/test.sh, tools/sanitize.sh,
#                                tools/bench.sh)
#   tools/setup-deps.sh --python that, and python3-venv for the tests'
#                                Python environment (tools/setup-python.sh)
set -euo pipefail

# Building aotc: the compiler, LLVM, the front ends' libraries, and
# GoogleTest and FileCheck, which configuring with the tests (the default)
# looks for.
packages=(
  cmake ninja-build ccache g++ git python3
  llvm-19-dev llvm-19-tools
  libprotobuf-dev protobuf-compiler
  libabsl-dev nlohmann-json3-dev
  googletest libgtest-dev libgmock-dev
)
if [ "${1:-}" = "--python" ]; then
  packages+=(python3-venv)
elif [ "${1:-}" = "--all" ]; then
  packages+=(
    # The tests' Python environment (tools/setup-python.sh).
    python3-venv
    # The sanitizer build and the fuzz targets.
    clang-19 libclang-rt-19-dev
    # The benchmarks and their anchors.
    libbenchmark-dev libeigen3-dev libopenblas-dev libdnnl-dev
    # Cross targets, run under emulation by tests/cross_targets and
    # samples/cortex_m: Linux user mode for AArch64 and RISC-V 64, the Arm
    # MPS2 boards for Cortex-M, and the cross compilers that link them.
    qemu-user qemu-system-arm
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
    gcc-arm-none-eabi libnewlib-arm-none-eabi
  )
elif [ $# -gt 0 ]; then
  echo "usage: tools/setup-deps.sh [--all|--python]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
