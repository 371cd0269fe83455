"""Runs one form of a zoo model from Python: aotc.compile, aotc.load, call.

  load.py MODEL FORM DIR

The user's path of docs/python.md on the zoo: the exported form (see
check.py for FORM and DIR) compiled by `aotc.compile`, linked and loaded by
`aotc.load`, called with the exported inputs as numpy arrays at one and at
two threads, and each result compared with XLA:CPU's within the per-type
tolerance of docs/cli.md (f32: 1e-5 + 1e-4 |x|), the first differing
element named on a failure. The two thread counts must agree bit for bit:
the parallel loops split work, never a sum.
"""

import pathlib
import sys
import tempfile
import time

import numpy as np

import aotc
from check import form_files
TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-4),
             np.dtype(np.float64): (1e-9, 1e-9)}


def first_difference(model, form, k, got, want):
  """None when `got` matches `want`, else a message naming the element."""
  if got.shape != want.shape or got.dtype != want.dtype:
    return (f"{model} {form}: result {k} is {got.dtype}{list(got.shape)}, "
            f"XLA's is {want.dtype}{list(want.shape)}")
  if want.dtype in TOLERANCE:
    abs_tol, rel_tol = TOLERANCE[want.dtype]
    bad = ~((np.abs(got - want) <= abs_tol + rel_tol * np.abs(want)) |
            (np.isnan(got) & np.isnan(want)))
  else:
    bad = got != want
  if not bad.any():
    return None
  index = np.unravel_index(np.argmax(bad), bad.shape)
  return (f"{model} {form}: result {k} differs from XLA's in "
          f"{int(bad.sum())} of {bad.size} elements; first "
          f"{list(map(int, index))}: got {got[index]!r}, expected "
          f"{want[index]!r}")


def main():
  if len(sys.argv) != 4:
    sys.exit("usage: load.py MODEL FORM DIR")
  model, form, directory = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
  source, input_files, expected_files = form_files(model, form, directory)
  inputs = [np.load(p) for p in input_files]
  expected = [np.load(p) for p in expected_files]
  with tempfile.TemporaryDirectory(dir=directory) as out:
    start = time.time()
    compiled = aotc.compile(str(source), out, name="zoo_model")
    compiled_at = time.time()
    loaded = aotc.load(compiled.out_dir)
    results = {}
    for threads in (1, 2):
      got = loaded(*inputs, threads=threads)
      results[threads] = list(got) if isinstance(got, tuple) else [got]
  failures = []
  if len(results[1]) != len(expected):
    failures.append(f"{model} {form}: {len(results[1])} results, XLA has "
                    f"{len(expected)}")
  for k, (got, want) in enumerate(zip(results[1], expected)):
    message = first_difference(model, form, k, got, want)
    if message:
      failures.append(message)
    if not np.array_equal(got, results[2][k], equal_nan=True):
      failures.append(f"{model} {form}: result {k} at 2 threads differs "
                      "from 1 thread")
  if failures:
    print("\n".join(failures))
    print(f"FAILED: {model} {form} through aotc.load")
    sys.exit(1)
  print(f"{model} {form}: aotc.compile in {compiled_at - start:.1f} s, "
        f"aotc.load and calls at 1 and 2 threads match XLA")


if __name__ == "__main__":
  main()
