"""test_threads: two Python threads run one InferenceSession (one model, an osc_session each)
at once, each checking its results; run releases the GIL."""
import ctypes
import threading

import numpy as np
from onnx import helper

import onnx_scatter as ort
from models import T, model, scatter_elements_file


def test_two_threads_one_model():
    sess = ort.InferenceSession(scatter_elements_file())
    idx = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
    errors, barrier = [], threading.Barrier(2)

    def work(k):
        try:
            barrier.wait()
            for n in range(300):
                base = float(k * 1000 + n)
                data = np.full((3, 3), base, np.float32)
                upd = np.full((2, 3), 1.0, np.float32)
                y, = sess.run(None, {"data": data, "indices": idx, "updates": upd})
                # each column of the example gets one update of 1 in two of its rows
                want = np.full((3, 3), base, np.float32)
                for (r, c) in [(1, 0), (0, 1), (2, 2), (0, 0), (2, 1), (1, 2)]:
                    want[r, c] += 1.0
                np.testing.assert_array_equal(y, want)
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(sess._slots) <= 2


def test_run_releases_the_gil():
    """While another thread is inside one long run (a 1024x1024 MatMul), this thread keeps running
    Python code. Were the GIL held through the run, this thread would get at most one switch
    interval or two before the run ends (about 235,000 ticks with
    ctypes.PyDLL, which holds it; over 2,000,000 with CDLL here)."""
    assert isinstance(ort._lib, ctypes.CDLL) and not isinstance(ort._lib, ctypes.PyDLL)
    node = helper.make_node("MatMul", ["x", "x"], ["y"])
    sess = ort.InferenceSession(model([node], [("x", T.FLOAT, [1024, 1024])],
                                      [("y", T.FLOAT, [1024, 1024])]))
    x = np.ones((1024, 1024), np.float32)
    sess.run(None, {"x": x})  # warm
    started, done, ticks = threading.Event(), threading.Event(), [0]

    def runner():
        started.set()
        sess.run(None, {"x": x})
        done.set()

    t = threading.Thread(target=runner)
    t.start()
    started.wait()
    while not done.is_set():
        ticks[0] += 1
    t.join()
    assert ticks[0] > 1000000, ticks
