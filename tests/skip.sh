# Sourced by the test scripts: skip_test REASON says SKIPPED with the reason
# and exits 77 (ctest's SKIP_RETURN_CODE of these tests), or, under .ci/run
# (AOTC_CI=1), says so and exits 1: CI never passes by skipping.
skip_test() {
  echo "SKIPPED: $*"
  if [ "${AOTC_CI:-}" = 1 ]; then
    echo "error: under .ci/run (AOTC_CI=1) a skipped test is a failure"
    exit 1
  fi
  exit 77
}
