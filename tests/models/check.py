"""Compiles one exported form of a zoo model and compares it with XLA.

  check.py MODEL FORM DIR [--check]

FORM is hlo_params, proto_params, stablehlo_params, hlo_constants,
proto_constants or stablehlo_constants; DIR is the model's export folder
(tests/models/export.py). Runs `aotc run` on the form with the exported
inputs and XLA:CPU's results as --expect files (the per-type tolerance of
docs/cli.md), and with --check also against the reference evaluator. A
failure names the model, the form and aotc's own report, which gives the
first differing element.
"""

import os
import pathlib
import subprocess
import sys
import time

EXTENSIONS = {"hlo": "hlo", "proto": "pb", "stablehlo": "mlir"}


def form_files(model, form, directory):
  """The form's module, its inputs and XLA's results in an export folder
  (exits with a message when the form is unknown or not exported)."""
  syntax, _, weights = form.partition("_")
  if syntax not in EXTENSIONS or weights not in ("params", "constants"):
    sys.exit(f"unknown form '{form}'")
  source = directory / f"{weights}.{EXTENSIONS[syntax]}"
  inputs = sorted((directory / "inputs" / weights).glob("*.npy"))
  expected = sorted((directory / "xla").glob("result*.npy"),
                    key=lambda p: int(p.stem[len("result"):]))
  if not source.exists() or not expected:
    sys.exit(f"{model} {form}: no export in {directory} "
             "(the export test runs first)")
  return source, inputs, expected


def main():
  args = sys.argv[1:]
  check = "--check" in args
  args = [a for a in args if a != "--check"]
  if len(args) != 3:
    sys.exit("usage: check.py MODEL FORM DIR [--check]")
  model, form, directory = args[0], args[1], pathlib.Path(args[2])
  source, inputs, expected = form_files(model, form, directory)
  command = [os.environ.get("AOTC", "aotc"), "run", str(source)]
  command += [str(p) for p in inputs]
  for p in expected:
    command += ["--expect", str(p)]
  if check:
    command.append("--check")
  start = time.time()
  run = subprocess.run(command, capture_output=True, text=True)
  seconds = time.time() - start
  report = [line for line in (run.stdout + run.stderr).splitlines()
            if not line.startswith("result")]
  print("\n".join(report))
  if run.returncode != 0:
    print(f"FAILED: {model} {form}: aotc run exited with {run.returncode}"
          f" after {seconds:.1f} s")
    sys.exit(1)
  print(f"{model} {form}: matches XLA ({seconds:.1f} s)")


if __name__ == "__main__":
  main()
