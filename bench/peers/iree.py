"""IREE's llvm-cpu backend as a peer of bench/peers/peers.py.

The model's StableHLO text (FORM.mlir: with the weights as parameters they
are function arguments, fed from the same .npy files as every other peer's)
is compiled by `iree-compile --iree-hal-target-backends=llvm-cpu
--iree-llvmcpu-target-cpu=host`, run once by `iree-run-module
--output=@resultK.npy` (raw bytes for bf16) for the outputs and `--print_statistics` for the
allocator's peak, and timed by `iree-benchmark-module`, one iteration per
repetition (so min and median are of single runs, as for the other peers):
`--device=local-sync` at one thread (the calling thread runs everything),
`--device=local-task --task_topology_max_group_count=T` at T threads (T
workers). Every command runs pinned to the row's CPUs.
"""

import json
import pathlib
import re
import subprocess
import time

COMPILE_FLAGS = ("--iree-hal-target-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=host")


class IreeFailure(Exception):
  """An IREE tool failed; the message has its last lines."""


def tool(venv_bin, name):
  path = pathlib.Path(venv_bin) / name
  if not path.exists():
    raise IreeFailure(f"{path} is missing (tools/setup-python.sh installs "
                      "iree-base-compiler and iree-base-runtime)")
  return str(path)


def _run(command, pin, timeout, what):
  start = time.perf_counter()
  try:
    done = subprocess.run(command, capture_output=True, text=True,
                          preexec_fn=pin, timeout=timeout)
  except subprocess.TimeoutExpired:
    raise IreeFailure(f"{what} took longer than {timeout} s") from None
  seconds = time.perf_counter() - start
  if done.returncode != 0:
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-6:])
    raise IreeFailure(f"{what} exited with {done.returncode}:\n{tail}")
  return done.stdout, done.stderr, seconds


def device_flags(threads):
  if threads == 1:
    return ["--device=local-sync"]
  return ["--device=local-task", f"--task_topology_max_group_count={threads}"]


def compile_module(venv_bin, mlir, vmfb, pin, timeout):
  """iree-compile's wall seconds."""
  _, _, seconds = _run([tool(venv_bin, "iree-compile"), *COMPILE_FLAGS,
                        str(mlir), "-o", str(vmfb)], pin, timeout,
                       f"iree-compile {mlir}")
  return seconds


def input_flags(inputs):
  return [f"--input=@{p}" for p in inputs]


def run_outputs(venv_bin, vmfb, inputs, expected, out_dir, pin, timeout):
  """Writes out_dir/resultK.npy, one per array of `expected` (XLA's); returns
  the allocator's peak bytes of device-local memory (None when it prints
  none). IREE writes no bf16 .npy: such a result is written as raw bytes
  and read back in XLA's result's shape, its byte count checked."""
  import numpy as np
  out_dir.mkdir(parents=True, exist_ok=True)
  outputs, raw = [], []
  for k, want in enumerate(expected):
    if want.dtype.name == "bfloat16":
      raw.append((k, want))
      outputs.append(f"--output=@{out_dir / f'result{k}.bin'}")
    else:
      outputs.append(f"--output=@{out_dir / f'result{k}.npy'}")
  stdout, stderr, _ = _run(
      [tool(venv_bin, "iree-run-module"), "--device=local-sync",
       f"--module={vmfb}", "--function=main", *input_flags(inputs), *outputs,
       "--print_statistics"], pin, timeout, f"iree-run-module {vmfb}")
  for k, want in raw:
    data = np.fromfile(out_dir / f"result{k}.bin", dtype=want.dtype)
    if data.size != want.size:
      raise IreeFailure(f"result {k} has {data.size} bf16 elements, XLA's "
                        f"{want.size}")
    np.save(out_dir / f"result{k}.npy", data.reshape(want.shape))
  peak = re.search(r"DEVICE_LOCAL:\s+(\d+)B peak", stdout + stderr)
  return int(peak.group(1)) if peak else None


def benchmark(venv_bin, vmfb, inputs, threads, runs, pin, timeout):
  """[ms of each run] from iree-benchmark-module's JSON."""
  stdout, _, _ = _run(
      [tool(venv_bin, "iree-benchmark-module"), *device_flags(threads),
       f"--module={vmfb}", "--function=main", *input_flags(inputs),
       f"--benchmark_repetitions={runs}", "--benchmark_min_time=1x",
       "--benchmark_format=json"], pin, timeout,
      f"iree-benchmark-module {vmfb} ({threads} threads)")
  try:
    report = json.loads(stdout)
  except json.JSONDecodeError as e:
    raise IreeFailure(f"iree-benchmark-module printed no JSON: {e}") from None
  scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
  samples = [b["real_time"] * scale[b["time_unit"]]
             for b in report.get("benchmarks", [])
             if b.get("run_type") == "iteration"]
  if not samples:
    raise IreeFailure("iree-benchmark-module reported no iteration")
  return samples
