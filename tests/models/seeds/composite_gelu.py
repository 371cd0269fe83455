"""A GELU written as a jax.lax.composite, the way torch-xla backends mark
one (tt-xla's `tenstorrent.gelu_tanh` with `approximate = "tanh"`, and
`tenstorrent.gelu` for the exact one), after a dense layer, exported as
StableHLO text (jax.jit(f).lower(...).as_text()) and as HLO text.

Checks, for each form: aotc's front end keeps the composite by name (`aotc
inspect` prints the call with is_composite=true and composite.name, version
and attributes); the decomposition is what runs, inlined into the layer, so
the tanh one is the product's gelu_tanh epilogue (`--strategies`); `aotc run
--check` passes; the result matches jax.jit's on XLA:CPU.
"""
import functools
import os
import sys

import numpy as np

# seed_util sits beside this script; no bytecode cache in the source tree.
sys.dont_write_bytecode = True
import seed_util as su

BATCH, FEATURES, UNITS = 16, 256, 128


def export(folder, approximate):
    with su.quiet_stderr():
        import jax
        name = "tenstorrent.gelu_tanh" if approximate else "tenstorrent.gelu"

        @functools.partial(jax.lax.composite, name=name)
        def gelu(x, *, approximate):
            return jax.nn.gelu(x, approximate=approximate == "tanh")

        def f(x, w, b):
            attribute = "tanh" if approximate else "none"
            return gelu(x @ w + b, approximate=attribute)

        rng = np.random.default_rng(11)
        x = rng.normal(0, 1, (BATCH, FEATURES)).astype(np.float32)
        w = rng.normal(0, FEATURES**-0.5, (FEATURES, UNITS)).astype(np.float32)
        b = rng.normal(0, 1, (UNITS,)).astype(np.float32)
        jitted = jax.jit(f)
        lowered = jitted.lower(x, w, b)
        want = np.asarray(jitted(x, w, b))
    stem = name.replace(".", "_")
    paths = {"stablehlo": os.path.join(folder, stem + ".mlir"),
             "hlo": os.path.join(folder, stem + ".hlo")}
    with open(paths["stablehlo"], "w") as fh:
        fh.write(lowered.as_text())
    with open(paths["hlo"], "w") as fh:
        fh.write(lowered.as_text(dialect="hlo"))
    return name, paths, (x, w, b), want


def bound(x, w, b, y):
    """As for the Keras layer: the dot's summation orders, u (2 sqrt(K) + 2)
    sum|x w| apart, through GELU's slope (at most 1.13), and a few ulps of
    the activation's input (16 u |v|)."""
    u = 2.0**-24
    s = np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64))
    v = x.astype(np.float64) @ w.astype(np.float64) + b
    return 1.13 * u * (2 * np.sqrt(FEATURES) + 2) * s + 16 * u * np.maximum(
        np.abs(v), np.abs(y))


def test():
    folder = su.work_dir("composite_gelu")
    for approximate in (True, False):
        name, paths, (x, w, b), want = export(folder, approximate)
        attribute = "tanh" if approximate else "none"
        inputs = su.save_inputs(folder, [x, w, b])
        for form, path in paths.items():
            what = "%s %s" % (name, form)
            printed = su.aotc("inspect", path)
            call = su.expect_in(
                "%s: the composite as the front end keeps it" % what,
                r"^.* call\(.*is_composite=true.*$", printed).group(0)
            # StableHLO's attributes are kept as their source text, quoted;
            # JAX's HLO text writes them unquoted.
            quote = '\\"' if form == "stablehlo" else '"'
            for attr in ('composite.name="%s"' % name, 'composite.version="0"',
                         "approximate = %s%s%s" % (quote, attribute, quote)):
                if attr not in call:
                    raise su.SeedFailure("%s: the composite call lacks %s:\n%s"
                                         % (what, attr, call))
            print("%s: kept as a composite call, %s" %
                  (what, su.expect_in(what, r"frontend_attributes=\{.*\}",
                                      call).group(0)))
            # The exact GELU's decomposition is an epilogue where JAX expands
            # erfc itself (HLO text); aotc's own chlo.erfc is computed in f64
            # and too large to fuse (docs/stablehlo.md).
            if approximate or form == "hlo":
                pattern = "gelu_tanh" if approximate else "gelu_erf"
                strategies = su.aotc("inspect", path, "--strategies")
                su.expect_in("%s: the decomposition as the product's "
                             "epilogue" % what,
                             r"fusion\(\.\.\.\): gemm  \(kOutput: dot\+bias\+"
                             + pattern + r"\)$", strategies)
            out = os.path.join(folder, "out_%s_%s" % (name, form))
            (got,) = su.run_checked(path, inputs, out)
            su.expect_within("%s: aotc against jax.jit" % what, got, want,
                             bound(x, w, b, want))


if __name__ == "__main__":
    su.main(test)
