"""aotc beside XLA:CPU, IREE (llvm-cpu) and ONNX Runtime on the model zoo.

  bench/peers/peers.py [--models a,b] [--peers aotc,xla,iree,ort]
                       [--threads 1,2] [--runs N | --seconds S] [--large]

For each model (the zoo's, exported into --zoo-dir by tests/models/export.py,
and the corpus modules resnet50_keras_jax_f32_1, mha_block_1x12x128x64_bf16_1
and gemma3_1b_flax_call_1) and each weights form (params: the weights are
entry parameters; constants: closed over, where the zoo exported it), every
peer compiles the model, runs it on the same inputs (the export's .npy files)
at each thread count, and its results are compared with XLA:CPU's export
results (xla/resultK.npy) within the bound of `agree` below:

- aotc: `aotc compile` (seconds, NAME_TEMP_BYTES) and `aotc run --bench N
  --threads T --expect ...` (aotc's own per-type tolerance, docs/cli.md).
- xla: the zoo function under jax.jit (lower + compile seconds, XLA's
  memory_analysis temp size); a corpus module through jaxlib's client.
- iree: iree-compile on the StableHLO form, iree-benchmark-module (iree.py).
- ort: the zoo function converted by jax2onnx, the weights as initializers,
  so both forms' rows show the same ORT measurement.

Every timed process is pinned (os.sched_setaffinity, inherited) to the same
first T CPUs of this process's set; XLA gets XLA_FLAGS that keep Eigen and
its intra-op pool to T threads, IREE local-sync (1) or T task workers, ORT
T intra-op threads and 1 inter-op thread. Compiles run on all the CPUs of
the largest thread count. The corpus modules get seeded inputs and XLA's
results once in --work-dir (worker.py prepare). The large constants forms
(VGG16's and BERT's, near 2 GB of HLO text) only run with --large; GPT-2's
never (its compile needs more memory than 24 GB).

One Markdown table goes to stdout (the machine, the versions and the aotc
commit first), progress to stderr. Exit status 1 when any peer failed to
compile or run, or disagreed with XLA's results (the cell says so).
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent.parent
sys.path.insert(0, str(HERE))
import iree  # noqa: E402
from worker import load_npy  # noqa: E402


def _bench_zoo():
  """bench/zoo.py (the machine line, aotc's compile and timed runs), under
  a name of its own: `zoo` is the zoo's definition in tests/models."""
  import importlib.util
  spec = importlib.util.spec_from_file_location("zoo_bench",
                                                HERE.parent / "zoo.py")
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


zoo_bench = _bench_zoo()

CORPUS = ("resnet50_keras_jax_f32_1", "mha_block_1x12x128x64_bf16_1",
          "gemma3_1b_flax_call_1")
PEERS = ("aotc", "xla", "iree", "ort")
NAMES = {"aotc": "aotc", "xla": "XLA", "iree": "IREE", "ort": "ORT"}
LARGE_CONSTANTS = ("vgg16", "bert_base")
NEVER_CONSTANTS = ("gpt2_small",)
# (rel, scaled): |got - want| <= rel * |want| + scaled * max |want|, per
# element; NaN matches NaN, an infinity itself. Integers and pred: equal.
BOUNDS = {"float32": (1e-4, 1e-4), "float64": (1e-9, 1e-9),
          "float16": (1e-2, 1e-3), "bfloat16": (4e-2, 1e-2)}


def agree(got, want):
  """None when `got` matches XLA's `want` within BOUNDS, else why not."""
  if got.shape != want.shape:
    return f"shape {list(got.shape)}, XLA {list(want.shape)}"
  kind = str(want.dtype)
  if kind not in BOUNDS:
    return None if np.array_equal(got, want) else (
        f"{int((got != want).sum())} of {want.size} elements differ")
  rel, scaled = BOUNDS[kind]
  g, w = got.astype(np.float64), want.astype(np.float64)
  finite = np.isfinite(w)
  scale = float(np.abs(w[finite]).max()) if finite.any() else 0.0
  with np.errstate(invalid="ignore"):
    ok = ((np.abs(g - w) <= rel * np.abs(w) + scaled * scale) |
          (np.isnan(g) & np.isnan(w)) | (g == w))
  if ok.all():
    return None
  error = np.abs(g - w)[finite & ~ok]
  worst = float(error.max()) / scale if error.size and scale else float("nan")
  return (f"{int((~ok).sum())} of {want.size} elements off, worst "
          f"{worst:.2g} of the scale {scale:.3g}")


def versions():
  from importlib import metadata
  found = []
  for package in ("jaxlib", "iree-base-compiler", "iree-base-runtime",
                  "onnxruntime", "jax2onnx"):
    try:
      found.append(f"{package} {metadata.version(package)}")
    except metadata.PackageNotFoundError:
      found.append(f"{package} missing")
  return ", ".join(found)


class Pinned:
  """Pins this process (and so its children) to `cpus` for a while."""

  def __init__(self, cpus):
    self.cpus = set(cpus)

  def __enter__(self):
    self.saved = os.sched_getaffinity(0)
    os.sched_setaffinity(0, self.cpus)

  def __exit__(self, *_):
    os.sched_setaffinity(0, self.saved)


class Model:
  """One model's form: its files and what the peers found."""

  def __init__(self, name, form, directory, zoo_model):
    self.name, self.form, self.dir = name, form, directory
    self.zoo_model = zoo_model
    self.hlo = directory / f"{form}.hlo"
    self.mlir = directory / f"{form}.mlir"
    self.inputs = sorted((directory / "inputs" / form).glob("*.npy"))
    self.expected = sorted((directory / "xla").glob("result*.npy"),
                           key=lambda p: int(p.stem[len("result"):]))
    self.cells = {}  # (peer, "ms", threads) | (peer, "compile"|"temp")


def compare_all(out_dir, model):
  """None when every resultK.npy in out_dir matches XLA's export."""
  for k, path in enumerate(model.expected):
    got_path = out_dir / f"result{k}.npy"
    if not got_path.exists():
      return f"no result {k}"
    problem = agree(load_npy(got_path), load_npy(path))
    if problem:
      return f"result {k}: {problem}"
  extra = out_dir / f"result{len(model.expected)}.npy"
  return f"more results than XLA's {len(model.expected)}" if extra.exists() \
      else None


def run_aotc(args, model, work):
  with Pinned(args.cpus[:max(args.threads)]):
    info = zoo_bench.compile_form(args.aotc, model.hlo, "peer", work)
  model.cells["aotc", "compile"] = info["compile s"]
  model.cells["aotc", "temp"] = info["TEMP_BYTES"]
  for t in args.threads:
    with Pinned(args.cpus[:t]):
      runs = args.runs
      if not runs:
        _, median = zoo_bench.timed_run(args.aotc, model.hlo, model.inputs,
                                        model.expected, 3, t)
        runs = int(max(3, min(1000, args.seconds * 1e3 / max(median, 1e-3))))
      low, median = zoo_bench.timed_run(args.aotc, model.hlo, model.inputs,
                                        model.expected, runs, t)
    model.cells["aotc", "ms", t] = median
    log(f"  aotc {t} thread(s): {runs} runs, min {low:.3f} median "
        f"{median:.3f} ms")


def worker(args, peer, model, t, out_dir, flags=None):
  command = [sys.executable, str(HERE / "worker.py"), peer, str(model.dir),
             model.form, str(out_dir), "--runs", str(args.runs),
             "--seconds", str(args.seconds)]
  if model.zoo_model:
    command += ["--model", model.name]
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND="jax",
             JAX_PLATFORMS="cpu")
  if flags:
    env["XLA_FLAGS"] = flags
  with Pinned(args.cpus[:t]):
    try:
      done = subprocess.run(command, capture_output=True, text=True, env=env,
                            timeout=args.timeout)
    except subprocess.TimeoutExpired:
      raise zoo_bench.Failure(f"{peer} took longer than {args.timeout} s") \
          from None
  if done.returncode != 0:
    tail = "\n".join(done.stderr.splitlines()[-4:])
    raise zoo_bench.Failure(f"{peer} worker exited with {done.returncode}:\n"
                            f"{tail}")
  return json.loads(done.stdout.strip().splitlines()[-1])


