"""One peer's measurement of one model, in a process of its own.

  worker.py xla MODEL_DIR FORM OUT_DIR [--model NAME] [--runs N] [--seconds S]
  worker.py ort MODEL_DIR FORM OUT_DIR --model NAME [--runs N] [--seconds S]
  worker.py prepare HLO MODEL_DIR

bench/peers/peers.py starts this script once per peer, model, form and
thread count, already pinned to its CPUs (os.sched_setaffinity) and, for
XLA, with the XLA_FLAGS that hold it to that many threads: XLA reads its
flags and sizes its thread pools once per process, so each thread count
needs a process of its own.

- `xla`: XLA:CPU. With --model (a zoo model) the zoo's function under
  jax.jit, the weights as arguments (FORM params) or closed over (FORM
  constants), on the exported inputs; without it the module MODEL_DIR/
  params.hlo compiled through jaxlib's client (HLO text, HloModuleProto,
  StableHLO, compile_and_load). Compile time (lower + compile), XLA's temp
  allocation (memory_analysis), timed runs.
- `ort`: ONNX Runtime on the zoo model converted by jax2onnx, the weights
  closed over (initializers), intra-op threads = the CPUs it is pinned to,
  inter-op 1 (a model jax2onnx cannot convert, or whose converted graph
  ORT refuses to load or run, reports "unsupported" with the reason). Session creation (ORT's graph optimizations) is its compile
  time; the conversion, an export step like JAX's, is reported apart.
- `prepare`: a corpus module (no Python source) made into a model folder:
  params.hlo (a copy), params.mlir (StableHLO converted by jaxlib from the
  HloModuleProto), seeded inputs/params/NNNN.npy and XLA's results
  xla/resultK.npy, the oracle of every peer.

The measured results are saved as OUT_DIR/resultK.npy; the last line on
stdout is one JSON object (compile_s, temp_bytes, runs, min_ms, median_ms,
threads: how many threads of this process ran for at least 5% of the timed
wall time, read from /proc; cpus: the process's CPU seconds per wall second
while timed, at most the thread count when the pinning holds).
"""

import argparse
import json
import os
import pathlib
import shutil
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
ZOO_DIR = HERE.parent.parent / "tests" / "models"
SEED = 20261202


def cpu_seconds_per_thread():
  """{thread id: user + system seconds} of this process, from /proc."""
  tick = os.sysconf("SC_CLK_TCK")
  times = {}
  for task in pathlib.Path("/proc/self/task").iterdir():
    try:
      fields = (task / "stat").read_text().rpartition(")")[2].split()
    except OSError:
      continue
    times[task.name] = (int(fields[11]) + int(fields[12])) / tick
  return times


def timed(call, runs, seconds):
  """runs, min and median ms, busy threads and CPU seconds per wall second
  of `call`, which blocks until its results are ready. runs 0: as many as
  fill `seconds` (3 at least, 1000 at most)."""
  call()  # warm up
  if runs <= 0:
    start = time.perf_counter()
    call()
    one = max(time.perf_counter() - start, 1e-6)
    runs = int(max(3, min(1000, seconds / one)))
  before = cpu_seconds_per_thread()
  process = time.process_time()
  samples = []
  wall = time.perf_counter()
  for _ in range(runs):
    start = time.perf_counter()
    call()
    samples.append((time.perf_counter() - start) * 1e3)
  wall = time.perf_counter() - wall
  cpus = (time.process_time() - process) / wall
  after = cpu_seconds_per_thread()
  busy = sum(1 for t, s in after.items()
             if s - before.get(t, 0.0) >= 0.05 * wall)
  return {"runs": runs, "min_ms": min(samples),
          "median_ms": float(np.median(samples)), "threads": busy,
          "cpus": cpus}


def load_npy(path):
  """An .npy file, a 2-byte void one (bf16 as ml_dtypes saves it and aotc
  writes it) viewed as bfloat16."""
  x = np.load(path)
  if x.dtype == np.dtype("V2"):
    import ml_dtypes
    x = x.view(ml_dtypes.bfloat16)
  return x


def load_inputs(model_dir, form):
  return [load_npy(p) for p in
          sorted((model_dir / "inputs" / form).glob("*.npy"))]


def save_results(out_dir, results):
  out_dir.mkdir(parents=True, exist_ok=True)
  for k, r in enumerate(results):
    np.save(out_dir / f"result{k}.npy", np.asarray(r))


