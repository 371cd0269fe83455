"""Exports a zoo model in every form aotc reads, with XLA:CPU's results.

  export.py MODEL OUT_DIR

writes into OUT_DIR (tests/models/zoo.py defines MODEL):
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
  meta.json                            XLA's compile time, temp size, ...

The export is cached by content: OUT_DIR/stamp holds a hash of this file,
zoo.py, the pinned requirements and the model's name, and a second run with
the same hash does nothing. Every file is written under a temporary name and
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


def content_key(name):
  h = hashlib.sha256()
  for path in (HERE / "zoo.py", HERE / "export.py", REQUIREMENTS):
    h.update(path.read_bytes())
  h.update(name.encode())
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


def main():
  if len(sys.argv) != 3:
    sys.exit("usage: export.py MODEL OUT_DIR")
  name, out = sys.argv[1], pathlib.Path(sys.argv[2])
  sys.path.insert(0, str(HERE))
  import zoo
  if name not in zoo.BY_NAME:
    sys.exit(f"export.py: no model '{name}' in the zoo "
             f"({', '.join(zoo.BY_NAME)})")
  key = content_key(name)
  stamp = out / "stamp"
  if stamp.exists() and stamp.read_text() == key:
    print(f"{name}: exported forms are up to date in {out}")
    return
  if stamp.exists():
    stamp.unlink()

  import jax
  import numpy as np
  start = time.time()
  fn, params, inputs = zoo.BY_NAME[name].build()
  built = time.time()

  # keep_unused: every weight stays an entry parameter, so the argument
  # list is exactly the flattened (params, *inputs).
  with_params = jax.jit(fn, keep_unused=True).lower(params, *inputs)
  export_forms(with_params, out, "params")
  save_arrays(out / "inputs" / "params",
              jax.tree_util.tree_leaves((params, list(inputs))), "{:04d}")

  def closed(*xs):
    return fn(params, *xs)

  with_constants = jax.jit(closed, keep_unused=True).lower(*inputs)
  export_forms(with_constants, out, "constants")
  save_arrays(out / "inputs" / "constants", inputs, "{:04d}")
  exported = time.time()

  # XLA:CPU's results, from the weights-as-parameters lowering.
  compile_start = time.time()
  compiled = with_params.compile()
  compile_seconds = time.time() - compile_start
  results = jax.tree_util.tree_leaves(compiled(params, *inputs))
  results = [np.asarray(r) for r in results]
  save_arrays(out / "xla", results, "result{}")
  memory = compiled.memory_analysis()
  meta = {
      "model": name,
      "jax": jax.__version__,
      "build_seconds": round(built - start, 2),
      "export_seconds": round(exported - built, 2),
      "xla_compile_seconds": round(compile_seconds, 2),
      "xla_temp_bytes": getattr(memory, "temp_size_in_bytes", None),
      "weights": len(jax.tree_util.tree_leaves(params)),
      "weight_bytes": int(sum(np.asarray(p).nbytes
                              for p in jax.tree_util.tree_leaves(params))),
      "results": [{"shape": list(r.shape), "dtype": str(r.dtype)}
                  for r in results],
  }
  write(out / "meta.json", json.dumps(meta, indent=1) + "\n")
  write(stamp, key)
  print(f"{name}: exported in {time.time() - start:.1f} s to {out}")


if __name__ == "__main__":
  main()
