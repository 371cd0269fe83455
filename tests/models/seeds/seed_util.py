"""Shared by the seed-flow tests: a work folder under the build tree, quiet
imports of the exporters, running aotc, and comparisons that say what differs.

Each test exports its model with the real tool at test time, writes the files
under AOTC_BUILD_DIR/tests/models/seeds/NAME (never the source tree) and runs
the aotc binary named by AOTC on them (cmake/AotcPython.cmake sets both).
"""
import contextlib
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


class SeedFailure(Exception):
    """A check of a seed flow failed; the message says what differs."""


def work_dir(name):
    """An empty-enough folder for this test's generated files."""
    d = os.path.join(os.environ["AOTC_BUILD_DIR"], "tests", "models", "seeds",
                     name)
    os.makedirs(d, exist_ok=True)
    return d


@contextlib.contextmanager
def quiet_stderr():
    """Sends file descriptor 2 to a temporary file while the body runs.

    TensorFlow and XLA print start-up logs from C++ before TF_CPP_MIN_LOG_LEVEL
    is read; they are shown only when the body raises.
    """
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace"))
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def aotc(*args):
    """Runs aotc; returns its stdout, or raises with the command and stderr."""
    cmd = [os.environ["AOTC"]] + [str(a) for a in args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SeedFailure("`%s` exited %d:\n%s%s" %
                          (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def run_checked(model, inputs, out_dir):
    """`aotc run MODEL --check` on .npy inputs; the results, as arrays.

    --check compares the compiled code with aotc's reference evaluator within
    the error budget (docs/testing.md) and exits 1 on a mismatch.
    """
    out = aotc("run", model, *inputs, "--check", "--output-dir", out_dir)
    if "check result0:" not in out or not re.search(r"check result0: .*: ok",
                                                    out):
        raise SeedFailure("aotc run --check on %s did not report ok:\n%s" %
                          (model, out))
    results = []
    while os.path.exists(os.path.join(out_dir, "result%d.npy" % len(results))):
        results.append(np.load(os.path.join(out_dir,
                                            "result%d.npy" % len(results))))
    return results


def save_inputs(folder, arrays):
    """Writes arrays as folder/input0.npy, ...; returns the paths."""
    paths = []
    for i, a in enumerate(arrays):
        p = os.path.join(folder, "input%d.npy" % i)
        np.save(p, a)
        paths.append(p)
    return paths


def expect_within(what, got, want, bound):
    """Every |got - want| <= bound (arrays broadcast); else raises naming the
    first element out of bound and the worst one."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        raise SeedFailure("%s: shape %s, expected %s" % (what, got.shape,
                                                         want.shape))
    err = np.abs(got - want)
    bound = np.broadcast_to(np.asarray(bound, dtype=np.float64), err.shape)
    bad = ~(err <= bound)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise SeedFailure(
            "%s: %d of %d elements differ beyond the bound; first at %s: "
            "aotc %.9g, exporter %.9g, |diff| %.3g > %.3g" %
            (what, int(bad.sum()), err.size, first, got[first], want[first],
             err[first], bound[first]))
    ratio = float(np.max(err / np.maximum(bound, 1e-300))) if err.size else 0
    print("%s: %d elements within the bound (max |diff| %.3g, at most %.3g of "
          "the bound)" % (what, err.size, float(err.max()), ratio))


def expect_in(what, pattern, text):
    """`pattern` (a regular expression) occurs in `text`; returns the match."""
    m = re.search(pattern, text, re.MULTILINE)
    if m is None:
        raise SeedFailure("%s: no line matches %r in:\n%s" %
                          (what, pattern, text))
    return m


def main(test):
    """Runs `test()`, prints PASS or the failure, exits 0 or 1."""
    try:
        test()
    except SeedFailure as e:
        print("FAIL: %s" % e)
        sys.exit(1)
    print("PASS")
