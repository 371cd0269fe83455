#!/usr/bin/env bash
# The sanitizer build: Clang 19 with AddressSanitizer + UBSan
# (-fno-sanitize-recover=all: the first report fails the test) and coverage
# instrumentation for libFuzzer, in build-asan/ (configured by tools/fuzz.sh).
# It builds the test suite and the fuzz targets, runs the tests (a reduced
# set, below) and then each fuzz target for AOTC_FUZZ_SECONDS (default 60) on
# its seed corpus, printing the executions per second each reached.
#
#   tools/sanitize.sh                 everything
#   tools/sanitize.sh -R parser       extra arguments go to the unit-test ctest
#
# Left out of the sanitizer run, to keep .ci/run under 45 minutes on 2 cores
# (the normal build runs all of them): the whole-corpus tests (every corpus
# module evaluated, compiled and compared: minutes each even without
# sanitizers), the StableHLO conformance suite (1820 programs compiled and
# evaluated, likewise), bench_smoke (no benchmarks are built here), and the
# cmake_integration tests (downstream projects built without sanitizers
# cannot link the instrumented runtime).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export AOTC_ASAN_BUILD_DIR=${AOTC_ASAN_BUILD_DIR:-$root/build-asan}
build=$AOTC_ASAN_BUILD_DIR
"$root/tools/fuzz.sh" build
ninja -C "$build" all

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
(cd "$build" && ctest --output-on-failure -j "$(nproc)" -LE 'fuzz|python' \
  -E '^(Shard/CorpusEvalTest|Shard/CorpusCodegenTest|CorpusRoundTripTest|bench_smoke|cmake_integration/|conformance/)' \
  "$@") || status=$?
"$root/tools/fuzz.sh" smoke -j "$(nproc)" || status=$?
exit $status
