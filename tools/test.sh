#!/usr/bin/env bash
# Sets up (everything the tests need: tools/setup-deps.sh --all), builds
# everything and runs the whole test suite with CTest.
# The corpus tests read ../shared/hlo-corpus beside the checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
AOTC_DEPS=--all "$root/tools/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" "$@"
