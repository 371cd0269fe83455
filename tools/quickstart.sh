#!/usr/bin/env bash
# The main job: set up, build aotc, and inspect the running example
# (mean(x**2 * 3 + y) over 4096x4096 f32, HLO as JAX prints it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/build.sh" aotc
"$root/build/tools/aotc" inspect "$root/samples/running_example.hlo"
