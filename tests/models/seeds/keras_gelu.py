"""A Keras Dense layer with a GELU activation (JAX backend), both
approximate=True (tanh) and approximate=False (erf), exported to HLO text
with jax.jit(model.stateless_call).lower(...).as_text(dialect="hlo").

Checks, for each: aotc compiles it and `aotc run --check` passes; the whole
layer is one matrix product with the GELU as its epilogue (`aotc inspect
--strategies` prints a single `gemm (kOutput: dot+bias+gelu_tanh)`, resp.
`gelu_erf`: JAX writes the exact GELU with erfc expanded into polynomials,
no erf instruction); the result matches Keras's own on the same input. The
StableHLO text of the same layer is compiled and checked too; its tanh GELU
must be the epilogue as well (the erf one goes through aotc's f64 chlo.erfc,
docs/stablehlo.md).
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
        import keras
        keras.utils.set_random_seed(23)
        act = functools.partial(keras.activations.gelu,
                                approximate=approximate)
        model = keras.Sequential([
            keras.Input((FEATURES,)),
            keras.layers.Dense(UNITS, activation=act)])
        # Keras starts the bias at zero; a random one checks it is added.
        dense = model.layers[0]
        rng = np.random.default_rng(5)
        dense.bias.assign(rng.normal(0, 1, (UNITS,)).astype(np.float32))
        x = rng.normal(0, 1, (BATCH, FEATURES)).astype(np.float32)
        trainable = [v.value for v in model.trainable_variables]
        non_trainable = [v.value for v in model.non_trainable_variables]

        def f(x, trainable, non_trainable):
            y, _ = model.stateless_call(trainable, non_trainable, x)
            return y

        lowered = jax.jit(f).lower(x, trainable, non_trainable)
        want = np.asarray(model(x))
        kernel = np.asarray(dense.kernel.value)
        bias = np.asarray(dense.bias.value)
    name = "dense_gelu_" + ("tanh" if approximate else "erf")
    paths = {"hlo": os.path.join(folder, name + ".hlo"),
             "stablehlo": os.path.join(folder, name + ".mlir")}
    with open(paths["hlo"], "w") as fh:
        fh.write(lowered.as_text(dialect="hlo"))
    with open(paths["stablehlo"], "w") as fh:
        fh.write(lowered.as_text())
    return paths, (x, kernel, bias), want


def bound(x, kernel, bias, y):
    """What aotc and XLA may differ by: each sums the dot's 256 products in
    its own order, u (2 sqrt(K) + 2) sum|x w| apart at most (docs/testing.md),
    which GELU's slope (at most 1.13) carries on; the activation itself is a
    few ulps of its input's magnitude on either side (16 u |v|)."""
    u = 2.0**-24
    s = np.abs(x.astype(np.float64)) @ np.abs(kernel.astype(np.float64))
    v = x.astype(np.float64) @ kernel.astype(np.float64) + bias
    return 1.13 * u * (2 * np.sqrt(FEATURES) + 2) * s + 16 * u * np.maximum(
        np.abs(v), np.abs(y))


def test():
    folder = su.work_dir("keras_gelu")
    for approximate, pattern in ((True, "gelu_tanh"), (False, "gelu_erf")):
        paths, (x, kernel, bias), want = export(folder, approximate)
        inputs = su.save_inputs(folder, [x, kernel, bias])
        for form, path in paths.items():
            what = "%s %s" % (pattern, form)
            strategies = su.aotc("inspect", path, "--strategies")
            lines = [l for l in strategies.splitlines() if l.startswith("  %")]
            epilogue = "fusion(...): gemm  (kOutput: dot+bias+%s)" % pattern
            if form == "hlo" or approximate:
                if len(lines) != 1 or not lines[0].endswith(epilogue):
                    raise su.SeedFailure(
                        "%s: the layer is not one product with a %s "
                        "epilogue:\n%s" % (what, pattern, strategies))
                print("%s: %s" % (what, lines[0].strip()))
            out = os.path.join(folder, "out_%s_%s" % (pattern, form))
            (got,) = su.run_checked(path, inputs, out)
            su.expect_within("%s: aotc against Keras" % what, got, want,
                             bound(x, kernel, bias, want))


if __name__ == "__main__":
    su.main(test)
