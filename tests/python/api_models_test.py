"""JAX models through aotc.export, aotc.compile and aotc.load.

Each model is exported in every form (HLO text, HloModuleProto, StableHLO)
with its weights as constants and as parameters, compiled, loaded and called
on seeded inputs; the result must match jax.jit's on XLA:CPU within
api_util.RELATIVE_TOLERANCE. A small Keras model goes the same way through
its stateless_call. A mutated weight must be caught by the same check, and a
large product run on several threads, also from concurrent Python threads,
must start threads and give the one-thread result bit for bit.
"""

import concurrent.futures
import os
import unittest

import jax
import jax.numpy as jnp
import numpy as np

import aotc
import api_util

FORMS = ("hlo", "proto", "stablehlo")
WEIGHTS = ("constants", "parameters")


def mlp(params, x):
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    return jax.nn.softmax(h @ params["w2"] + params["b2"], axis=-1)


def mlp_params(rng):
    return {
        "w1": rng.standard_normal((16, 32), np.float32) * 0.25,
        "b1": rng.standard_normal((32,), np.float32) * 0.1,
        "w2": rng.standard_normal((32, 10), np.float32) * 0.25,
        "b2": rng.standard_normal((10,), np.float32) * 0.1,
    }


def conv(x, kernel, stride):
    return jax.lax.conv_general_dilated(
        x, kernel, (stride, stride), "SAME",
        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def cnn(params, image):
    """Two 3x3 convolutions (the second strided), a 2x2 max pool, a mean over
    the picture and a dense layer: NHWC, as Flax and Keras lay pictures."""
    x = jax.nn.relu(conv(image, params["conv1"]["kernel"], 1) +
                    params["conv1"]["bias"])
    x = jax.nn.relu(conv(x, params["conv2"]["kernel"], 2) +
                    params["conv2"]["bias"])
    x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1),
                              (1, 2, 2, 1), "VALID")
    return jnp.mean(x, axis=(1, 2)) @ params["dense"]["kernel"]


def cnn_params(rng):
    return {
        "conv1": {"kernel": rng.standard_normal((3, 3, 3, 8), np.float32) * 0.3,
                  "bias": rng.standard_normal((8,), np.float32) * 0.1},
        "conv2": {
            "kernel": rng.standard_normal((3, 3, 8, 16), np.float32) * 0.2,
            "bias": rng.standard_normal((16,), np.float32) * 0.1},
        "dense": {"kernel": rng.standard_normal((16, 10), np.float32) * 0.3},
    }


class ModelsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = api_util.work_dir("api_models")

    def check_model(self, name, fn, params, inputs, input_names):
        want = np.asarray(jax.jit(fn)(params, *inputs))
        leaves = jax.tree_util.tree_flatten_with_path(params)[0]
        param_names = ["params" + jax.tree_util.keystr(path)
                       for path, _ in leaves]
        for form in FORMS:
            for weights in WEIGHTS:
                with self.subTest(model=name, form=form, weights=weights):
                    stem = f"{name}_{form}_{weights}"
                    exported = aotc.export(
                        fn, params, *inputs, form=form, weights=weights,
                        path=os.path.join(self.work, stem + "." + form))
                    expected = input_names if weights == "constants" else (
                        param_names + input_names)
                    self.assertEqual([p.name for p in exported.parameters],
                                     expected)
                    if form == "hlo":
                        with open(exported.path, encoding="utf-8") as f:
                            self.assertNotIn("{...}", f.read())
                    compiled = aotc.compile(
                        exported.path, os.path.join(self.work, stem),
                        name=stem)
                    model = aotc.load(compiled.out_dir)
                    self.assertEqual(
                        [(a.shape, a.dtype) for a in model.args],
                        [(p.shape, p.dtype) for p in exported.parameters])
                    got = model(*exported.flatten(params, *inputs))
                    error = api_util.max_relative_error(got, want)
                    print(f"{stem}: {len(model.args)} arguments, max error "
                          f"{error:.2e} of the largest output")
                    self.assertLessEqual(error, api_util.RELATIVE_TOLERANCE)
                    if weights == "parameters":
                        self.check_mutation_is_caught(model, exported, params,
                                                      inputs, want)

    def check_mutation_is_caught(self, model, exported, params, inputs, want):
        """One weight off by 0.1 must fail the comparison by far."""
        arrays = exported.flatten(params, *inputs)
        first = arrays[0].copy()
        first.reshape(-1)[0] += 0.1
        got = model(first, *arrays[1:])
        self.assertGreater(api_util.max_relative_error(got, want),
                           10 * api_util.RELATIVE_TOLERANCE)

    def test_mlp(self):
        rng = np.random.default_rng(1)
        x = rng.standard_normal((4, 16), np.float32)
        self.check_model("mlp", mlp, mlp_params(rng), (x,), ["x"])

    def test_cnn(self):
        rng = np.random.default_rng(2)
        image = rng.standard_normal((2, 16, 16, 3), np.float32)
        self.check_model("cnn", cnn, cnn_params(rng), (image,), ["image"])

    def test_keras(self):
        """A Keras model (JAX backend) through stateless_call: its trainable
        and non-trainable variables are the weights pytree."""
        import keras
        model = keras.Sequential([
            keras.Input((8, 8, 3)),
            keras.layers.Conv2D(4, 3, activation="gelu"),
            keras.layers.BatchNormalization(),
            keras.layers.GlobalAveragePooling2D(),
            keras.layers.Dense(5)])
        params = ([v.value for v in model.trainable_variables],
                  [v.value for v in model.non_trainable_variables])

        def keras_fn(params, x):
            return model.stateless_call(params[0], params[1], x)[0]
        x = np.random.default_rng(4).standard_normal((2, 8, 8, 3), np.float32)
        want = np.asarray(model(x))
        for weights in WEIGHTS:
            with self.subTest(weights=weights):
                stem = f"keras_{weights}"
                exported = aotc.export(
                    keras_fn, params, x, weights=weights,
                    path=os.path.join(self.work, stem + ".hlo"))
                model_c = aotc.load(aotc.compile(
                    exported.path, os.path.join(self.work, stem)).out_dir)
                error = api_util.max_relative_error(
                    model_c(*exported.flatten(params, x)), want)
                print(f"{stem}: max error {error:.2e} of the largest output")
                self.assertLessEqual(error, api_util.RELATIVE_TOLERANCE)

    def test_no_weights(self):
        """weights=None: every argument is an input, named after fn's own."""
        def affine(x, scale):
            return x * scale + 1
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        scale = np.float32(0.5)
        exported = aotc.export(affine, x, scale, weights=None,
                               path=os.path.join(self.work, "affine.hlo"))
        self.assertEqual([(p.name, p.shape) for p in exported.parameters],
                         [("x", (2, 3)), ("scale", ())])
        model = aotc.load(aotc.compile(
            exported.path, os.path.join(self.work, "affine")).out_dir)
        np.testing.assert_array_equal(
            model(*exported.flatten(x, scale)), x * 0.5 + 1)

    def test_export_arguments(self):
        path = os.path.join(self.work, "unused.hlo")
        with self.assertRaisesRegex(ValueError, "form must be one of"):
            aotc.export(mlp, {}, path=path, form="onnx")
        with self.assertRaisesRegex(ValueError, "weights must be one of"):
            aotc.export(mlp, {}, path=path, weights="const")
        with self.assertRaisesRegex(ValueError, "needs the weights as the "
                                    "first example argument"):
            aotc.export(mlp, path=path)

    def test_threads(self):
        """A large product splits over the threads a call asks for, also in
        calls from several Python threads at once."""
        rng = np.random.default_rng(3)
        w = rng.standard_normal((512, 512), np.float32) * 0.05
        x = rng.standard_normal((128, 512), np.float32)
        exported = aotc.export(lambda w, x: jnp.tanh(x @ w), w, x,
                               weights="parameters",
                               path=os.path.join(self.work, "product.hlo"))
        compiled = aotc.compile(exported.path,
                                os.path.join(self.work, "product"))
        model = aotc.load(compiled.out_dir)
        want = np.asarray(jax.jit(lambda w, x: jnp.tanh(x @ w))(w, x))
        one = model(w, x)
        self.assertEqual(model.threads_started(), 0)
        two = model(w, x, threads=2)
        started = model.threads_started()
        print(f"product: threads=2 started {started} threads")
        self.assertGreater(started, 0)
        self.assertLessEqual(api_util.max_relative_error(one, want),
                             api_util.RELATIVE_TOLERANCE)
        # Loops split over their outermost dimension (docs/codegen.md): each
        # element is computed by one chunk, the same way for any split.
        np.testing.assert_array_equal(two, one)
        # Calls from several Python threads at once, each with its own count.
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda n: model(w, x, threads=n),
                                    [1, 2, 3, 4] * 3))
        for result in results:
            np.testing.assert_array_equal(result, one)


if __name__ == "__main__":
    unittest.main(verbosity=2)
