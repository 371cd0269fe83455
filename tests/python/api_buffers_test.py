"""aotc.load's buffer handling on a hand-written module, values by hand.

The module has a column-major argument and result ({0,1}), an argument
donated to a result (input_output_alias), a bf16 argument (ml_dtypes), a pred
scalar and a pred result: each must reach the compiled code in its physical
layout and come back as the logical array, and the caller's donated array
must stay as it was.
"""

import os
import unittest

import ml_dtypes
import numpy as np

import aotc
import api_util

MODULE = """\
HloModule buffers, input_output_alias={ {1}: (1, {}, may-alias) }

ENTRY main {
  a = f32[2,3]{0,1} parameter(0)
  c = f32[4]{0} parameter(1)
  b = bf16[3]{0} parameter(2)
  flag = pred[] parameter(3)
  n = f32[2,3]{0,1} negate(a)
  d = f32[4]{0} add(c, c)
  e = f32[3]{0} convert(b)
  ne = f32[3]{0} negate(e)
  fb = pred[3]{0} broadcast(flag), dimensions={}
  s = f32[3]{0} select(fb, e, ne)
  zero = f32[] constant(0)
  zb = f32[2,3]{0,1} broadcast(zero), dimensions={}
  g = pred[2,3]{0,1} compare(a, zb), direction=GT
  ROOT t = (f32[2,3]{0,1}, f32[4]{0}, f32[3]{0}, pred[2,3]{0,1}) tuple(n, d, s, g)
}
"""


class BuffersTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        work = api_util.work_dir("api_buffers")
        path = os.path.join(work, "buffers.hlo")
        with open(path, "w", encoding="utf-8") as f:
            f.write(MODULE)
        cls.model = aotc.load(aotc.compile(path, work).out_dir)

    def test_signature(self):
        self.assertEqual(self.model.name, "buffers")
        self.assertEqual([a.shape for a in self.model.args],
                         [(2, 3), (4,), (3,), ()])
        self.assertEqual(self.model.args[0].minor_to_major, (0, 1))
        self.assertEqual(self.model.args[1].aliased, 1)
        self.assertEqual(self.model.results[1].aliased, 1)

    def test_values(self):
        a = np.array([[1, -2, 3], [-4, 5, -6]], np.float32)
        c = np.array([0.5, 1, 2, -3], np.float32)
        b = np.array([1.5, -2, 256], ml_dtypes.bfloat16)
        for flag in (True, False):
            with self.subTest(flag=flag):
                n, d, s, g = self.model(a, c, b, np.bool_(flag))
                np.testing.assert_array_equal(n, [[-1, 2, -3], [4, -5, 6]])
                np.testing.assert_array_equal(d, [1, 2, 4, -6])
                sign = 1 if flag else -1
                np.testing.assert_array_equal(s, [sign * 1.5, sign * -2,
                                                  sign * 256])
                self.assertEqual(g.dtype, np.bool_)
                np.testing.assert_array_equal(
                    g, [[True, False, True], [False, True, False]])
        # The donated argument is the caller's: it must not change.
        np.testing.assert_array_equal(c, [0.5, 1, 2, -3])

    def test_strided_argument(self):
        """A strided view is passed by its values, not its memory."""
        a = np.arange(24, dtype=np.float32).reshape(4, 6)[::2, ::2]
        c = np.zeros(4, np.float32)
        b = np.zeros(3, ml_dtypes.bfloat16)
        n = self.model(a, c, b, np.bool_(True))[0]
        np.testing.assert_array_equal(n, [[0, -2, -4], [-12, -14, -16]])
        self.assertTrue(n.flags.c_contiguous)


if __name__ == "__main__":
    unittest.main(verbosity=2)
