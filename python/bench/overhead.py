"""overhead.py: the per-call cost of InferenceSession.run on the 3x3 ScatterElements of
examples/scatter_elements, minus the C run itself.

usage: PYTHONPATH=BUILD/python python3 python/bench/overhead.py [MODEL] [--calls N] [--rounds R]
Prints, per call (best round of R, each round N calls): sess.run from Python; the bare
osc_session_run on a session already bound (one ctypes call: the kernel, planning checks and
the smallest foreign-call cost); and their difference, the package's overhead.
"""
import argparse
import os
import time

import numpy as np

import onnx_scatter as ort
from onnx_scatter._lib import lib


def best(fn, calls, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls)
    return min(times)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("model", nargs="?",
                    default=os.path.join(here, "..", "..", "examples", "scatter_elements",
                                         "model.onnx"))
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    sess = ort.InferenceSession(a.model)
    feed = {"data": np.ones((3, 3), np.float32),
            "indices": np.array([[1, 0, 2], [0, 2, 1]], np.int64),
            "updates": np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)}
    run = sess.run
    sess.run(None, feed)  # warm: plan, arena
    total = best(lambda: run(None, feed), a.calls, a.rounds)
    # the same session's C state, already bound and planned: one foreign call per run
    slot = sess._free[0]
    c_run, h = lib.osc_session_run, slot.h
    bare = best(lambda: c_run(h), a.calls, a.rounds)
    assert c_run(h) == 0, lib.osc_session_error(h)
    print(f"run() from Python:      {total * 1e6:6.2f} us per call")
    print(f"osc_session_run alone:  {bare * 1e6:6.2f} us per call (ctypes call included)")
    print(f"overhead of the package:{(total - bare) * 1e6:6.2f} us per call")


if __name__ == "__main__":
    main()
