#!/usr/bin/env bash
# Compiles every module of the HLO corpus with one aotc binary into OUT_DIR,
# one folder per module holding its m.o, m.h, m.json and what aotc printed
# (with the exit code when it refused the module). Run it with the binaries
# before and after a change, then `diff -r OUT_A OUT_B`: a change that must
# not alter generated code (a refactoring) shows no difference.
#
#   tools/corpus-objects.sh AOTC OUT_DIR [CORPUS_DIR]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: tools/corpus-objects.sh AOTC OUT_DIR [CORPUS_DIR]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
aotc=$(realpath "$1")
corpus=$(realpath "${3:-$root/../shared/hlo-corpus}")
mkdir -p "$2"
out=$(realpath "$2")
export aotc out
# Relative output paths keep OUT_DIR's name out of the logs.
ls "$corpus"/*.hlo | xargs -P "$(nproc)" -I{} bash -c '
  m=$(basename "{}" .hlo)
  cd "$out" && mkdir -p "$m"
  "$aotc" compile "{}" -o "$m" --name m >"$m/log" 2>&1 || echo "exit $?" >>"$m/log"'
echo "corpus-objects: $(ls "$out"/*/m.o 2>/dev/null | wc -l) objects in $out"
