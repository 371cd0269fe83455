#!/usr/bin/env bash
# Runs the StableHLO test data through `aotc conform` and compares the files
# that do not pass with the list of known ones (docs/conformance.md explains
# each):
#
#   run_conformance.sh AOTC MODE DATA_DIR KNOWN_LIST WORK_DIR
#
# MODE is `compiled` or `evaluator`. KNOWN_LIST holds one `FAIL name` or
# `UNSUPPORTED name` line per file that is known not to pass (text after the
# name is a comment). The test fails when a file fails or is unsupported
# without being listed, when a listed file now passes or changed outcome (so
# the list stays true), or when fewer than 98% of the files pass.
set -uo pipefail
aotc=$1 mode=$2 data=$3 known=$4 work=$5
if [ ! -d "$data" ]; then
  echo "conformance: $data is missing (the StableHLO test data beside the checkout)" >&2
  exit 1
fi
mkdir -p "$work"
out="$work/conform-$mode.txt"
flags=()
[ "$mode" = evaluator ] && flags+=(--evaluator)
"$aotc" conform "${flags[@]}" --timeout 120 "$data" > "$out"
rc=$?
if [ $rc -gt 1 ]; then
  echo "conformance: aotc conform exited with $rc" >&2
  exit 1
fi
summary=$(tail -n 1 "$out")
echo "$summary"
# Outcome and base name of every file that did not pass, sorted.
grep -E '^(FAIL|UNSUPPORTED) ' "$out" | sed -E 's#^(FAIL|UNSUPPORTED) ([^:]*/)?([^/: ]+)(:.*)?$#\1 \3#' | sort > "$work/got-$mode.txt"
grep -E '^(FAIL|UNSUPPORTED) ' "$known" | awk '{print $1, $2}' | sed 's/:$//' | sort > "$work/known-$mode.txt"
status=0
new=$(comm -23 "$work/got-$mode.txt" "$work/known-$mode.txt")
gone=$(comm -13 "$work/got-$mode.txt" "$work/known-$mode.txt")
if [ -n "$new" ]; then
  echo "conformance ($mode): not passing and not in $known:" >&2
  while read -r outcome name; do
    grep -E "^$outcome [^ ]*$name" "$out" >&2
  done <<< "$new"
  status=1
fi
if [ -n "$gone" ]; then
  echo "conformance ($mode): listed in $known but now different (passing, or another outcome); update the list and docs/conformance.md:" >&2
  echo "$gone" >&2
  status=1
fi
passed=$(echo "$summary" | sed -nE 's/^conform: ([0-9]+) passed, .* of ([0-9]+)$/\1/p')
total=$(echo "$summary" | sed -nE 's/^conform: ([0-9]+) passed, .* of ([0-9]+)$/\2/p')
if [ -z "$passed" ] || [ $((passed * 100)) -lt $((total * 98)) ]; then
  echo "conformance ($mode): $passed of $total passed, under 98%" >&2
  status=1
fi
exit $status
