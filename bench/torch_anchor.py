#!/usr/bin/python3
"""PyTorch beside aotc on the MLP and ResNet-50 rows, in one run.

  /usr/bin/python3 bench/torch_anchor.py [--aotc-bench build/bench/aotc_bench]
                                         [--repetitions 5] [--runs 200]

An anchor only, never a dependency: Debian's python3-torch and
python3-torchvision (`apt-get install python3-torch python3-torchvision`),
run by Debian's own /usr/bin/python3 (not the tests' venv). It times, at one thread (torch.set_num_threads
and the process pinned to one CPU, aotc_bench's `threads:1` rows likewise):

  mlp/b1, mlp/b64   the 784-512-512-10 MLP with erf GELU of bench/models/
                    mlp_b*.hlo, PyTorch eager under no_grad;
  resnet50          torchvision's ResNet-50, frozen TorchScript
                    (torch.jit.freeze of the scripted model in eval mode), one
                    224x224 image.

PyTorch's weights are seeded random ones; only the time matters here, and
aotc_bench checks its own results. The aotc rows come from aotc_bench
(`mlp/aotc/b*`, `resnet50/aotc`, the corpus module resnet50_keras_jax_f32_1)
run in the same invocation, before and after the PyTorch rows, each
reported as its median; the table prints both and their ratio. The machine
(CPU model, avx2/avx512f) comes first. Exit status 1 when PyTorch or
aotc_bench is missing or fails.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROWS = (("mlp/b1", "mlp/aotc/b1/threads:1/real_time"),
        ("mlp/b64", "mlp/aotc/b64/threads:1/real_time"),
        ("resnet50", "resnet50/aotc/threads:1/real_time"))


def machine_line():
  model = "unknown CPU"
  flags = set()
  with open("/proc/cpuinfo") as f:
    for line in f:
      if line.startswith("model name") and model == "unknown CPU":
        model = line.split(":", 1)[1].strip()
      if line.startswith("flags"):
        flags = set(line.split(":", 1)[1].split())
  isa = ", ".join(f"{x} {'yes' if x in flags else 'no'}" for x in ("avx2", "avx512f"))
  return f"machine: {model}, {os.cpu_count()} CPUs, {isa}"


def median_ms(fn, runs):
  fn()  # warm up
  times = []
  for _ in range(runs):
    start = time.perf_counter()
    fn()
    times.append((time.perf_counter() - start) * 1e3)
  return statistics.median(times)


def torch_rows(runs):
  import torch
  import torchvision
  torch.set_num_threads(1)
  torch.manual_seed(20261202)
  rows = {}
  with torch.no_grad():
    mlp = torch.nn.Sequential(
        torch.nn.Linear(784, 512), torch.nn.GELU(),
        torch.nn.Linear(512, 512), torch.nn.GELU(),
        torch.nn.Linear(512, 10)).eval()
    for batch in (1, 64):
      x = torch.rand(batch, 784)
      rows[f"mlp/b{batch}"] = median_ms(lambda: mlp(x), runs)
    net = torchvision.models.resnet50().eval()
    frozen = torch.jit.freeze(torch.jit.script(net))
    image = torch.rand(1, 3, 224, 224)
    for _ in range(3):
      frozen(image)  # the frozen graph's first runs specialise it
    rows["resnet50"] = median_ms(lambda: frozen(image), max(5, runs // 20))
  return rows, f"torch {torch.__version__}, torchvision {torchvision.__version__}"


def aotc_rows(bench, repetitions):
  out = subprocess.run(
      [str(bench), "--benchmark_format=json",
       f"--benchmark_repetitions={repetitions}",
       "--benchmark_report_aggregates_only=true",
       "--benchmark_filter=^(mlp/aotc/b(1|64)|resnet50/aotc)/threads:1"],
      capture_output=True, text=True)
  if out.returncode != 0:
    raise RuntimeError(f"aotc_bench failed: {out.stderr.strip()[-500:]}")
  medians = {}
  for b in json.loads(out.stdout)["benchmarks"]:
    if b.get("aggregate_name") == "median":
      scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
      medians[b["run_name"]] = b["real_time"] * scale
  return medians


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--aotc-bench", default=str(HERE.parent / "build" / "bench" / "aotc_bench"))
  parser.add_argument("--repetitions", type=int, default=5)
  parser.add_argument("--runs", type=int, default=200,
                      help="timed calls per MLP row (ResNet-50: a twentieth, at least 5)")
  args = parser.parse_args()
  bench = pathlib.Path(args.aotc_bench)
  if not bench.exists():
    sys.exit(f"torch_anchor: no {bench} (ninja -C build aotc_bench)")
  try:
    import torch  # noqa: F401
    import torchvision  # noqa: F401
  except ImportError as e:
    sys.exit(f"torch_anchor: {e} (apt-get install python3-torch python3-torchvision)")
  os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
  try:
    before = aotc_rows(bench, args.repetitions)
    torch_ms, versions = torch_rows(args.runs)
    after = aotc_rows(bench, args.repetitions)
  except (RuntimeError, KeyError, ValueError) as e:
    sys.exit(f"torch_anchor: {e}")
  print(machine_line())
  print(f"versions: {versions}; one thread, medians in ms")
  print()
  print("| row | aotc ms (before, after) | PyTorch ms | PyTorch / aotc |")
  print("| --- | ---: | ---: | ---: |")
  for row, name in ROWS:
    if name not in before or name not in after:
      sys.exit(f"torch_anchor: aotc_bench has no {name}")
    aotc = (before[name] + after[name]) / 2
    print(f"| {row} | {before[name]:.3f}, {after[name]:.3f} | {torch_ms[row]:.3f} | "
          f"{torch_ms[row] / aotc:.2f}x |")


if __name__ == "__main__":
  main()
