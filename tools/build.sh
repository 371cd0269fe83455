#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds aotc in build/
# (Ninja, ccache, RelWithDebInfo). Extra arguments go to ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup-deps.sh"
if [ ! -f "$root/build/build.ninja" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$root/build" "$@"
