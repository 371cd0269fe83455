"""aotc from Python: export a JAX function, compile it, call the result.

    exported = aotc.export(fn, params, x, path="model.hlo")
    compiled = aotc.compile(exported.path, "out")
    model = aotc.load("out")
    y = model(x)

export needs jax (imported only when it runs); compile runs the `aotc`
binary; load links the object with the aotc runtime using the C compiler and
calls it through ctypes. See docs/python.md.
"""

# aotc.compile shadows the built-in compile() in this namespace only, as
# re.compile does.
from aotc.compiler import CompiledModel, compile
from aotc.errors import AotcError, CompileError, LoadError, RunError
from aotc.exporter import Exported, Parameter, export
from aotc.loader import Model, TensorSpec, load

__version__ = "0.1.0"

__all__ = [
    "AotcError", "CompileError", "CompiledModel", "Exported", "LoadError",
    "Model", "Parameter", "RunError", "TensorSpec", "compile", "export",
    "load",
]