def xla_flags(threads):
  """Eigen's pool off at one thread (it would start its own threads), on at
  more; the intra-op pool sized to the thread count."""
  eigen = "false" if threads == 1 else "true"
  return (f"--xla_cpu_multi_thread_eigen={eigen} "
          f"intra_op_parallelism_threads={threads}")


class NotApplicable(Exception):
  """The peer cannot run this model; the message says why."""


def run_in_worker(args, peer, model, work):
  for t in args.threads:
    out = work / f"{peer}-{t}"
    report = worker(args, peer, model, t, out,
                    xla_flags(t) if peer == "xla" else None)
    if "unsupported" in report:
      raise NotApplicable(report["unsupported"])
    problem = compare_all(out, model)
    if problem:
      raise zoo_bench.Failure(f"{NAMES[peer]} at {t} thread(s) disagrees "
                              f"with XLA's export: {problem}")
    model.cells[peer, "ms", t] = report["median_ms"]
    if t == max(args.threads):
      model.cells[peer, "compile"] = report["compile_s"]
      model.cells[peer, "temp"] = report["temp_bytes"]
    extra = f", conversion {report['convert_s']:.1f} s" \
        if report.get("convert_s") is not None else ""
    log(f"  {peer} {t} thread(s): {report['runs']} runs, min "
        f"{report['min_ms']:.3f} median {report['median_ms']:.3f} ms, "
        f"{report['threads']} busy threads, {report['cpus']:.2f} CPUs"
        f"{extra}")


