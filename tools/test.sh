#!/usr/bin/env bash
# Sets up (everything the tests need: tools/setup-deps.sh --all and
# tools/setup-python.sh), builds everything and runs the whole test suite
# with CTest (AOTC_ZOO_LARGE=1: with the model zoo's largest exports too).
# The corpus tests read ../shared/hlo-corpus beside the checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
AOTC_DEPS=--all "$root/tools/build.sh"
# The Python environment of the model-zoo and Python tests (JAX, Keras, ...).
# Without it those tests say SKIPPED (and fail under .ci/run).
"$root/tools/setup-python.sh" || echo "test: no Python test environment; its tests will say SKIPPED" >&2
cd "$root/build"
# The zoo's weights-as-constants tests of VGG16 and BERT take
# several minutes each (docs/testing.md, "The model zoo"): AOTC_ZOO_LARGE=1
# runs them too.
exclude=()
[ "${AOTC_ZOO_LARGE:-}" = 1 ] || exclude=(-LE zoo_large)
ctest --output-on-failure -j "$(nproc)" "${exclude[@]}" "$@"
