#!/usr/bin/env bash
# Runs a test script with the Python of aotc's test environment
# (tools/setup-python.sh), or skips the test (exit 77) with the reason when
# that environment is not there. Under .ci/run (AOTC_CI=1) a skip is a
# failure: CI never passes by skipping.
#
#   run_python.sh VENV_DIR SCRIPT [ARGS...]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../skip.sh"
venv=$1; shift
if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.aotc-requirements" ]; then
  skip_test "no Python test environment at $venv (tools/setup-python.sh makes it)"
fi
exec "$venv/bin/python" "$@"
