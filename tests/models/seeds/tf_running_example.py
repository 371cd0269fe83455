"""The running example from TensorFlow: reduce_mean(x**2 * 3 + y) under
tf.function(jit_compile=True), its HLO taken with
experimental_get_compiler_ir(x, y)(stage='hlo') (text) and
stage='hlo_serialized' (an HloModuleProto), both fed to aotc.

Checks, for each form: aotc compiles it and `aotc run --check` passes; the
result matches TensorFlow's own on the same inputs; the element-wise chain
(power, the broadcast 3, multiply, add) and the mean's sum fuse into one loop
nest (`aotc inspect --fusion`: one kInput region holding them and the row
partial sums, then the final sum with the division; with --strict-fp, which
keeps the sum unsplit, a single region), and nothing else is left to run
(`aotc inspect --strategies` lists the two fusions only).
"""
import os
import re
import sys

import numpy as np

# seed_util sits beside this script; no bytecode cache in the source tree.
sys.dont_write_bytecode = True
import seed_util as su

N = 1024


def export(folder):
    with su.quiet_stderr():
        import tensorflow as tf

        @tf.function(jit_compile=True)
        def f(x, y):
            return tf.reduce_mean(x**2 * 3 + y)

        rng = np.random.default_rng(23)
        x = rng.uniform(-1, 1, (N, N)).astype(np.float32)
        y = rng.uniform(-1, 1, (N, N)).astype(np.float32)
        tx, ty = tf.constant(x), tf.constant(y)
        ir = f.experimental_get_compiler_ir(tx, ty)
        text = ir(stage="hlo")
        proto = ir(stage="hlo_serialized")
        want = f(tx, ty).numpy()
    paths = {"hlo": os.path.join(folder, "running_example.hlo"),
             "proto": os.path.join(folder, "running_example.pb")}
    with open(paths["hlo"], "w") as fh:
        fh.write(text)
    with open(paths["proto"], "wb") as fh:
        fh.write(proto)
    return paths, text, (x, y), want


def chain_names(text):
    """The entry's element-wise instructions over the whole arrays: what must
    fuse with the sum (names as TensorFlow gives them)."""
    names = []
    shape = r"f32\[%d,%d\]\S*" % (N, N)
    for m in re.finditer(r"^\s*(?:ROOT\s+)?%?([\w.\-]+) = " + shape +
                         r" (power|multiply|add|broadcast)\(", text,
                         re.MULTILINE):
        names.append(m.group(1))
    ops = {m.group(1) for m in re.finditer(
        "= " + shape + r" (power|multiply|add)\(", text)}
    if ops != {"power", "multiply", "add"}:
        raise su.SeedFailure(
            "TensorFlow's HLO changed: element-wise opcodes %s, expected "
            "power, multiply, add" % sorted(ops))
    return names


def regions(report):
    """(kind, [member names]) of each region of `aotc inspect --fusion`."""
    return [(m.group(1), m.group(2).split(", ")) for m in re.finditer(
        r"^\S+ \((k\w+)\): \d+ instructions: (.*)$", report, re.MULTILINE)]


def check_fusion(form, path, chain):
    report = su.aotc("inspect", path, "--fusion")
    found = regions(report)
    if len(found) != 2:
        raise su.SeedFailure(
            "%s: %d fused regions, expected 2 (row sums with the chain, final "
            "sum with the division):\n%s" % (form, len(found), report))
    (kind, members), (kind2, members2) = found
    missing = [n for n in chain if n not in members]
    partial = [n for n in members if n.endswith(".partial")]
    if kind != "kInput" or missing or len(partial) != 1:
        raise su.SeedFailure(
            "%s: the first region is not the chain fused with the row sums "
            "(kind %s, missing %s, partial sums %s):\n%s" %
            (form, kind, missing, partial, report))
    if kind2 != "kInput" or len(members2) != 2:
        raise su.SeedFailure(
            "%s: the second region is not the final sum and the division:"
            "\n%s" % (form, report))
    strategies = su.aotc("inspect", path, "--strategies")
    lines = [l for l in strategies.splitlines() if l.startswith("  %")]
    if len(lines) != 2 or not all(" fusion(...): " in l for l in lines):
        raise su.SeedFailure(
            "%s: code runs for more than the two fusions:\n%s" %
            (form, strategies))
    strict = regions(su.aotc("inspect", path, "--fusion", "--strict-fp"))
    if len(strict) != 1 or [n for n in chain if n not in strict[0][1]]:
        raise su.SeedFailure(
            "%s: with --strict-fp the chain and the mean are not one region: "
            "%s" % (form, strict))
    print("%s: one loop nest computes %s and the row sums %s" %
          (form, ", ".join(chain), partial[0]))


def test():
    folder = su.work_dir("tf_running_example")
    paths, text, (x, y), want = export(folder)
    chain = chain_names(text)
    inputs = su.save_inputs(folder, [x, y])
    results = {}
    for form, path in paths.items():
        check_fusion(form, path, chain)
        out = os.path.join(folder, "out_" + form)
        (got,) = su.run_checked(path, inputs, out)
        results[form] = got
        # Both sides sum 2^20 terms in their own order; independent roundings
        # add like a random walk, u sqrt(n) sum|t| each (docs/testing.md), and
        # power(x, 2) is 2 ulps: 2 * 2^-24 * 2^10 * mean(|t|) relative to the
        # mean of |t|, plus 2 ulps.
        t = x.astype(np.float64)**2 * 3 + y
        bound = 2 * 2.0**-24 * np.sqrt(t.size) * np.mean(np.abs(t)) + \
            2 * 2.0**-23 * abs(float(want))
        su.expect_within("%s: aotc against TensorFlow" % form, got, want,
                         bound)
    if results["hlo"].tobytes() != results["proto"].tobytes():
        raise su.SeedFailure(
            "the text and proto forms give different results: %r, %r" %
            (results["hlo"], results["proto"]))


if __name__ == "__main__":
    su.main(test)
