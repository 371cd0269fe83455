"""aotc.load: links a compiled model into a shared library and calls it.

The model's object and the aotc runtime (found as tools.find_runtime says),
together with threads.c (a parallel-for hook), are linked with the C compiler
into NAME.<key>.so beside the object, where <key> hashes every input of the
link, so a recompiled model gets a new library and an unchanged one is linked
once. Shapes, element types, layouts, donated arguments and the scratch size
come from NAME.json (docs/header.md); calls go through NAME_run_packed.
"""

import ctypes
import dataclasses
import glob
import hashlib
import json
import os
import platform
import subprocess

import numpy as np

from aotc.dtypes import needs_ml_dtypes, numpy_dtype
from aotc.errors import LoadError, RunError
from aotc.tools import find_runtime

_THREADS_C = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "threads.c")

# platform.machine() spellings of a triple's architecture.
_MACHINES = {"x86_64": {"x86_64", "amd64"}, "aarch64": {"aarch64", "arm64"},
             "arm64": {"aarch64", "arm64"}}


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    """One argument or result of the model, as NAME.json describes it."""
    name: str
    element_type: str
    dtype: np.dtype
    shape: tuple
    minor_to_major: tuple
    byte_size: int
    # Arguments: the result written into this argument's buffer, or None.
    # Results: the argument whose buffer holds this result, or None.
    aliased: int = None

    @property
    def major_to_minor(self):
        return tuple(reversed(self.minor_to_major))

    @property
    def row_major(self):
        return self.major_to_minor == tuple(range(len(self.shape)))

    @property
    def physical_shape(self):
        return tuple(self.shape[d] for d in self.major_to_minor)


def _tensor(entry, what, alias_key):
    element_type = entry["element_type"]
    dtype = numpy_dtype(element_type)
    if dtype is None:
        reason = ("which needs ml_dtypes (pip install ml_dtypes)"
                  if needs_ml_dtypes(element_type) else
                  "which numpy cannot hold")
        raise LoadError(f"{what} '{entry['name']}' has element type "
                        f"{element_type}, {reason}")
    return TensorSpec(name=entry["name"], element_type=element_type,
                      dtype=dtype, shape=tuple(entry["dims"]),
                      minor_to_major=tuple(entry["minor_to_major"]),
                      byte_size=entry["byte_size"],
                      aliased=entry.get(alias_key))


def _find_json(out_dir, name):
    if name is not None:
        path = os.path.join(out_dir, name + ".json")
        if not os.path.isfile(path):
            raise LoadError(f"no {name}.json in {out_dir} (was the model "
                            "compiled there with --emit json?)")
        return path
    found = [p for p in sorted(glob.glob(os.path.join(out_dir, "*.json")))
             if os.path.isfile(p[:-len(".json")] + ".o")]
    if len(found) == 1:
        return found[0]
    if not found:
        raise LoadError(f"no compiled model in {out_dir}: it has no NAME.json "
                        "beside a NAME.o")
    names = ", ".join(os.path.basename(p)[:-len(".json")] for p in found)
    raise LoadError(f"{out_dir} holds several models ({names}): pass name=")


def _check_host(description, json_path):
    triple = description.get("target_triple", "")
    arch = triple.split("-")[0]
    machine = platform.machine().lower()
    if arch and machine not in _MACHINES.get(arch, {arch}):
        raise LoadError(f"{json_path}: the model is compiled for {triple}, "
                        f"which cannot run on this {machine} machine")


def _link(object_path, runtime, cc, extra):
    """Links the shared library, or reuses the one these inputs gave before."""
    inputs = [object_path, runtime, _THREADS_C, *extra]
    key = hashlib.sha256(cc.encode())
    for path in inputs:
        with open(path, "rb") as f:
            key.update(hashlib.sha256(f.read()).digest())
    stem = os.path.splitext(object_path)[0]
    library = f"{stem}.{key.hexdigest()[:16]}.so"
    if os.path.isfile(library):
        return library
    command = [cc, "-shared", "-fPIC", "-O2", "-std=c11", "-pthread"]
    if runtime.endswith(".c"):
        # runtime.c includes "aotc/runtime.h": in the source tree beside it,
        # installed under include/ three levels up (share/aotc/runtime/).
        source_dir = os.path.dirname(runtime)
        command += ["-I" + os.path.join(source_dir, "include"),
                    "-I" + os.path.join(source_dir, "..", "..", "..",
                                        "include")]
    partial = f"{library}.{os.getpid()}.tmp"
    command += ["-o", partial, object_path, _THREADS_C, runtime, *extra]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              errors="replace", check=False)
    except OSError as error:
        raise LoadError(f"could not run the C compiler {cc}: {error} (pass "
                        "cc= or set $CC)") from None
    if done.returncode != 0:
        if os.path.exists(partial):
            os.remove(partial)
        raise LoadError("linking the model failed: " + " ".join(command) +
                        "\n" + done.stderr.strip())
    os.replace(partial, library)
    return library


