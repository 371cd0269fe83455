#!/usr/bin/env bash
# Builds aotc_bench, runs every benchmark 5 times and prints a Markdown
# table: median wall time, bandwidth, and time relative to the group's
# baseline at the same thread count (the memory roofline, or Eigen for the
# compute-bound gelu_mlp), followed by the machine and the command.
#
#   tools/bench.sh                                      everything
#   tools/bench.sh --benchmark_filter=running_example   extra aotc_bench flags
#
# The raw results go to build/bench.json. The benchmark is built in the
# tree tools/build.sh makes (build/, RelWithDebInfo: -O2), so it needs no
# second build of aotc; AOTC_BENCH_BUILD_DIR names another configured tree.
# The models are compiled by the aotc of that tree, for this machine's CPU.
# docs/performance.md explains the table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AOTC_BENCH_BUILD_DIR:-$root/build}
json=$root/build/bench.json
mkdir -p "$root/build"

if [ -z "${AOTC_BENCH_BUILD_DIR:-}" ]; then
  AOTC_DEPS=--all "$root/tools/build.sh" aotc_bench >&2
else
  "$root/tools/setup-deps.sh" --all
  ninja -C "$build" aotc_bench >&2
fi
[ -x "$build/bench/aotc_bench" ] || {
  echo "bench.sh: aotc_bench was not built (is libbenchmark-dev or libeigen3-dev missing?)" >&2
  exit 1
}

command=("$build/bench/aotc_bench" --benchmark_format=json
         --benchmark_repetitions=5 --benchmark_report_aggregates_only=true "$@")
echo "bench.sh: running ${command[*]} > $json" >&2
"${command[@]}" >"$json"

model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
cpus=$(nproc)
simd=$(grep -m1 -o -w -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ' || true)
revision=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null || true)" ]; then
  revision="$revision (with local changes)"
fi

python3 - "$json" "$model" "$cpus" "$simd" "$revision" "${command[*]} > $json" <<'EOF'
import json
import sys

path, model, cpus, simd, revision, command = sys.argv[1:7]
with open(path) as f:
    report = json.load(f)

# Medians by (group, variant, threads); errors reported by any run.
medians = {}
errors = {}
order = []
for b in report["benchmarks"]:
    parts = b["run_name"].split("/")
    group, variant = parts[0], parts[1]
    threads = next(int(p.split(":")[1]) for p in parts if p.startswith("threads:"))
    key = (group, variant, threads)
    if key not in order:
        order.append(key)
    if b.get("error_occurred"):
        errors[key] = b.get("error_message", "error")
    elif b.get("aggregate_name") == "median":
        medians[key] = b
    elif b.get("aggregate_name") == "cv":
        medians.setdefault(("cv",) + key, b)

def millis(b):
    return b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]

def baseline(group, threads):
    for variant in ("roofline", "eigen_tensor"):
        if (group, variant, threads) in medians:
            return variant, medians[(group, variant, threads)]
    return None, None

print("| benchmark | threads | median time (ms) | cv | GB/s | GFLOP/s | time / baseline |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for key in order:
    group, variant, threads = key
    name = f"{group}/{variant}"
    if key in errors:
        print(f"| {name} | {threads} | ERROR: {errors[key]} | | | | |")
        continue
    if key not in medians:
        continue
    b = medians[key]
    ms = millis(b)
    cv = medians.get(("cv",) + key)
    cv_text = f"{100 * cv['real_time']:.1f}%" if cv else ""
    gbs = b.get("bytes_per_second")
    gbs_text = f"{gbs / 1e9:.2f}" if gbs else ""
    flops = b.get("FLOP/s")
    flops_text = f"{flops / 1e9:.1f}" if flops else ""
    base_variant, base = baseline(group, threads)
    ratio = ""
    if base is not None:
        ratio = f"{ms / millis(base):.2f}"
        if base_variant != "roofline":
            ratio += f" ({base_variant})"
    print(f"| {name} | {threads} | {ms:.2f} | {cv_text} | {gbs_text} | {flops_text} | {ratio} |")

context = report.get("context", {})
print()
print(f"Machine: {model}, {cpus} CPUs ({context.get('num_cpus', '?')} seen by "
      f"Google Benchmark at {context.get('mhz_per_cpu', '?')} MHz), SIMD: {simd.strip() or 'none of avx2/avx512f'}; "
      f"load average at start {', '.join(f'{x:.2f}' for x in context.get('load_avg', []))}.")
print(f"aotc revision: {revision}. Date: {context.get('date', '?')}.")
print(f"Command: `{command}`")
print("Baseline: the group's roofline at the same thread count, or eigen_tensor where marked.")
EOF
