"""Compile and run times of the model zoo, printed as one Markdown table.

  bench/zoo.py [--models a,b] [--zoo-dir DIR] [--aotc PATH] [--runs N]
               [--seconds S] [--forms params,constants]

For each zoo model exported into DIR/<model>/ (tests/models/export.py;
`ctest -R 'models/<model>/export'` exports its forms; for VGG16 and BERT
`export_constants` the weights-as-constants ones), and for its HLO text
with the weights as parameters and as constants: the instruction count
`aotc inspect` reports, the wall time of `aotc compile` (and per 1000
instructions), the object's bytes, the constants' bytes
(NAME_CONSTANTS_BYTES), NAME_TEMP_BYTES, and the minimum and median run
time of `aotc run --bench N` at 1 and 2 threads. Every timed run also
compares its results with XLA:CPU's (the export's xla/ files, `aotc run
--expect`): a model that does not match fails the script. The machine (CPU,
avx2/avx512f) and the aotc commit come first.

With --runs 0 (the default) N is chosen per form so that a row's timed runs
take about --seconds: a first run of 5 times at one thread measures the
median, and a second run gets the count that fills the time when 5 were too
few. Progress goes to stderr, the table to stdout; the exit status is 1 when
a compile, a run or a comparison failed.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent
FORMS = ("params", "constants")
THREADS = (1, 2)
PROBE_RUNS = 5

COLUMNS = [
    "model", "weights", "instructions", "compile s", "s / 1k instr",
    "object bytes", "constants bytes", "TEMP_BYTES", "runs",
    "1 thread min ms", "1 thread median ms",
    "2 threads min ms", "2 threads median ms",
]


class Failure(Exception):
  """A step of one model's measurement failed; the message says which."""


def zoo_models():
  """The zoo's model names in zoo.py's order (the framework is not loaded)."""
  sys.path.insert(0, str(SOURCE_DIR / "tests" / "models"))
  import zoo
  return [m.name for m in zoo.MODELS]


def machine_line():
  name, flags = "unknown CPU", set()
  try:
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
      key, _, value = line.partition(":")
      if key.strip() == "model name" and name == "unknown CPU":
        name = value.strip()
      elif key.strip() == "flags" and not flags:
        flags = set(value.split())
  except OSError:
    pass
  isa = ", ".join(f"{f} {'yes' if f in flags else 'no'}"
                  for f in ("avx2", "avx512f"))
  return f"{name}, {os.cpu_count()} CPUs, {isa}"


def aotc_line(aotc):
  """The binary's version and the commit of the checkout it was built in
  (its build folder is inside it), else of this script's."""
  version = subprocess.run([aotc, "--version"], capture_output=True,
                           text=True).stdout.strip() or "unknown version"
  commit = "unknown commit"
  binary = pathlib.Path(aotc).resolve()
  for folder in (binary.parent, SOURCE_DIR):
    git = subprocess.run(
        ["git", "-C", str(folder), "describe", "--always", "--dirty",
         "--abbrev=12"], capture_output=True, text=True)
    if git.returncode == 0:
      commit = git.stdout.strip()
      break
  return f"{version}, commit {commit} ({binary})"


def run(command, what):
  start = time.perf_counter()
  done = subprocess.run(command, capture_output=True, text=True)
  seconds = time.perf_counter() - start
  if done.returncode != 0:
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-5:])
    raise Failure(f"{what} exited with {done.returncode}:\n{tail}")
  return done.stdout + done.stderr, seconds


def instruction_count(aotc, source):
  """The count of `aotc inspect`'s summary line, its last; the module text
  before it (hundreds of MB with the weights as constants) is not kept."""
  tail = b""
  with subprocess.Popen([aotc, "inspect", str(source)],
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL) as inspect:
    while chunk := inspect.stdout.read(1 << 20):
      tail = (tail + chunk)[-(1 << 20):]  # the summary lists every parameter
  last = tail.decode(errors="replace").rstrip("\n").rpartition("\n")[2]
  match = re.match(r"module \S+: (\d+) instructions in", last)
  if inspect.returncode != 0 or not match:
    raise Failure(f"aotc inspect {source} printed no summary")
  return int(match.group(1))


