#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds aotc in build/
# (Ninja, ccache, RelWithDebInfo). Extra arguments go to ninja. With
# AOTC_DEPS=--all it installs what the whole test suite needs first
# (tools/setup-deps.sh --all, as tools/test.sh does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
before=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)
"$root/tools/setup-deps.sh" ${AOTC_DEPS:-}
after=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)
# Configure once, and again when packages were installed: a configuration
# made before the benchmarks' or the cross targets' tools were there would
# leave them out.
if [ ! -f "$root/build/build.ninja" ] || [ "$before" != "$after" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$root/build" "$@"
