"""Smoke test of bench/peers/peers.py: flax_mlp through every peer, once.

Runs the script on the exported flax_mlp (both weights forms) with --runs 3
and all four peers, and fails when it exits nonzero (a peer that failed to
compile or run, or whose results disagree with XLA's export) or when any
peer's cell is not a number: under .ci/run a peer that is not installed
fails here, it is never skipped. No timing is asserted. Then the bound
itself: `agree` must accept XLA's results and reject them moved by 1e-3 of
their scale, and a copy of the export whose XLA result is moved so must
make the script fail with a disagreement.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np

SOURCE = pathlib.Path(os.environ["AOTC_SOURCE_DIR"])
BUILD = pathlib.Path(os.environ["AOTC_BUILD_DIR"])
SCRIPT = SOURCE / "bench" / "peers" / "peers.py"
sys.path.insert(0, str(SCRIPT.parent))


def fail(message, output=""):
  print(output)
  print(f"FAILED: {message}")
  sys.exit(1)


def peers(zoo_dir, *args):
  return subprocess.run(
      [sys.executable, str(SCRIPT), "--models", "flax_mlp", "--runs", "3",
       "--zoo-dir", str(zoo_dir), "--work-dir", str(BUILD / "peers-test"),
       "--aotc", os.environ["AOTC"], *args],
      capture_output=True, text=True)


def rows(output):
  table = [line for line in output.splitlines() if line.startswith("| ")]
  header = [c.strip() for c in table[0].strip("|").split("|")]
  return header, [dict(zip(header, (c.strip() for c in line.strip("|")
                                    .split("|")))) for line in table[2:]]


def check_table(done):
  output = done.stdout + done.stderr
  if done.returncode != 0:
    fail(f"peers.py exited with {done.returncode}", output)
  for line in ("machine: ", "versions: jaxlib "):
    if line not in done.stdout:
      fail(f"no '{line}' line", output)
  if not re.search(r"avx2 (yes|no), avx512f (yes|no)", done.stdout):
    fail("the machine line names no ISA", output)
  header, table = rows(done.stdout)
  if [(r["model"], r["form"]) for r in table] != [("flax_mlp", "params"),
                                                   ("flax_mlp", "constants")]:
    fail("expected one row per weights form of flax_mlp", output)
  for row in table:
    for column in header[2:]:
      if not re.fullmatch(r"[\d,]+(\.\d+)?x?", row[column]):
        fail(f"{row['form']}: column '{column}' is '{row[column]}', not a "
             "number", output)
    if int(row["aotc TEMP_BYTES"].replace(",", "")) <= 0:
      fail("aotc's TEMP_BYTES is not positive", output)
  print(f"peers.py: {len(table)} rows, every peer measured and matching XLA")


def check_bound():
  from peers import agree
  want = np.load(BUILD / "models" / "flax_mlp" / "xla" / "result0.npy")
  scale = float(np.abs(want).max())
  if agree(want.copy(), want) is not None:
    fail("agree() rejects XLA's own results")
  if agree(want + np.float32(0.5e-4 * scale), want) is not None:
    fail("agree() rejects results within 0.5e-4 of the scale")
  if agree(want + np.float32(1e-3 * scale), want) is None:
    fail("agree() accepts results off by 1e-3 of the scale")
  nan = want.copy()
  nan.flat[0] = np.nan
  if agree(nan, want) is None:
    fail("agree() accepts a NaN for a number")


def check_mismatch_fails(zoo_dir):
  source = zoo_dir / "flax_mlp"
  copy = BUILD / "peers-test-wrong" / "flax_mlp"
  shutil.rmtree(copy.parent, ignore_errors=True)
  shutil.copytree(source / "inputs" / "params", copy / "inputs" / "params")
  for name in ("params.hlo", "params.mlir", "stamp-params"):
    shutil.copy(source / name, copy / name)
  want = np.load(source / "xla" / "result0.npy")
  (copy / "xla").mkdir()
  np.save(copy / "xla" / "result0.npy",
          want + np.float32(1e-3 * np.abs(want).max()))
  done = peers(copy.parent, "--peers", "iree")
  output = done.stdout + done.stderr
  if done.returncode != 1 or "IREE disagrees with XLA's export" not in output:
    fail("a result moved by 1e-3 of its scale did not fail the script",
         output)
  print("peers.py: a wrong XLA result fails the script")


def main():
  zoo_dir = BUILD / "models"
  check_table(peers(zoo_dir))
  check_bound()
  check_mismatch_fails(zoo_dir)


if __name__ == "__main__":
  main()
