"""Exports the sample's Flax model for aotc, with its weights as constants.

Builds a small Flax CNN that classifies 12x12 grey pictures into 10 classes,
initializes its weights from a fixed seed (a real project would load trained
ones), and writes:

  --hlo FILE       the model as HLO text, the weights closed over so that
                   they print as constants: aotc compiles them into the object
  --expected FILE  a C header with a seeded input picture and JAX's output for
                   it (jax.jit on XLA:CPU), so that the C program can check
                   its own result

Run by the sample's CMakeLists.txt with the Python of AOTC_SAMPLE_PYTHON,
which needs jax and flax. aotc.export (python/aotc, docs/python.md) does the
same as export(); the sample calls jax itself so that it needs nothing else.
"""

import argparse
import os

import flax.linen as nn
import jax
import numpy as np


class Classifier(nn.Module):
    """conv 3x3 (8) - relu - max pool 2x2 - conv 3x3 (16) - relu - mean -
    dense (10) - softmax, on NHWC pictures."""

    @nn.compact
    def __call__(self, x):
        # Random biases, where Flax starts from zeros: trained biases are not
        # zero, and zeros would let JAX drop them from the export.
        bias = nn.initializers.normal(0.1)
        x = nn.relu(nn.Conv(8, (3, 3), bias_init=bias)(x))
        x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(16, (3, 3), bias_init=bias)(x))
        x = x.mean(axis=(1, 2))
        return nn.softmax(nn.Dense(10, bias_init=bias)(x))


def export(path, model, variables, picture):
    """Writes the model as HLO text, the weights as constants."""
    def classify(picture):
        return model.apply(variables, picture)
    # as_text(dialect="hlo") prints every constant in full (the compiler IR's
    # as_hlo_text() would elide large ones as {...}).
    text = jax.jit(classify).lower(picture).as_text(dialect="hlo")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return np.asarray(jax.jit(classify)(picture))


def c_array(name, values):
    """A C array of float literals in hexadecimal: exact, no rounding."""
    body = ",\n  ".join(
        ", ".join(float(v).hex() + "f" for v in values[i:i + 4])
        for i in range(0, len(values), 4))
    return f"static const float {name}[{len(values)}] = {{\n  {body}\n}};\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hlo", required=True)
    parser.add_argument("--expected", required=True)
    args = parser.parse_args()

    model = Classifier()
    picture = np.random.default_rng(7).random((1, 12, 12, 1), np.float32)
    variables = model.init(jax.random.PRNGKey(0), picture)
    probabilities = export(args.hlo, model, variables, picture)

    weights = sum(w.size for w in jax.tree_util.tree_leaves(variables))
    with open(args.expected, "w", encoding="utf-8") as f:
        f.write("/* expected.h: an input of the classifier and JAX's output "
                "for it, written by\n * export_model.py; do not edit. */\n")
        f.write(f"#define EXPECTED_WEIGHT_COUNT {weights}\n")
        f.write(c_array("kPicture", picture.reshape(-1)))
        f.write(c_array("kExpected", probabilities.reshape(-1)))
    print(f"export_model: wrote {os.path.basename(args.hlo)} ({weights} "
          f"weights as constants) and {os.path.basename(args.expected)}")


if __name__ == "__main__":
    main()
