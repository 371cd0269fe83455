"""Shared by the tests of the aotc Python package (tests/python/api_*_test.py).

A test's files go under $AOTC_BUILD_DIR/tests/python/<test>/, never into the
source tree; ctest gives the scripts AOTC, AOTC_BUILD_DIR and PYTHONPATH
(cmake/AotcPython.cmake).
"""

import os
import shutil

import numpy as np

# How far aotc's result may be from XLA's. Both compute f32 products and
# convolutions as sums of n <= 600 terms in orders of their own (vector
# accumulators, blocked products, fused multiply-adds): any two orders differ
# by at most 2 n u sum|terms| (u = 2^-24, Higham 2.8), 7e-5 of the terms'
# magnitude for n = 600 in the worst case, and about sqrt(n) u (1.5e-6) in
# practice. tanh, exp and erf differ by a few ulps and pass errors on with a
# gain below 1. Judged against the largest output of the tensor, 1e-4 covers
# that with margin, while a wrong weight order, a transposed kernel or a lost
# bias moves outputs by a good fraction of that scale (see the mutation
# checks in api_models_test.py).
RELATIVE_TOLERANCE = 1e-4


def work_dir(test):
    """A fresh folder for the test's files under the build tree."""
    build = os.environ.get("AOTC_BUILD_DIR")
    if not build:
        raise SystemExit("AOTC_BUILD_DIR is not set: run the test with ctest")
    path = os.path.join(build, "tests", "python", test)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def max_relative_error(got, want):
    """max |got - want| over max |want|, or inf for mismatched shapes."""
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return float("inf")
    scale = max(float(np.max(np.abs(want))), np.finfo(np.float32).tiny)
    return float(np.max(np.abs(got.astype(np.float64) - want)) / scale)