class Model:
    """A compiled model loaded into this process; call it with numpy arrays.

    model(*args, threads=None) takes one array per argument of NAME_run, in
    the header's order, each with exactly the argument's shape and dtype
    (nothing is converted), and returns the result as an array, or a tuple of
    arrays when the model has another number of results than one.
    """

    def __init__(self, description, json_path, library, threads):
        self.name = description["name"]
        self.json_path = json_path
        self.library_path = library
        self.hlo_signature = description["hlo_signature"]
        self.temp_bytes = description["temp_bytes"]
        self.alignment = description["alignment"]
        self.args = [_tensor(a, "argument", "donated_to_result")
                     for a in description["args"]]
        self.results = [_tensor(r, "result", "in_argument")
                        for r in description["results"]]
        self.threads = _thread_count(threads)
        self._lib = ctypes.CDLL(library, mode=os.RTLD_LOCAL)
        self._lib.aotc_py_install()
        self._run = ctypes.cast(
            getattr(self._lib, description["symbols"]["run_packed"]),
            ctypes.c_void_p)
        self._call = self._lib.aotc_py_call
        self._call.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
        self._call.restype = ctypes.c_int
        self._lib.aotc_py_threads_started.restype = ctypes.c_int64
        self._lib.aotc_status_message.argtypes = [ctypes.c_int]
        self._lib.aotc_status_message.restype = ctypes.c_char_p

    def threads_started(self):
        """How many threads calls of this library have started so far."""
        return self._lib.aotc_py_threads_started()

    def __repr__(self):
        return f"<aotc model {self.name} {self.hlo_signature}>"

    def _argument(self, i, value):
        spec = self.args[i]
        where = f"{self.name}: argument {i} ({spec.name})"
        array = np.asarray(value)
        if array.dtype != spec.dtype:
            raise TypeError(f"{where} must be {spec.element_type} (numpy "
                            f"{spec.dtype}), got {array.dtype}; aotc.load "
                            "converts nothing: pass an array of that dtype")
        if array.shape != spec.shape:
            raise ValueError(f"{where} must have shape {spec.shape}, got "
                             f"{array.shape}")
        # The buffer is the array in its physical layout: a copy only for a
        # non-contiguous array, a layout other than row-major, or a donated
        # argument (which the model overwrites).
        array = np.ascontiguousarray(array.transpose(spec.major_to_minor))
        if spec.aliased is not None:
            array = array.copy()
        return array

    def __call__(self, *args, threads=None):
        if len(args) != len(self.args):
            names = ", ".join(a.name for a in self.args)
            plural = "" if len(self.args) == 1 else "s"
            raise TypeError(f"{self.name} takes {len(self.args)} argument"
                            f"{plural} ({names}), got {len(args)}")
        threads = self.threads if threads is None else _thread_count(threads)
        buffers = [self._argument(i, a) for i, a in enumerate(args)]
        arg_pointers = (ctypes.c_void_p * max(1, len(buffers)))(
            *[b.ctypes.data for b in buffers])
        outputs = []
        result_pointers = (ctypes.c_void_p * max(1, len(self.results)))()
        for j, spec in enumerate(self.results):
            if spec.aliased is not None:
                # Written into the donated argument; NAME_run_packed does not
                # read results[j]. Same bytes, maybe another shape or type.
                raw = buffers[spec.aliased].reshape(-1).view(np.uint8)
                outputs.append(raw[:spec.byte_size].view(spec.dtype).reshape(
                    spec.physical_shape))
                continue
            output = np.empty(spec.physical_shape, spec.dtype)
            result_pointers[j] = output.ctypes.data
            outputs.append(output)
        temp = None
        if self.temp_bytes > 0:
            scratch = np.empty(self.temp_bytes + self.alignment, np.uint8)
            temp = scratch.ctypes.data + (-scratch.ctypes.data) % self.alignment
        status = self._call(self._run, arg_pointers, result_pointers, temp,
                            threads)
        if status != 0:
            message = self._lib.aotc_status_message(status).decode()
            raise RunError(f"{self.name}_run returned {status}: {message}",
                           status)
        values = []
        for spec, output in zip(self.results, outputs):
            if not spec.row_major:
                output = np.ascontiguousarray(
                    output.transpose(np.argsort(spec.major_to_minor)))
            values.append(output)
        return values[0] if len(values) == 1 else tuple(values)


def _thread_count(threads):
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    return threads


def load(out_dir, *, name=None, threads=1, runtime=None, cc=None, aotc=None,
         link_with=()):
    """Loads the model that `aotc compile` wrote into out_dir.

    name picks NAME.json when out_dir holds several models. threads is the
    default thread count of a call (1: the calling thread only). runtime is
    the aotc runtime to link (libaotc_runtime.a or runtime.c; default
    $AOTC_RUNTIME, else beside the aotc binary, see docs/python.md); cc the
    C compiler (default $CC, else cc); link_with further objects, archives or
    C sources to link, such as the functions of a model's custom calls.
    Returns a Model.
    """
    out_dir = os.fspath(out_dir)
    json_path = _find_json(out_dir, name)
    with open(json_path, encoding="utf-8") as f:
        description = json.load(f)
    if description.get("format_version") != 1:
        raise LoadError(f"{json_path}: format_version "
                        f"{description.get('format_version')} is not 1")
    _check_host(description, json_path)
    extra = [os.path.abspath(os.fspath(p)) for p in link_with]
    if description["external_functions"] and not extra:
        raise LoadError(
            f"{description['name']} calls external functions ("
            + ", ".join(description["external_functions"]) +
            "): pass link_with= the files that define them")
    object_path = json_path[:-len(".json")] + ".o"
    if not os.path.isfile(object_path):
        raise LoadError(f"no {os.path.basename(object_path)} beside "
                        f"{json_path}")
    library = _link(object_path, find_runtime(runtime, aotc),
                    cc or os.environ.get("CC") or "cc", extra)
    return Model(description, json_path, library, threads)
