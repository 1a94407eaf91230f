"""check_installed.py: the package `cmake --install` put under PREFIX imports from there, loads
the library installed next to it and runs the bundled example (tools/run-tests.sh python).

usage: PYTHONPATH=SITE python3 python/tests/check_installed.py PREFIX MODEL"""
import os
import sys

import numpy as np

import onnx_scatter as ort

prefix, model = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(ort.__file__))
assert here.startswith(os.path.abspath(prefix)), here
assert os.path.isfile(os.path.join(here, "libonnxscatter.so")), here
feed = {"data": np.ones((3, 3), np.float32), "indices": np.zeros((2, 3), np.int64),
        "updates": np.ones((2, 3), np.float32)}
y, = ort.InferenceSession(model).run(None, feed)
assert y.tolist() == [[3, 3, 3], [1, 1, 1], [1, 1, 1]], y  # row 0 gets both updates added
print(f"installed package: {here}")
