#!/usr/bin/env bash
# Builds and runs aotc's libFuzzer targets (tests/fuzz) in the sanitizer
# build tree (build-asan/, shared with tools/sanitize.sh): Clang 19 with
# ASan + UBSan and coverage instrumentation.
#
#   tools/fuzz.sh                        configure + build the targets and seeds
#   tools/fuzz.sh smoke [CTEST_ARGS...]  then run every target for
#                                        AOTC_FUZZ_SECONDS (default 60) via ctest
#   tools/fuzz.sh long TARGET [SECONDS]  then run one target (default 3600 s)
#                                        with 2 jobs on 2 workers
#
# TARGET is fuzz_hlo_text, fuzz_hlo_proto, fuzz_npy, fuzz_optimize or
# fuzz_stablehlo. Environment:
# AOTC_ASAN_BUILD_DIR (default build-asan/ in the checkout), AOTC_FUZZ_SECONDS
# (smoke length, kept in the build tree's cache), AOTC_FUZZ_JOBS (long, 2).
# New inputs accumulate in BUILD/fuzz-corpus/TARGET; crashes, hangs (10 s per
# input) and out-of-memory inputs (2 GiB) are written to
# BUILD/tests/fuzz/artifacts/TARGET-*; `long` logs go to BUILD/fuzz-logs/TARGET.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AOTC_ASAN_BUILD_DIR:-$root/build-asan}
mode=${1:-build}

usage() {
  sed -n '6,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

configure_and_build() {
  "$root/tools/setup-deps.sh" --all
  local seconds_arg=()
  if [ -n "${AOTC_FUZZ_SECONDS:-}" ]; then
    seconds_arg=(-DAOTC_FUZZ_SECONDS="$AOTC_FUZZ_SECONDS")
  fi
  if [ ! -f "$build/build.ninja" ]; then
    CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAOTC_FUZZ=ON -DAOTC_BUILD_BENCH=OFF \
      "${seconds_arg[@]}" >/dev/null
  elif [ ${#seconds_arg[@]} -gt 0 ]; then
    cmake "$build" "${seconds_arg[@]}" >/dev/null
  fi
  # Only the fuzz targets, their libraries and the seeds: tools/sanitize.sh
  # builds `all` (the test suite) in the same tree.
  ninja -C "$build" aotc_fuzz
}

# Prints "TARGET: N exec/s" for each finished smoke run of the last ctest.
smoke_summary() {
  local log="$build/Testing/Temporary/LastTest.log"
  [ -f "$log" ] || return 0
  awk '/^[0-9]+\/[0-9]+ Test: / { test = $3 }
       /stat::average_exec_per_sec:/ { print "  " test ": " $2 " exec/s" }' "$log"
}

case "$mode" in
  build)
    configure_and_build
    ;;
  smoke)
    shift
    configure_and_build
    status=0
    ctest --test-dir "$build" -L fuzz --output-on-failure "$@" || status=$?
    smoke_summary
    exit $status
    ;;
  long)
    [ $# -ge 2 ] || usage
    target=$2
    seconds=${3:-3600}
    case "$target" in
      fuzz_hlo_text | fuzz_hlo_proto | fuzz_npy | fuzz_optimize) ;;
      *) echo "fuzz.sh: unknown target '$target'" >&2; usage ;;
    esac
    configure_and_build
    jobs=${AOTC_FUZZ_JOBS:-2}
    corpus="$build/fuzz-corpus/$target"
    seeds="$build/tests/fuzz/seeds/${target#fuzz_}"
    [ "$target" = fuzz_optimize ] && seeds="$build/tests/fuzz/seeds/hlo_text"
    artifacts="$build/tests/fuzz/artifacts"
    logs="$build/fuzz-logs/$target"
    mkdir -p "$corpus" "$artifacts" "$logs"
    dict=()
    case "$target" in
      fuzz_hlo_text | fuzz_optimize) dict=(-dict="$root/tests/fuzz/hlo.dict") ;;
    esac
    # With -jobs, libFuzzer writes each job's output to fuzz-N.log in the
    # working directory.
    cd "$logs"
    status=0
    "$build/tests/fuzz/$target" -jobs="$jobs" -workers="$jobs" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
      "${dict[@]}" "$corpus" "$seeds" || status=$?
    for log in fuzz-*.log; do
      [ -f "$log" ] || continue
      echo "$log: $(grep -o 'average_exec_per_sec: *[0-9]*' "$log" || echo 'no final stats (stopped early)')"
    done
    if [ $status -ne 0 ]; then
      echo "fuzz.sh: $target found a problem; inputs in $artifacts, logs in $logs" >&2
    fi
    exit $status
    ;;
  *)
    usage
    ;;
esac