def zoo_function(name, form, inputs):
  """The zoo model's function and its arguments, rebuilt with the exported
  leaves in place of the ones build() made (the same seeds, but the files
  are what every other peer runs)."""
  import jax
  sys.path.insert(0, str(ZOO_DIR))
  import zoo
  fn, params, example = zoo.BY_NAME[name].build()
  if form == "params":
    treedef = jax.tree_util.tree_structure((params, list(example)))
    params, args = jax.tree_util.tree_unflatten(treedef, inputs)
    return fn, [params, *args]
  def closed(*xs):
    return fn(params, *xs)
  return closed, list(inputs)


def without_aliases(hlo_text):
  """The module without its input_output_alias attribute: a module that
  donates its parameters to its results (the corpus's ResNet-50 step)
  could run only once on the same buffers, and the timing loop reuses
  them. The computation is the same."""
  key = "input_output_alias={"
  start = hlo_text.find(key, 0, hlo_text.find("\n"))
  if start < 0:
    return hlo_text
  depth, end = 0, start + len(key) - 1
  for end in range(start + len(key) - 1, len(hlo_text)):
    depth += {"{": 1, "}": -1}.get(hlo_text[end], 0)
    if depth == 0:
      break
  rest = hlo_text[end + 1:]
  return hlo_text[:start].rstrip(", ") + (rest if rest.startswith(",")
                                          else rest)


def hlo_executable(hlo_text):
  """XLA:CPU's executable of an HLO module given as text, through jaxlib:
  text to HloModuleProto to StableHLO, then the CPU client's compile."""
  hlo_text = without_aliases(hlo_text)
  import jax
  import jax.extend
  from jax._src.lib import _jax
  from jaxlib import _hlo
  proto = _hlo.hlo_module_from_text(hlo_text).as_serialized_hlo_module_proto()
  stablehlo = _jax.mlir.hlo_to_stablehlo(proto)
  backend = jax.extend.backend.get_backend("cpu")
  devices = _jax.DeviceList(tuple(jax.devices("cpu")[:1]))
  return backend.compile_and_load(stablehlo, devices, _jax.CompileOptions())


def run_xla(args):
  import jax
  inputs = load_inputs(args.model_dir, args.form)
  if args.model:
    fn, call_args = zoo_function(args.model, args.form, inputs)
    start = time.perf_counter()
    compiled = jax.jit(fn, keep_unused=True).lower(*call_args).compile()
    compile_s = time.perf_counter() - start
    temp = compiled.memory_analysis().temp_size_in_bytes
    device_args = jax.device_put(call_args)

    def call():
      return jax.block_until_ready(compiled(*device_args))
    results = jax.tree_util.tree_leaves(call())
  else:
    text = (args.model_dir / f"{args.form}.hlo").read_text()
    start = time.perf_counter()
    executable = hlo_executable(text)
    compile_s = time.perf_counter() - start
    temp = executable.get_compiled_memory_stats().temp_size_in_bytes
    device = jax.devices("cpu")[0]
    buffers = [jax.device_put(x, device) for x in inputs]

    def call():
      out = executable.execute(buffers)
      jax.block_until_ready(out)
      return out
    results = call()
  save_results(args.out_dir, [np.asarray(r) for r in results])
  return {"compile_s": compile_s, "temp_bytes": temp,
          **timed(call, args.runs, args.seconds)}


def run_ort(args):
  import jax
  import onnxruntime as ort
  from jax2onnx import to_onnx
  threads = len(os.sched_getaffinity(0))
  # The weights closed over whatever the form (ONNX keeps them as
  # initializers); the inputs are the model's own, after the weights.
  fn, call_args = zoo_function(args.model, "params",
                               load_inputs(args.model_dir, "params"))
  params, inputs = call_args[0], call_args[1:]

  def closed(*xs):
    return fn(params, *xs)
  # One conversion serves every thread count: OUT_DIR's parent keeps it.
  path = args.out_dir.parent / "model.onnx"
  args.out_dir.mkdir(parents=True, exist_ok=True)
  start = time.perf_counter()
  convert_s = None
  if not path.exists():
    try:
      to_onnx(closed, inputs, model_name=args.model, return_mode="file",
              output_path=str(path))
    except Exception as e:  # pylint: disable=broad-except
      # A converter's limit, not a failure of the peer: the row says n/a.
      first = (str(e).strip().splitlines() or [type(e).__name__])[0]
      return {"unsupported": f"jax2onnx: {type(e).__name__}: {first[:200]}"}
    convert_s = time.perf_counter() - start
  start = time.perf_counter()
  options = ort.SessionOptions()
  options.intra_op_num_threads = threads
  options.inter_op_num_threads = 1
  options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
  try:
    session = ort.InferenceSession(str(path), options,
                                   providers=["CPUExecutionProvider"])
    compile_s = time.perf_counter() - start
    feed = {i.name: x for i, x in zip(session.get_inputs(), inputs)}

    def call():
      return session.run(None, feed)
    first = call()
  except Exception as e:  # pylint: disable=broad-except
    # ORT refusing the converted graph (an operator form it does not
    # implement) is the conversion's limit too: n/a with the reason.
    message = (str(e).strip().splitlines() or [type(e).__name__])[-1]
    return {"unsupported": f"ORT rejects jax2onnx's graph: {message[:200]}"}
  save_results(args.out_dir, first)
  return {"compile_s": compile_s, "convert_s": convert_s, "temp_bytes": None,
          **timed(call, args.runs, args.seconds)}