def run_iree(args, model, work):
  if not model.mlir.exists():
    raise zoo_bench.Failure(f"no StableHLO form {model.mlir}")
  vmfb = work / "model.vmfb"
  bin_dir = pathlib.Path(sys.executable).parent
  with Pinned(args.cpus[:max(args.threads)]):
    model.cells["iree", "compile"] = iree.compile_module(
        bin_dir, model.mlir, vmfb, None, args.timeout)
    peak = iree.run_outputs(bin_dir, vmfb, model.inputs,
                            [load_npy(p) for p in model.expected],
                            work / "iree", None, args.timeout)
  problem = compare_all(work / "iree", model)
  if problem:
    raise zoo_bench.Failure(f"IREE disagrees with XLA's export: {problem}")
  if peak is not None:
    # The allocator's peak holds the inputs, uploaded to device buffers.
    model.cells["iree", "temp"] = max(
        0, peak - sum(load_npy(p).nbytes for p in model.inputs))
  for t in args.threads:
    with Pinned(args.cpus[:t]):
      runs = args.runs
      if not runs:
        probe = iree.benchmark(bin_dir, vmfb, model.inputs, t, 3, None,
                               args.timeout)
        runs = int(max(3, min(1000, args.seconds * 1e3 /
                              max(np.median(probe), 1e-3))))
      samples = iree.benchmark(bin_dir, vmfb, model.inputs, t, runs, None,
                               args.timeout)
    model.cells["iree", "ms", t] = float(np.median(samples))
    log(f"  iree {t} thread(s): {runs} runs, min {min(samples):.3f} median "
        f"{np.median(samples):.3f} ms")


def log(message):
  print(message, file=sys.stderr, flush=True)


def fmt(value, kind):
  if value is None:
    return "n/a"
  if isinstance(value, str):
    return value
  if kind == "ms":
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"
  if kind == "s":
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"
  return f"{value:,}"


def columns(threads):
  cols = ["model", "form"]
  for peer in PEERS:
    cols += [f"{NAMES[peer]} {t}T ms" for t in threads]
  cols += [f"aotc speedup {t}T" for t in threads]
  cols += [f"{NAMES[p]} compile s" for p in PEERS]
  cols += ["aotc TEMP_BYTES", "XLA temp", "IREE temp"]
  return cols


def row_cells(model, peers, threads, notes):
  """The row's cells; a peer's failure or n/a becomes a numbered note."""
  def status(peer):
    problem = model.cells.get((peer, "problem"))
    if problem is None:
      return None
    notes.append(f"{model.name} {model.form}, {NAMES[peer]}: {problem[1]}")
    return f"{problem[0]} [{len(notes)}]"

  cells = [model.name, model.form]
  said = {}
  for peer in PEERS:
    said[peer] = status(peer) if peer in peers else "-"
    for t in threads:
      cells.append(said[peer] or fmt(model.cells.get((peer, "ms", t)), "ms"))
  for t in threads:
    mine = model.cells.get(("aotc", "ms", t))
    theirs = [model.cells.get((p, "ms", t)) for p in ("xla", "iree")]
    theirs = [x for x in theirs if x is not None]
    cells.append(f"{min(theirs) / mine:.2f}x" if mine and theirs else "n/a")
  for peer in PEERS:
    cells.append(said[peer] and "-" or fmt(model.cells.get((peer, "compile")),
                                          "s"))
  for peer in ("aotc", "xla", "iree"):
    cells.append(said[peer] and "-" or fmt(model.cells.get((peer, "temp")),
                                          "bytes"))
  return cells


