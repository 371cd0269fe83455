"""`pip install ./python` works: the package installs and runs from a venv.

A throwaway virtual environment is made in the build folder on top of the
test environment (a .pth file puts the test venv's site-packages, with numpy
and setuptools, on its path, since --system-site-packages would give
Debian's instead). pip installs a copy of python/ (pip builds in the source
folder, which must stay clean) without the index or build isolation, so the
test needs no network. The installed package, threads.c included, must then
compile, load and run a model with the source tree off the path.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import unittest

import api_util

SMOKE = """\
import os, sys
import numpy as np
import aotc
assert os.path.realpath(aotc.__file__).startswith(sys.prefix), aotc.__file__
hlo = sys.argv[1]
os.makedirs(os.path.dirname(hlo), exist_ok=True)
with open(hlo, "w") as f:
    f.write("HloModule twice\\nENTRY main {\\n  x = f32[3] parameter(0)\\n"
            "  ROOT y = f32[3] add(x, x)\\n}\\n")
model = aotc.load(aotc.compile(hlo, os.path.dirname(hlo)).out_dir)
print("installed at", os.path.dirname(aotc.__file__), "->",
      model(np.array([1, 2, 3], np.float32)))
"""


class InstallTest(unittest.TestCase):

    def test_pip_install(self):
        work = api_util.work_dir("api_install")
        source = os.path.join(os.environ["AOTC_SOURCE_DIR"], "python")
        copy = os.path.join(work, "python")
        shutil.copytree(source, copy,
                        ignore=shutil.ignore_patterns("__pycache__", "build",
                                                      "*.egg-info"))
        venv = os.path.join(work, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        site = subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()"
             "['purelib'])"], check=True, capture_output=True,
            text=True).stdout.strip()
        with open(os.path.join(site, "aotc-test-venv.pth"), "w",
                  encoding="utf-8") as f:
            f.write(sysconfig.get_paths()["purelib"] + "\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run(
            [python, "-m", "pip", "install", "--no-index",
             "--no-build-isolation", "--disable-pip-version-check", copy],
            env=env, capture_output=True, text=True, check=False)
        print(done.stdout[-2000:], done.stderr[-2000:])
        self.assertEqual(done.returncode, 0)
        files = subprocess.run(
            [python, "-m", "pip", "show", "--files", "aotc"], env=env,
            capture_output=True, text=True, check=True).stdout
        self.assertIn("aotc/threads.c", files)
        smoke = os.path.join(work, "smoke.py")
        with open(smoke, "w", encoding="utf-8") as f:
            f.write(SMOKE)
        run = subprocess.run(
            [python, smoke, os.path.join(work, "twice", "twice.hlo")],
            env=env, cwd=work, capture_output=True, text=True, check=False)
        print(run.stdout, run.stderr)
        self.assertEqual(run.returncode, 0)
        self.assertIn("-> [2. 4. 6.]", run.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
