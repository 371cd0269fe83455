"""Smoke test of bench/zoo.py: one timed run of flax_mlp in both forms.

Runs the script on the exported flax_mlp (the models/flax_mlp/export
fixtures, both weight forms) with --runs 1 and checks what it prints: the
machine and commit lines, the table's columns, and one row per weights form
whose cells are numbers. The constants form holds the MLP's three kernels,
784x512, 512x512 and 512x10 f32 (its biases start at zero and fold away).
Then a copy of the parameters' export whose XLA result is moved by 1e-3 must
fail: the script times only results it has checked.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np

COLUMNS = [
    "model", "weights", "instructions", "compile s", "s / 1k instr",
    "object bytes", "constants bytes", "TEMP_BYTES", "runs",
    "1 thread min ms", "1 thread median ms",
    "2 threads min ms", "2 threads median ms",
]
KERNEL_BYTES = 4 * (784 * 512 + 512 * 512 + 512 * 10)


def fail(message, output=""):
  print(output)
  print(f"FAILED: {message}")
  sys.exit(1)


def number(text):
  return float(text.replace(",", ""))


def zoo(zoo_dir, *args):
  script = pathlib.Path(os.environ["AOTC_SOURCE_DIR"]) / "bench" / "zoo.py"
  return subprocess.run(
      [sys.executable, str(script), "--models", "flax_mlp", "--runs", "1",
       "--zoo-dir", str(zoo_dir), "--aotc", os.environ["AOTC"], *args],
      capture_output=True, text=True)


def check_wrong_result_fails(zoo_dir):
  """A result off by 1e-3 (the f32 tolerance at 1 is 1.1e-4) fails."""
  source = zoo_dir / "flax_mlp"
  copy = pathlib.Path(os.environ["AOTC_BUILD_DIR"]) / "bench-zoo-test"
  shutil.rmtree(copy, ignore_errors=True)
  shutil.copytree(source / "inputs" / "params",
                  copy / "flax_mlp" / "inputs" / "params")
  for name in ("params.hlo", "stamp-params"):
    shutil.copy(source / name, copy / "flax_mlp" / name)
  expected = np.load(source / "xla" / "result0.npy")
  (copy / "flax_mlp" / "xla").mkdir()
  np.save(copy / "flax_mlp" / "xla" / "result0.npy", expected + 1e-3)
  done = zoo(copy, "--forms", "params")
  output = done.stdout + done.stderr
  if done.returncode != 1 or "| flax_mlp | params | FAILED |" not in output:
    fail("a result XLA did not compute was not reported", output)
  shutil.rmtree(copy)


def main():
  zoo_dir = pathlib.Path(os.environ["AOTC_BUILD_DIR"]) / "models"
  done = zoo(zoo_dir)
  output = done.stdout + done.stderr
  if done.returncode != 0:
    fail(f"zoo.py exited with {done.returncode}", output)
  lines = done.stdout.splitlines()
  if not re.match(r"machine: .+, \d+ CPUs, avx2 (yes|no), avx512f (yes|no)$",
                  lines[0]):
    fail(f"machine line: {lines[0]!r}", output)
  if not re.match(r"aotc: aotc \S+ .*, commit \S+ ", lines[1]):
    fail(f"aotc line: {lines[1]!r}", output)
  table = [l for l in lines if l.startswith("|")]
  header = [c.strip() for c in table[0].strip("|").split("|")]
  if header != COLUMNS:
    fail(f"columns {header}", output)
  rows = [[c.strip() for c in l.strip("|").split("|")] for l in table[2:]]
  if [r[:2] for r in rows] != [["flax_mlp", "params"],
                               ["flax_mlp", "constants"]]:
    fail("one row per weights form expected", output)
  for row in rows:
    values = dict(zip(COLUMNS, row))
    for column in COLUMNS[2:]:
      if not re.fullmatch(r"[\d,]+(\.\d+)?", values[column]):
        fail(f"{row[1]}: {column} is {values[column]!r}", output)
    if number(values["runs"]) != 1:
      fail(f"{row[1]}: {values['runs']} runs, not 1", output)
    if number(values["object bytes"]) <= number(values["constants bytes"]):
      fail(f"{row[1]}: the object is not larger than its constants", output)
  params, constants = (dict(zip(COLUMNS, r)) for r in rows)
  if number(constants["constants bytes"]) < KERNEL_BYTES:
    fail(f"constants form holds {constants['constants bytes']} bytes of "
         f"constants, under the kernels' {KERNEL_BYTES}", output)
  if number(params["constants bytes"]) >= 4096:
    fail(f"params form holds {params['constants bytes']} bytes of constants",
         output)
  print(done.stdout)
  check_wrong_result_fails(zoo_dir)
  print("zoo.py: every column, both forms of flax_mlp; a wrong result fails")


if __name__ == "__main__":
  main()
