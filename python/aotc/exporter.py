"""aotc.export: writes a JAX function in a form aotc compiles.

The function is lowered with jax.jit on the example arguments and written as
HLO text, a serialized HloModuleProto or StableHLO text. jax is imported only
here, when export() runs, so the rest of the package needs numpy alone.

Weights. The function is called as fn(params, *inputs): its first argument is
a pytree of weights (nested dicts, lists, tuples of arrays, as Flax and
Haiku keep them). With weights="parameters" the entry parameters are the
leaves of params then the leaves of each input, in jax.tree_util's flattening
order (dict keys sorted); with weights="constants" params is closed over, so
its arrays print as constants, and the entry parameters are the inputs'
leaves only. weights=None means fn has no weights argument: fn(*inputs).
"""

import dataclasses
import functools
import inspect
import os

import numpy as np

_FORMS = ("hlo", "proto", "stablehlo")
_WEIGHTS = ("constants", "parameters", None)


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One entry parameter of the exported module, in entry order."""
    name: str  # the pytree path, e.g. "params['Dense_0']['kernel']", "x"
    shape: tuple
    dtype: np.dtype


@dataclasses.dataclass(frozen=True)
class Exported:
    """What export() wrote, and the order of the module's entry parameters."""
    path: str
    form: str
    weights: str
    parameters: list
    results: list  # (shape, dtype) of each result leaf, in order
    _treedef: object = dataclasses.field(repr=False, default=None)

    def flatten(self, *args):
        """The arrays to pass to the compiled model, in entry order.

        Takes the same arguments as the exported function (params first
        unless weights=None) and returns their leaves that are entry
        parameters, as numpy arrays of their own dtype (nothing converted).
        """
        import jax
        if self.weights == "constants":
            args = args[1:]
        leaves, treedef = jax.tree_util.tree_flatten(args)
        if treedef != self._treedef:
            raise ValueError(f"the arguments have the structure {treedef}, "
                             f"the exported function {self._treedef}")
        return [np.asarray(leaf) for leaf in leaves]


def _argument_names(fn, count):
    """Names for the top-level arguments: fn's own when it has them."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None
    names = []
    if signature is not None:
        for p in signature.parameters.values():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
    if len(names) < count:
        names += [f"args[{i}]" for i in range(len(names), count)]
    return names[:count]


def _parameters(jax, lowered, args, names):
    """The entry parameters: each leaf's path with the aval jit gave it."""
    paths = [path for path, _ in jax.tree_util.tree_flatten_with_path(args)[0]]
    avals = jax.tree_util.tree_leaves(lowered.in_avals[0])
    return [Parameter(name=names[path[0].idx] + jax.tree_util.keystr(path[1:]),
                      shape=tuple(aval.shape), dtype=np.dtype(aval.dtype))
            for path, aval in zip(paths, avals)]


def export(fn, *example_args, path, form="hlo", weights="constants"):
    """Lowers fn on example_args with jax.jit and writes it to path.

    form: "hlo" (HLO text with every constant printed in full), "proto" (the
    serialized HloModuleProto) or "stablehlo" (StableHLO MLIR text). weights:
    see the module's docstring. Returns an Exported naming the entry
    parameters in order; Exported.flatten(*args) gives the arrays to pass.
    """
    import jax
    if form not in _FORMS:
        raise ValueError(f"form must be one of {_FORMS}, not {form!r}")
    if weights not in _WEIGHTS:
        raise ValueError(f"weights must be one of {_WEIGHTS}, not {weights!r}")
    names = _argument_names(fn, len(example_args))
    if weights is not None and not example_args:
        raise ValueError(f"weights={weights!r} needs the weights as the first "
                         "example argument: fn(params, *inputs)")
    if weights == "constants":
        inputs = example_args[1:]
        names = names[1:]
        # A partial keeps fn's signature for the inputs, so JAX names the
        # entry parameters after them as it does with weights="parameters".
        target = functools.partial(fn, example_args[0])
    else:
        inputs = example_args
        target = fn
    # keep_unused: every leaf stays an entry parameter, even one the function
    # ignores, so that the parameters are exactly the flattened arguments.
    lowered = jax.jit(target, keep_unused=True).lower(*inputs)
    if form == "hlo":
        # Lowered.as_text(dialect="hlo") prints large constants in full;
        # compiler_ir("hlo").as_hlo_text() would elide them as {...}.
        data = lowered.as_text(dialect="hlo").encode()
    elif form == "proto":
        data = lowered.compiler_ir("hlo").as_serialized_hlo_module_proto()
    else:
        data = lowered.as_text().encode()
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    results = [(tuple(r.shape), np.dtype(r.dtype))
               for r in jax.tree_util.tree_leaves(lowered.out_info)]
    _, treedef = jax.tree_util.tree_flatten(tuple(inputs))
    return Exported(path=os.path.abspath(path), form=form, weights=weights,
                    parameters=_parameters(jax, lowered, tuple(inputs),
                                               names),
                    results=results, _treedef=treedef)
