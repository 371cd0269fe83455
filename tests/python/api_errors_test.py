"""The errors of the aotc Python package: each says what is wrong, where.

Wrong arity, shape and dtype of a loaded model's arguments; a model aotc
refuses (the CompileError carries aotc's located message); an unknown
compile option; a missing aotc binary or runtime; a folder without a model.
"""

import os
import re
import unittest

import numpy as np

import aotc
import api_util

MODULE = """\
HloModule affine

ENTRY main {
  x = f32[2,3] parameter(0)
  k = s32[] parameter(1)
  kf = f32[] convert(k)
  kb = f32[2,3] broadcast(kf), dimensions={}
  ROOT y = f32[2,3] multiply(x, kb)
}
"""

# Line 6 multiplies arrays of different shapes.
BROKEN = """\
HloModule broken

ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[3,2] parameter(1)
  ROOT z = f32[2,3] multiply(x, y)
}
"""


class ErrorsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = api_util.work_dir("api_errors")
        cls.good = os.path.join(cls.work, "affine.hlo")
        with open(cls.good, "w", encoding="utf-8") as f:
            f.write(MODULE)
        cls.model = aotc.load(aotc.compile(cls.good, cls.work).out_dir)

    def test_call_works(self):
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(self.model(x, np.int32(3)), 3 * x)

    def test_wrong_arity(self):
        x = np.zeros((2, 3), np.float32)
        with self.assertRaisesRegex(
                TypeError, r"^affine takes 2 arguments \(x, k\), got 1$"):
            self.model(x)
        with self.assertRaisesRegex(TypeError, "got 3$"):
            self.model(x, np.int32(1), x)

    def test_wrong_shape(self):
        with self.assertRaisesRegex(
                ValueError, r"^affine: argument 0 \(x\) must have shape "
                r"\(2, 3\), got \(3, 2\)$"):
            self.model(np.zeros((3, 2), np.float32), np.int32(1))

    def test_wrong_dtype_is_refused_not_converted(self):
        with self.assertRaisesRegex(
                TypeError, r"^affine: argument 0 \(x\) must be f32 \(numpy "
                r"float32\), got float64;"):
            self.model(np.zeros((2, 3)), np.int32(1))
        with self.assertRaisesRegex(
                TypeError, r"argument 1 \(k\) must be s32 \(numpy int32\), "
                r"got int64"):
            self.model(np.zeros((2, 3), np.float32), 1)

    def test_bad_thread_count(self):
        x = np.zeros((2, 3), np.float32)
        with self.assertRaisesRegex(ValueError, "threads must be a positive"):
            self.model(x, np.int32(1), threads=0)

    def test_compile_error_carries_aotc_message(self):
        path = os.path.join(self.work, "broken.hlo")
        with open(path, "w", encoding="utf-8") as f:
            f.write(BROKEN)
        with self.assertRaises(aotc.CompileError) as caught:
            aotc.compile(path, os.path.join(self.work, "broken"))
        message = str(caught.exception)
        print("aotc said:", message)
        self.assertRegex(message, "^" + re.escape(path) + r":6:\d+: error: ")
        self.assertIn("multiply(x, y)", message)
        self.assertEqual(caught.exception.returncode, 1)
        self.assertEqual(caught.exception.command[1], "compile")

    def test_unknown_option(self):
        with self.assertRaisesRegex(TypeError, "unknown option 'thread'"):
            aotc.compile(self.good, self.work, thread=2)
        with self.assertRaisesRegex(ValueError, "opt must be"):
            aotc.compile(self.good, self.work, opt=4)

    def test_options_reach_the_command_line(self):
        command = aotc.compiler.compile_command(
            self.good, "out", name="m", opt="s", no_fusion=True,
            strict_fp=False, disable_pass=["a", "b"], cache_kib=(32, 1024),
            composite_kernels={"my.gelu": "gelu", "my.norm": "norm"})
        self.assertEqual(command[1:], [
            "compile", self.good, "-o", "out", "--name=m", "-Os",
            "--no-fusion", "--disable-pass=a,b", "--cache-kib=32,1024",
            "--composite-kernel=my.gelu=gelu", "--composite-kernel=my.norm=norm"])
        compiled = aotc.compile(self.good, os.path.join(self.work, "named"),
                                name="renamed", emit=["obj", "json"])
        self.assertEqual(compiled.name, "renamed")
        self.assertTrue(compiled.object.endswith("renamed.o"))
        self.assertIsNone(compiled.header)

    def test_missing_tools(self):
        with self.assertRaisesRegex(aotc.AotcError,
                                    "aotc binary not found: /nonexistent"):
            aotc.compile(self.good, self.work, aotc="/nonexistent/aotc")
        with self.assertRaisesRegex(aotc.AotcError,
                                    "aotc runtime not found: /nonexistent"):
            aotc.load(self.work, name="affine", runtime="/nonexistent/r.a")

    def test_runtime_from_source(self):
        """runtime= may name the runtime's C source, compiled into the
        library instead of the archive."""
        source = os.path.join(os.environ["AOTC_SOURCE_DIR"], "runtime_lib",
                              "runtime.c")
        model = aotc.load(self.work, name="affine", runtime=source)
        x = np.ones((2, 3), np.float32)
        np.testing.assert_array_equal(model(x, np.int32(-2)), -2 * x)
        self.assertNotEqual(model.library_path, self.model.library_path)

    def test_folder_without_model(self):
        empty = os.path.join(self.work, "empty")
        os.makedirs(empty, exist_ok=True)
        with self.assertRaisesRegex(aotc.LoadError, "no compiled model in"):
            aotc.load(empty)
        with self.assertRaisesRegex(aotc.LoadError, "no other.json in"):
            aotc.load(self.work, name="other")


if __name__ == "__main__":
    unittest.main(verbosity=2)
