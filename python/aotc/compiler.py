"""aotc.compile: runs `aotc compile` on a model file.

Each keyword option is one real flag of `aotc compile` (docs/cli.md); an
unknown keyword is a TypeError, so a misspelt option never goes unnoticed. A
refusal raises CompileError carrying aotc's located message.
"""

import dataclasses
import os
import re
import subprocess

from aotc.errors import AotcError, CompileError
from aotc.tools import find_aotc


@dataclasses.dataclass(frozen=True)
class CompiledModel:
    """What `aotc compile` wrote. A path is None when --emit left it out."""
    name: str
    out_dir: str
    object: str
    header: str
    json: str
    stdout: str
    stderr: str


def _value(flag):
    return lambda value: [f"{flag}={value}"]


def _switch(flag):
    return lambda value: [flag] if value else []


def _list(flag):
    def render(value):
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        return [f"{flag}={value}"]
    return render


def _composite_kernels(value):
    """{name: symbol} (or NAME=SYMBOL strings) -> one flag per binding."""
    if isinstance(value, dict):
        value = [f"{name}={symbol}" for name, symbol in value.items()]
    elif isinstance(value, str):
        value = [value]
    return [f"--composite-kernel={binding}" for binding in value]


def _optimization(value):
    value = str(value)
    if value.startswith("O"):
        value = value[1:]
    if value not in ("0", "1", "2", "3", "s", "z"):
        raise ValueError(f"opt must be 0, 1, 2, 3, 's' or 'z', not {value!r}")
    return [f"-O{value}"]


# Keyword -> flags of `aotc compile`, in the order of `aotc compile --help`.
_OPTIONS = {
    "opt": _optimization,
    "cache_kib": _list("--cache-kib"),
    "compile_partitions": _value("--compile-partitions"),
    "compile_threads": _value("--compile-threads"),
    "composite_kernels": _composite_kernels,
    "constants_section": _value("--constants-section"),
    "cpu": _value("--cpu"),
    "disable_pass": _list("--disable-pass"),
    "emit": _list("--emit"),
    "features": _value("--features"),
    "max_buffer_bytes": _value("--max-buffer-bytes"),
    "name": _value("--name"),
    "namespace": _value("--namespace"),
    "no_fusion": _switch("--no-fusion"),
    "pass_timing": _switch("--pass-timing"),
    "reloc": _value("--reloc"),
    "strict_fp": _switch("--strict-fp"),
    "target_triple": _value("--target-triple"),
}


def compile_command(path, out_dir, aotc=None, **options):
    """The command line compile() runs, as a list of strings."""
    command = [find_aotc(aotc), "compile", os.fspath(path), "-o",
               os.fspath(out_dir)]
    for key, value in options.items():
        if key not in _OPTIONS:
            raise TypeError(f"aotc.compile: unknown option {key!r}; the "
                            "options are " + ", ".join(sorted(_OPTIONS)))
        if value is not None:
            command += _OPTIONS[key](value)
    return command


def compile(path, out_dir, *, aotc=None, **options):
    """Compiles the model at `path` (HLO text, HloModuleProto or StableHLO).

    Writes NAME.o, NAME.h and NAME.json into out_dir (created if missing) and
    returns a CompiledModel with their paths. `aotc` is the binary (default:
    $AOTC, else aotc on PATH). The options, each a flag of `aotc compile`:
    name, namespace, target_triple, cpu, features, opt (0..3, 's', 'z'),
    reloc ('pic' or 'static'), emit (a list or a comma-separated string),
    constants_section, cache_kib ((l1, l2)), compile_threads,
    compile_partitions, max_buffer_bytes, disable_pass (a list),
    composite_kernels ({composite name: C function}), and the
    switches no_fusion, strict_fp and pass_timing. Raises CompileError with
    aotc's message when aotc refuses the model.
    """
    command = compile_command(path, out_dir, aotc=aotc, **options)
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              errors="replace", check=False)
    except OSError as error:
        raise AotcError(f"could not run {command[0]}: {error}") from None
    if done.returncode != 0:
        message = done.stderr.strip() or (
            f"aotc compile exited with code {done.returncode} and no message")
        raise CompileError(message, command, done.returncode, done.stdout,
                           done.stderr)
    match = re.search(r"^compiled (\S+) for ", done.stdout, re.MULTILINE)
    if not match:
        raise AotcError("aotc compile succeeded but did not say which model "
                        "it wrote:\n" + done.stdout)
    name = match.group(1)
    written = {}
    for line in re.findall(r"^\s*wrote (.+) \(\d+ bytes\)$", done.stdout,
                           re.MULTILINE):
        written[os.path.splitext(line)[1]] = os.path.abspath(line)
    return CompiledModel(name=name, out_dir=os.path.abspath(out_dir),
                         object=written.get(".o"), header=written.get(".h"),
                         json=written.get(".json"), stdout=done.stdout,
                         stderr=done.stderr)