def models_to_run(args, parser):
  """[(name, form, folder, is a zoo model)] in the zoo's order, then the
  corpus's; unknown or unexported names are usage errors."""
  known = zoo_bench.zoo_models()
  names = args.models.split(",") if args.models else known + list(CORPUS)
  unknown = [m for m in names if m not in known and m not in CORPUS]
  if unknown:
    parser.error(f"not a zoo or corpus model: {', '.join(unknown)}")
  chosen = []
  for name in names:
    if name in CORPUS:
      chosen.append((name, "params", args.work_dir / name, False))
      continue
    forms = [f for f in ("params", "constants")
             if zoo_bench.exported(args.zoo_dir / name, f) and not (
                 f == "constants" and (name in NEVER_CONSTANTS or (
                     name in LARGE_CONSTANTS and not args.large)))]
    if not forms and args.models:
      parser.error(f"{name} is not exported into {args.zoo_dir} "
                   f"(ctest -R 'models/{name}/export')")
    chosen += [(name, f, args.zoo_dir / name, True) for f in forms]
  return chosen


def prepare_corpus(args, name):
  folder = args.work_dir / name
  if (folder / "stamp-params").exists():
    return
  source = args.corpus_dir / f"{name}.hlo"
  if not source.exists():
    raise zoo_bench.Failure(f"{source} is missing (--corpus-dir)")
  log(f"peers: preparing {name} (inputs, StableHLO, XLA's results)")
  done = subprocess.run(
      [sys.executable, str(HERE / "worker.py"), "prepare", str(source),
       str(folder)], capture_output=True, text=True, timeout=args.timeout,
      env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", JAX_PLATFORMS="cpu",
                   KERAS_BACKEND="jax"))
  if done.returncode != 0:
    tail = "\n".join(done.stderr.splitlines()[-4:])
    raise zoo_bench.Failure(f"preparing {name} failed:\n{tail}")


def measure(args, name, form, folder, is_zoo, ort_cache):
  """A Model with every chosen peer's cells (or its problem)."""
  if not is_zoo:
    prepare_corpus(args, name)
  model = Model(name, form, folder, is_zoo)
  runners = {"aotc": run_aotc, "iree": run_iree,
             "xla": lambda a, m, w: run_in_worker(a, "xla", m, w),
             "ort": lambda a, m, w: run_in_worker(a, "ort", m, w)}
  for peer in args.peers:
    if peer == "ort" and not is_zoo:
      model.cells[peer, "problem"] = ("n/a", "no Python source to convert "
                                      "(a corpus module)")
      continue
    if peer == "ort" and name in ort_cache:  # the weights are initializers
      model.cells.update(ort_cache[name])
      continue
    log(f"peers: {name} {form}: {NAMES[peer]}")
    with tempfile.TemporaryDirectory(prefix=f"peers-{peer}-",
                                     dir=args.work_dir) as work:
      try:
        runners[peer](args, model, pathlib.Path(work))
      except NotApplicable as e:
        model.cells[peer, "problem"] = ("n/a", str(e))
      except (zoo_bench.Failure, iree.IreeFailure) as e:
        model.cells[peer, "problem"] = ("FAILED", str(e).replace("\n", " | "))
        log(f"peers: FAILED: {name} {form} {NAMES[peer]}: {e}")
    if peer == "ort":
      ort_cache[name] = {k: v for k, v in model.cells.items()
                         if k[0] == "ort"}
  return model