def compile_form(aotc, source, name, out_dir):
  """Compile time, object bytes, constants bytes and TEMP_BYTES, the last
  two from the JSON and checked against the header's macros."""
  _, seconds = run([aotc, "compile", str(source), "-o", str(out_dir),
                    "--name", name], f"aotc compile {source}")
  info = json.loads((out_dir / f"{name}.json").read_text())
  header = (out_dir / f"{name}.h").read_text()
  facts = {"TEMP_BYTES": info["temp_bytes"],
           "CONSTANTS_BYTES": info["footprint"]["constants_bytes"]}
  for macro, value in facts.items():
    found = re.search(rf"#define {name.upper()}_{macro} (\d+)\n", header)
    if not found or int(found.group(1)) != value:
      raise Failure(f"{name}.h: {name.upper()}_{macro} is not the JSON's "
                    f"{value}")
  return {"compile s": seconds,
          "object bytes": (out_dir / f"{name}.o").stat().st_size,
          "constants bytes": facts["CONSTANTS_BYTES"],
          "TEMP_BYTES": facts["TEMP_BYTES"]}


def timed_run(aotc, source, inputs, expected, runs, threads):
  """(min ms, median ms) of `aotc run --bench`, whose first run's results
  must match every --expect file."""
  command = [aotc, "run", str(source), *map(str, inputs),
             "--bench", str(runs), "--threads", str(threads)]
  for path in expected:
    command += ["--expect", str(path)]
  output, _ = run(command, f"aotc run {source} --threads {threads}")
  # "ok", or "ok (N of M elements NaN on both sides)".
  matched = re.findall(r"^expect result\d+ .*: ok( \(.*\))?$", output,
                       re.MULTILINE)
  if len(matched) != len(expected):
    raise Failure(f"aotc run {source}: {len(matched)} of {len(expected)} "
                  "results reported matching XLA")
  bench = re.search(r"^bench: (\d+) runs, min ([\d.]+) ms, median ([\d.]+) ms$",
                    output, re.MULTILINE)
  if not bench or int(bench.group(1)) != runs:
    raise Failure(f"aotc run {source}: no bench line for {runs} runs")
  return float(bench.group(2)), float(bench.group(3))


def exported(directory, form):
  """Whether export.py finished the form (it writes the stamp last), and
  XLA's results, which the parameters' export writes, are there."""
  return ((directory / f"stamp-{form}").exists() and
          (directory / f"{form}.hlo").exists() and
          any((directory / "xla").glob("result*.npy")))


def measure(aotc, directory, model, form, runs, seconds):
  source = directory / f"{form}.hlo"
  inputs = sorted((directory / "inputs" / form).glob("*.npy"))
  expected = sorted((directory / "xla").glob("result*.npy"),
                    key=lambda p: int(p.stem[len("result"):]))
  row = {"model": model, "weights": form}
  row["instructions"] = instruction_count(aotc, source)
  with tempfile.TemporaryDirectory(prefix="aotc-zoo-") as out_dir:
    row.update(compile_form(aotc, source, f"{model}_{form}",
                            pathlib.Path(out_dir)))
  row["s / 1k instr"] = row["compile s"] / row["instructions"] * 1000
  n = runs or PROBE_RUNS
  times = {1: timed_run(aotc, source, inputs, expected, n, 1)}
  if not runs and n * times[1][1] < seconds * 1e3:
    median = max(times[1][1], 1e-3)  # printed in whole microseconds
    n = max(PROBE_RUNS, min(100000, round(seconds * 1e3 / median)))
    times[1] = timed_run(aotc, source, inputs, expected, n, 1)
  times[2] = timed_run(aotc, source, inputs, expected, n, 2)
  row["runs"] = n
  for t in THREADS:
    label = "1 thread" if t == 1 else f"{t} threads"
    row[f"{label} min ms"], row[f"{label} median ms"] = times[t]
  return row


