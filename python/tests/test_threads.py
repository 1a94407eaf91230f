"""test_threads: two Python threads run one InferenceSession (one model, an osc_session each)
at once, each checking its results; run releases the GIL; an osc_session that one thread's run
holds refuses another thread, and the session's pool gives that thread's run another one."""
import ctypes
import threading
import time

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


def ticks_until(event):
    n = 0
    while not event.is_set():
        n += 1
    return n


def test_run_releases_the_gil():
    """While another thread is inside one long run (a chain of 512x512 MatMuls, at least 0.4 s),
    this thread keeps counting at a good part of its rate alone. Were the GIL held through the
    run, it would count only in the switch intervals (5 ms) before and after the C call: with
    ctypes.PyDLL, which holds it, under a tenth of its rate alone here."""
    assert isinstance(ort._lib, ctypes.CDLL) and not isinstance(ort._lib, ctypes.PyDLL)

    def chain(k):
        names = ["x"] + [f"y{i}" for i in range(1, k)] + ["y"]
        nodes = [helper.make_node("MatMul", [names[i], "w"], [names[i + 1]]) for i in range(k)]
        return ort.InferenceSession(model(nodes, [("x", T.FLOAT, [512, 512]),
                                                  ("w", T.FLOAT, [512, 512])],
                                          [("y", T.FLOAT, [512, 512])]))
    feed = {"x": np.zeros((512, 512), np.float32), "w": np.zeros((512, 512), np.float32)}
    one = chain(1)
    one.run(None, feed)  # warm
    t0 = time.perf_counter()
    one.run(None, feed)
    sess = chain(max(1, int(0.4 / (time.perf_counter() - t0)) + 1))
    sess.run(None, feed)  # warm
    alone = threading.Event()
    timer = threading.Timer(0.1, alone.set)
    timer.start()
    rate = ticks_until(alone) / 0.1  # ticks per second with this thread alone
    timer.join()
    started, done, run_time = threading.Event(), threading.Event(), []

    def runner():
        started.set()
        t0 = time.perf_counter()
        sess.run(None, feed)
        run_time.append(time.perf_counter() - t0)
        done.set()

    t = threading.Thread(target=runner)
    t.start()
    started.wait()
    ticks = ticks_until(done)
    t.join()
    assert ticks > 0.3 * rate * run_time[0], (ticks, rate, run_time)


HOOK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int32,
                        ctypes.c_void_p, ctypes.c_int32)


def test_held_session_refuses_and_the_pool_gives_another():
    """While thread A's run holds the one osc_session (waiting in its node hook), a call on that
    osc_session from this thread gets OSC_ERR_STATE (the C library's flag, no race), and
    InferenceSession.run from this thread takes a second osc_session from the pool."""
    sess = ort.InferenceSession(scatter_elements_file())
    raw = ctypes.CDLL(ort._lib._name)  # the same library; prototypes of this test's own
    raw.osc_session_set_node_hook.argtypes = [ctypes.c_void_p, HOOK, ctypes.c_void_p]
    raw.osc_session_run.argtypes = [ctypes.c_void_p]
    raw.osc_session_run.restype = ctypes.c_int32
    raw.osc_session_error.argtypes = [ctypes.c_void_p]
    raw.osc_session_error.restype = ctypes.c_char_p
    in_run, go = threading.Event(), threading.Event()

    def hold(ud, node, ins, n_ins, outs, n_outs):
        in_run.set()
        go.wait(30)

    hook = HOOK(hold)
    assert len(sess._slots) == 1
    held = sess._slots[0].h
    assert raw.osc_session_set_node_hook(held, hook, None) == 0
    idx = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
    feed = {"data": np.zeros((3, 3), np.float32), "indices": idx,
            "updates": np.ones((2, 3), np.float32)}
    want = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1]], np.float32)
    result = []
    a = threading.Thread(target=lambda: result.append(sess.run(None, feed)[0]))
    a.start()
    try:
        assert in_run.wait(30)
        assert raw.osc_session_run(held) == ort.StateError.status
        assert b"osc_session_run: the session is in use" in raw.osc_session_error(held)
        y, = sess.run(None, feed)
        np.testing.assert_array_equal(y, want)
        assert len(sess._slots) == 2
    finally:
        go.set()
        a.join()
    np.testing.assert_array_equal(result[0], want)
    assert raw.osc_session_set_node_hook(held, HOOK(), None) == 0
