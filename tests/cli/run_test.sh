#!/usr/bin/env bash
# Runs the `// RUN:` lines of one golden test file, in the spirit of LLVM's lit.
#
#   run_test.sh AOTC FILECHECK TEST_FILE WORK_DIR [C_COMPILER]
#
# In each RUN line, %aotc is the aotc binary, %cc the C compiler (for
# libraries a test loads into `aotc run`), %s the test file, %S its folder,
# %t a scratch path unique to the test (created empty), and `not CMD` succeeds
# only when CMD fails with exit code 1 (2 for `not --usage CMD`). Every RUN
# line runs under bash with pipefail; the test fails at the first failing line.
set -uo pipefail
aotc=$1 filecheck=$2 test=$3 work=$4 cc=${5:-cc}
name=$(basename "$test")
tmp="$work/$name.tmp"
rm -rf "$tmp" && mkdir -p "$tmp"

not() {
  local want=1
  if [ "${1:-}" = "--usage" ]; then want=2; shift; fi
  "$@"
  local rc=$?
  if [ $rc -ne $want ]; then
    echo "expected exit code $want, got $rc: $*" >&2
    return 1
  fi
  return 0
}
export -f not

status=0
n=0
while IFS= read -r line; do
  cmd=${line#*RUN: }
  cmd=${cmd//%aotc/$aotc}
  cmd=${cmd//FileCheck/$filecheck}
  cmd=${cmd//%cc/$cc}
  cmd=${cmd//%s/$test}
  cmd=${cmd//%S/$(dirname "$test")}
  cmd=${cmd//%t/$tmp}
  n=$((n + 1))
  echo "RUN[$n]: $cmd"
  if ! bash -o pipefail -c "$cmd"; then
    echo "FAILED: RUN line $n of $name" >&2
    status=1
    break
  fi
done < <(grep -E '^(//|#) RUN: ' "$test")
if [ $n -eq 0 ]; then
  echo "no RUN lines in $test" >&2
  exit 1
fi
exit $status
