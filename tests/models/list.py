"""Checks that tests/models/CMakeLists.txt tests every model of the zoo.

  list.py MODEL...   (the CMake list, AOTC_ZOO_MODELS)
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import zoo  # pylint: disable=g-import-not-at-top

tested, defined = sys.argv[1:], [m.name for m in zoo.MODELS]
if tested != defined:
  sys.exit(f"tests/models/CMakeLists.txt tests {tested}, zoo.py defines "
           f"{defined}")
print(f"{len(defined)} zoo models, each tested in every form")