def main():
  parser = argparse.ArgumentParser(
      description=__doc__.split("\n", 1)[0],
      formatter_class=argparse.RawDescriptionHelpFormatter,
      epilog=__doc__.split("\n", 1)[1])
  parser.add_argument("--models", default="",
                      help="comma-separated zoo and corpus models (default: "
                           "every exported zoo model and the 3 corpus ones)")
  parser.add_argument("--peers", default=",".join(PEERS),
                      help="comma-separated, of aotc,xla,iree,ort (default "
                           "all)")
  parser.add_argument("--threads", default="1,2",
                      help="comma-separated thread counts (default 1,2)")
  parser.add_argument("--runs", type=int, default=0,
                      help="timed runs per measurement (default 0: as many "
                           "as fill --seconds)")
  parser.add_argument("--seconds", type=float, default=2.0,
                      help="time one measurement's runs should take when "
                           "--runs is 0 (default 2)")
  parser.add_argument("--large", action="store_true",
                      help="also the weights-as-constants forms of VGG16 "
                           "and BERT (near 2 GB of HLO text each)")
  parser.add_argument("--zoo-dir", type=pathlib.Path,
                      default=SOURCE_DIR / "build" / "models",
                      help="the zoo's exports (default build/models)")
  parser.add_argument("--corpus-dir", type=pathlib.Path,
                      default=pathlib.Path(os.environ.get(
                          "AOTC_CORPUS_DIR",
                          SOURCE_DIR.parent / "shared" / "hlo-corpus")),
                      help="the HLO corpus (default $AOTC_CORPUS_DIR, else "
                           "../shared/hlo-corpus beside the checkout)")
  parser.add_argument("--work-dir", type=pathlib.Path,
                      default=SOURCE_DIR / "build" / "peers",
                      help="prepared corpus models and temporary files "
                           "(default build/peers)")
  zoo_bench.add_aotc_argument(parser)
  parser.add_argument("--timeout", type=float, default=1800,
                      help="seconds one compile or measurement may take "
                           "(default 1800)")
  args = parser.parse_args()
  args.peers = [p for p in args.peers.split(",") if p]
  if not args.peers or any(p not in PEERS for p in args.peers):
    parser.error(f"--peers takes {','.join(PEERS)}")
  try:
    args.threads = sorted({int(t) for t in args.threads.split(",")})
  except ValueError:
    parser.error("--threads takes comma-separated counts")
  args.cpus = sorted(os.sched_getaffinity(0))
  if not args.threads or args.threads[0] < 1 or \
      args.threads[-1] > len(args.cpus):
    parser.error(f"--threads must be 1 to {len(args.cpus)} (the CPUs this "
                 "process may use)")
  if args.runs < 0 or args.seconds <= 0:
    parser.error("--runs must be 0 or more and --seconds positive")
  if "aotc" in args.peers and not os.access(args.aotc, os.X_OK):
    parser.error(f"no aotc binary at {args.aotc} (--aotc)")
  chosen = models_to_run(args, parser)
  args.work_dir.mkdir(parents=True, exist_ok=True)

  print(f"machine: {zoo_bench.machine_line()}; CPUs used: "
        f"{args.cpus[:args.threads[-1]]}")
  print(f"versions: {versions()}; aotc {zoo_bench.aotc_line(args.aotc)}")
  print(f"load average at start: {os.getloadavg()[0]:.2f}; median ms of "
        f"{args.runs or f'{args.seconds:g} s of'} runs; speedup = the faster "
        "of XLA and IREE / aotc")
  print()
  cols = columns(args.threads)
  print("| " + " | ".join(cols) + " |")
  print("| " + " | ".join("---" if c in ("model", "form") else "---:"
                          for c in cols) + " |", flush=True)
  notes, failed, ort_cache = [], [], {}
  for name, form, folder, is_zoo in chosen:
    try:
      model = measure(args, name, form, folder, is_zoo, ort_cache)
    except zoo_bench.Failure as e:  # the corpus model could not be prepared
      log(f"peers: FAILED: {name}: {e}")
      model = Model(name, form, folder, is_zoo)
      for peer in args.peers:
        model.cells[peer, "problem"] = ("FAILED", str(e).replace("\n", " | "))
    failed += [f"{name} {form} {NAMES[p]}" for p in args.peers
               if model.cells.get((p, "problem"), ("",))[0] == "FAILED"]
    print("| " + " | ".join(row_cells(model, args.peers, args.threads, notes))
          + " |", flush=True)
  print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
  if notes:
    print()
    for i, note in enumerate(notes, 1):
      print(f"[{i}] {note}")
  if failed:
    print(f"\nfailed: {', '.join(failed)}")
    sys.exit(1)


if __name__ == "__main__":
  main()
