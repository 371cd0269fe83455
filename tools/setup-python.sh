#!/usr/bin/env bash
# Creates the Python environment of aotc's tests and benchmarks: a virtual
# environment (Debian's python3-venv) with the pinned packages of
# tools/python-requirements.txt (JAX and XLA:CPU, Flax, Keras, keras-hub,
# TensorFlow; IREE, ONNX Runtime and jax2onnx for bench/peers). Idempotent, and silent when the environment is there with the
# same requirements. Python packages are tools of the tests only: aotc, its
# runtime and the code it generates never use them.
#
#   tools/setup-python.sh [VENV_DIR]    default: build/venv
#
# Prints nothing and exits 0 when the environment is ready; on failure says
# why on stderr and exits 1 (the tests that need it then say SKIPPED, and
# fail under .ci/run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$root/build/venv}
req=$root/tools/python-requirements.txt
stamp=$venv/.aotc-requirements
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

# Debian's own Python, whatever else is first on PATH.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
[ -n "$py" ] || { echo "setup-python: no python3" >&2; exit 1; }
if ! "$py" -c 'import ensurepip, venv' 2>/dev/null; then
  "$root/tools/setup-deps.sh" --python
fi

echo "setup-python: installing the test packages into $venv" >&2
start=$SECONDS
mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
log=$venv/pip.log
if ! "$venv/bin/python" -m pip install --disable-pip-version-check -q \
    -r "$req" >"$log" 2>&1; then
  echo "setup-python: pip failed (the end of $log):" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
echo "$want" >"$stamp"
echo "setup-python: ready in $((SECONDS - start)) s" >&2
