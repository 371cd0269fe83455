"""Exports a zoo model in every form aotc reads, with XLA:CPU's results.

  export.py MODEL OUT_DIR [--weights params|constants|both]

writes into OUT_DIR (tests/models/zoo.py defines MODEL) the forms of the
weights as parameters (with XLA's results), as constants, or both (the
default):
  params.hlo, params.pb, params.mlir   weights as entry parameters (first,
                                       in jax's flattening order, then the
                                       inputs): HLO text, HloModuleProto and
                                       StableHLO text
  constants.hlo, constants.pb, constants.mlir
                                       the weights closed over: constants
  inputs/params/NNNN.npy               the arguments of the params forms
  inputs/constants/NNNN.npy            the arguments of the constants forms
  xla/resultK.npy                      XLA:CPU's results (jax.jit), the
                                       oracle the compiled forms must match
  meta-params.json, meta-constants.json
                                       XLA's compile time and temp size, the
                                       export's times, ...

The export is cached by content: OUT_DIR/stamp-params and stamp-constants
hold a hash of this file, zoo.py, the pinned requirements, the model's name
and the weights' form, and a second run with the same hash does nothing. Every file is written under a temporary name and
renamed, so an interrupted export leaves no half-written form behind.
"""

import hashlib
import json
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REQUIREMENTS = HERE.parent.parent / "tools" / "python-requirements.txt"


def content_key(name, weights):
  h = hashlib.sha256()
  for path in (HERE / "zoo.py", HERE / "export.py", REQUIREMENTS):
    h.update(path.read_bytes())
  h.update(f"{name}/{weights}".encode())
  return h.hexdigest()


def write(path, data):
  path.parent.mkdir(parents=True, exist_ok=True)
  tmp = path.with_name(path.name + ".tmp")
  if isinstance(data, str):
    tmp.write_text(data)
  else:
    tmp.write_bytes(data)
  os.replace(tmp, path)


def save_arrays(directory, arrays, pattern):
  import numpy as np
  directory.mkdir(parents=True, exist_ok=True)
  for old in directory.glob("*.npy"):
    old.unlink()
  for i, a in enumerate(arrays):
    tmp = directory / (pattern.format(i) + ".tmp.npy")
    np.save(tmp, np.asarray(a))
    os.replace(tmp, directory / (pattern.format(i) + ".npy"))


def export_forms(lowered, out, prefix):
  """The three forms of one lowering."""
  write(out / f"{prefix}.hlo", lowered.as_text(dialect="hlo"))
  write(out / f"{prefix}.pb",
        lowered.compiler_ir("hlo").as_serialized_hlo_module_proto())
  write(out / f"{prefix}.mlir", lowered.as_text())


def export_params(fn, params, inputs, out):
  """The weights as parameters, and XLA:CPU's results."""
  import jax
  import numpy as np
  # keep_unused: every weight stays an entry parameter, so the argument
  # list is exactly the flattened (params, *inputs).
  lowered = jax.jit(fn, keep_unused=True).lower(params, *inputs)
  export_forms(lowered, out, "params")
  save_arrays(out / "inputs" / "params",
              jax.tree_util.tree_leaves((params, list(inputs))), "{:04d}")
  start = time.time()
  compiled = lowered.compile()
  compile_seconds = time.time() - start
  results = [np.asarray(r) for r in
             jax.tree_util.tree_leaves(compiled(params, *inputs))]
  save_arrays(out / "xla", results, "result{}")
  memory = compiled.memory_analysis()
  return {
      "xla_compile_seconds": round(compile_seconds, 2),
      "xla_temp_bytes": getattr(memory, "temp_size_in_bytes", None),
      "weights": len(jax.tree_util.tree_leaves(params)),
      "weight_bytes": int(sum(np.asarray(p).nbytes
                              for p in jax.tree_util.tree_leaves(params))),
      "results": [{"shape": list(r.shape), "dtype": str(r.dtype)}
                  for r in results],
  }


def export_constants(fn, params, inputs, out):
  """The weights closed over: constants of the module."""
  import jax

  def closed(*xs):
    return fn(params, *xs)

  lowered = jax.jit(closed, keep_unused=True).lower(*inputs)
  export_forms(lowered, out, "constants")
  save_arrays(out / "inputs" / "constants", inputs, "{:04d}")
  return {}


def main():
  args = sys.argv[1:]
  weights = "both"
  if len(args) == 4 and args[2] == "--weights":
    weights = args[3]
    args = args[:2]
  if len(args) != 2 or weights not in ("params", "constants", "both"):
    sys.exit("usage: export.py MODEL OUT_DIR [--weights params|constants|both]")
  name, out = args[0], pathlib.Path(args[1])
  sys.path.insert(0, str(HERE))
  import zoo
  if name not in zoo.BY_NAME:
    sys.exit(f"export.py: no model '{name}' in the zoo "
             f"({', '.join(zoo.BY_NAME)})")
  todo = []
  for form in (("params", "constants") if weights == "both" else (weights,)):
    stamp = out / f"stamp-{form}"
    key = content_key(name, form)
    if stamp.exists() and stamp.read_text() == key:
      print(f"{name}: the weights-as-{form} forms are up to date in {out}")
      continue
    if stamp.exists():
      stamp.unlink()
    todo.append((form, stamp, key))
  if not todo:
    return

  import jax
  start = time.time()
  fn, params, inputs = zoo.BY_NAME[name].build()
  meta = {"model": name, "jax": jax.__version__,
          "build_seconds": round(time.time() - start, 2)}
  for form, stamp, key in todo:
    form_start = time.time()
    export = export_params if form == "params" else export_constants
    meta.update(export(fn, params, inputs, out))
    meta[f"{form}_export_seconds"] = round(time.time() - form_start, 2)
    write(out / f"meta-{form}.json", json.dumps(meta, indent=1) + "\n")
    write(stamp, key)
  print(f"{name}: exported {', '.join(f for f, _, _ in todo)} in "
        f"{time.time() - start:.1f} s to {out}")


if __name__ == "__main__":
  main()
