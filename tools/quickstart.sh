#!/usr/bin/env bash
# The main job: set up, build aotc and install it into build/install, then
# build samples/running_example against it (the model, mean(x**2 * 3 + y)
# over 4096x4096 f32 as JAX prints it, is compiled by add_compiled_model())
# and run it: it prints the result, the value computed in double for
# comparison, and the time per run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix="$root/build/install"
sample="$root/build/samples/running_example"

"$root/tools/build.sh" aotc aotc_runtime
cmake --install "$root/build" --prefix "$prefix" >/dev/null
echo "quickstart: installed aotc into $prefix"

if [ ! -f "$sample/build.ninja" ]; then
  cmake -S "$root/samples/running_example" -B "$sample" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
fi
ninja -C "$sample"
"$sample/running_example_demo"