def random_input(rng, shape, dtype):
  """Seeded inputs for a corpus module: floats of rank 2 and more uniform in
  [-1, 1) divided by sqrt of the last dimension (so that deep stacks of
  random weights stay finite), vectors and scalars uniform in [0.5, 1.5)
  (batch norms' scales, means and variances, which a negative variance
  would turn into NaN), integers in [0, 8), pred 0 or 1."""
  if dtype == np.bool_:
    return rng.integers(0, 2, shape).astype(np.bool_)
  if np.issubdtype(dtype, np.integer):
    return rng.integers(0, 8, shape).astype(dtype)
  if len(shape) < 2:
    return rng.uniform(0.5, 1.5, shape).astype(np.float32).astype(dtype)
  x = rng.uniform(-1, 1, shape).astype(np.float32)
  x /= np.float32(np.sqrt(shape[-1]))
  return x.astype(dtype)


def prepare(args):
  """A corpus module as a model folder (see the module's docstring)."""
  import jax
  from jax._src.lib import _jax
  from jax._src.interpreters import mlir
  from jaxlib import _hlo
  from jaxlib.mlir import ir
  out = args.model_dir
  out.mkdir(parents=True, exist_ok=True)
  text = args.hlo.read_text()
  module = _hlo.hlo_module_from_text(text)
  proto = module.as_serialized_hlo_module_proto()
  with mlir.make_ir_context():
    stablehlo = str(ir.Module.parse(_jax.mlir.hlo_to_stablehlo(proto)))
  shutil.copy(args.hlo, out / "params.hlo.tmp")
  os.replace(out / "params.hlo.tmp", out / "params.hlo")
  (out / "params.mlir.tmp").write_text(stablehlo)
  os.replace(out / "params.mlir.tmp", out / "params.mlir")
  executable = hlo_executable(text)
  shapes = _hlo.XlaComputation(proto).program_shape().parameter_shapes()
  rng = np.random.default_rng(SEED)
  inputs = [random_input(rng, tuple(s.dimensions()), s.numpy_dtype())
            for s in shapes]
  folder = out / "inputs" / "params"
  folder.mkdir(parents=True, exist_ok=True)
  for i, x in enumerate(inputs):
    np.save(folder / f"{i:04d}.npy", x)
  device = jax.devices("cpu")[0]
  results = executable.execute([jax.device_put(x, device) for x in inputs])
  save_results(out / "xla", [np.asarray(r) for r in results])
  (out / "stamp-params").write_text(args.hlo.name + "\n")
  return {"inputs": len(inputs), "results": len(results)}


def main():
  parser = argparse.ArgumentParser(
      description=__doc__.split("\n", 1)[0],
      formatter_class=argparse.RawDescriptionHelpFormatter)
  sub = parser.add_subparsers(dest="peer", required=True)
  for peer in ("xla", "ort"):
    p = sub.add_parser(peer, help=f"measure {peer}")
    p.add_argument("model_dir", type=pathlib.Path)
    p.add_argument("form", choices=("params", "constants"))
    p.add_argument("out_dir", type=pathlib.Path)
    p.add_argument("--model", default="",
                   help="the zoo model's name (else a corpus module)")
    p.add_argument("--runs", type=int, default=0)
    p.add_argument("--seconds", type=float, default=3.0)
  p = sub.add_parser("prepare", help="a corpus module as a model folder")
  p.add_argument("hlo", type=pathlib.Path)
  p.add_argument("model_dir", type=pathlib.Path)
  args = parser.parse_args()
  if args.peer == "ort" and not args.model:
    parser.error("ort needs --model (a zoo model)")
  report = {"xla": run_xla, "ort": run_ort, "prepare": prepare}[args.peer](
      args)
  print(json.dumps(report), flush=True)


if __name__ == "__main__":
  main()