def print_row(row):
  print("| " + " | ".join(cell(row.get(c, "")) for c in COLUMNS) + " |",
        flush=True)


def cell(value):
  if isinstance(value, float):
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"
  if isinstance(value, int):
    return f"{value:,}"
  return str(value)


def add_aotc_argument(parser):
  """--aotc, the aotc binary: $AOTC, else the checkout's build/tools/aotc."""
  parser.add_argument("--aotc", default=os.environ.get(
      "AOTC", str(SOURCE_DIR / "build" / "tools" / "aotc")),
                      help="the aotc binary (default: $AOTC, else "
                           "build/tools/aotc)")


def main():
  parser = argparse.ArgumentParser(
      description=__doc__.split("\n", 1)[0],
      formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--models", default="",
                      help="comma-separated zoo models (default: every "
                           "exported one)")
  parser.add_argument("--zoo-dir", type=pathlib.Path,
                      default=SOURCE_DIR / "build" / "models",
                      help="the exports' folder (default: build/models)")
  add_aotc_argument(parser)
  parser.add_argument("--runs", type=int, default=0,
                      help="timed runs per row (default 0: chosen to fill "
                           "--seconds)")
  parser.add_argument("--seconds", type=float, default=3.0,
                      help="time a row's timed runs should take when --runs "
                           "is 0 (default 3)")
  parser.add_argument("--forms", default=",".join(FORMS),
                      help="weights forms to measure: params, constants "
                           "(default both)")
  args = parser.parse_args()
  forms = [f for f in args.forms.split(",") if f]
  if not forms or any(f not in FORMS for f in forms):
    parser.error(f"--forms takes {', '.join(FORMS)}")
  if args.runs < 0:
    parser.error("--runs must be 0 or more")
  known = zoo_models()
  if args.models:
    models = args.models.split(",")
    unknown = [m for m in models if m not in known]
    if unknown:
      parser.error(f"not in the zoo: {', '.join(unknown)}")
    missing = [f"{m} {f}" for m in models for f in forms
               if not exported(args.zoo_dir / m, f)]
    if missing:
      parser.error(f"not exported into {args.zoo_dir}: {', '.join(missing)} "
                   "(ctest -R 'models/MODEL/export' exports a model)")
  else:
    models = [m for m in known
              if any(exported(args.zoo_dir / m, f) for f in forms)]
    if not models:
      parser.error(f"no exported model in {args.zoo_dir}")

  print(f"machine: {machine_line()}")
  print(f"aotc: {aotc_line(args.aotc)}")
  print(f"load average at start: {os.getloadavg()[0]:.2f}")
  print()
  print("| " + " | ".join(COLUMNS) + " |")
  print("| " + " | ".join("---" if c in ("model", "weights") else "---:"
                          for c in COLUMNS) + " |")
  failed = []
  for model in models:
    for form in forms:
      if not exported(args.zoo_dir / model, form):
        row = {"model": model, "weights": form,
               "instructions": "not exported"}
        print_row(row)
        continue
      print(f"zoo.py: {model} {form}", file=sys.stderr, flush=True)
      try:
        row = measure(args.aotc, args.zoo_dir / model, model, form,
                      args.runs, args.seconds)
      except Failure as e:
        print(f"zoo.py: FAILED: {model} {form}: {e}", file=sys.stderr)
        failed.append(f"{model} {form}")
        row = {"model": model, "weights": form, "instructions": "FAILED"}
      print_row(row)
  if failed:
    print(f"\nfailed: {', '.join(failed)}")
    sys.exit(1)


if __name__ == "__main__":
  main()
