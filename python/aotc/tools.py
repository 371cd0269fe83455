"""Finding the aotc binary and the aotc runtime library.

aotc.compile and aotc.load both need the `aotc` executable or the files
installed beside it. The search order, documented in docs/python.md, is: the
argument the caller passes, then an environment variable, then the usual
places; a failed search names every place it looked.
"""

import os
import shutil

from aotc.errors import AotcError


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_aotc(aotc=None):
    """The path of the aotc binary: `aotc`, else $AOTC, else aotc on PATH."""
    if aotc is not None:
        path = os.fspath(aotc)
        if _executable(path):
            return os.path.abspath(path)
        found = shutil.which(path)
        if found:
            return found
        raise AotcError(f"aotc binary not found: {path} is not an executable")
    env = os.environ.get("AOTC")
    if env:
        if _executable(env):
            return os.path.abspath(env)
        raise AotcError(f"aotc binary not found: $AOTC is {env}, which is not "
                        "an executable")
    found = shutil.which("aotc")
    if found:
        return found
    raise AotcError("aotc binary not found: pass aotc=PATH, set $AOTC, or put "
                    "aotc on PATH")


def runtime_candidates(aotc_binary):
    """Where the runtime may be, relative to the aotc binary, in search order.

    An installed aotc has bin/aotc beside lib/libaotc_runtime.a (or lib64/), a
    build tree tools/aotc beside runtime_lib/libaotc_runtime.a. The runtime's
    installed C source, share/aotc/runtime/runtime.c, comes last: it is
    compiled when no archive is there.
    """
    bin_dir = os.path.dirname(os.path.realpath(aotc_binary))
    top = os.path.dirname(bin_dir)
    return [
        os.path.join(top, "lib", "libaotc_runtime.a"),
        os.path.join(top, "lib64", "libaotc_runtime.a"),
        os.path.join(top, "runtime_lib", "libaotc_runtime.a"),
        os.path.join(top, "share", "aotc", "runtime", "runtime.c"),
    ]


def find_runtime(runtime=None, aotc=None):
    """The runtime to link: an archive (.a) or the runtime's C source (.c).

    `runtime`, else $AOTC_RUNTIME, else the first of runtime_candidates()
    beside the aotc binary (found as find_aotc finds it) that exists.
    """
    if runtime is not None:
        path = os.fspath(runtime)
        if not os.path.isfile(path):
            raise AotcError(f"aotc runtime not found: {path} is not a file")
        return os.path.abspath(path)
    env = os.environ.get("AOTC_RUNTIME")
    if env:
        if not os.path.isfile(env):
            raise AotcError(f"aotc runtime not found: $AOTC_RUNTIME is {env}, "
                            "which is not a file")
        return os.path.abspath(env)
    try:
        binary = find_aotc(aotc)
    except AotcError as error:
        raise AotcError("aotc runtime not found: pass runtime=PATH or set "
                        f"$AOTC_RUNTIME ({error})") from None
    candidates = runtime_candidates(binary)
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise AotcError("aotc runtime not found: pass runtime=PATH or set "
                    "$AOTC_RUNTIME; looked beside " + binary + " at " +
                    ", ".join(candidates))
