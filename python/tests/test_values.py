"""test_values: sequences (Python lists of arrays) and optionals (None or the element) in and
out of InferenceSession. Expected values are written by hand."""
import numpy as np
import pytest
from onnx import TensorProto as T, helper

import onnx_scatter as ort


def _model(nodes, inputs, outputs, opset=18):
    g = helper.make_graph(nodes, "g", inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m.SerializeToString()


def _seq(name, elem):
    return helper.make_tensor_sequence_value_info(name, elem, None)


def _opt(name, elem):
    return helper.make_value_info(name, helper.make_optional_type_proto(
        helper.make_tensor_type_proto(elem, None)))


def test_sequence_in_and_out():
    # SequenceInsert(seq, x, position 1), then its length and item 1
    nodes = [helper.make_node("SequenceInsert", ["s", "x", "p"], ["s2"]),
             helper.make_node("SequenceLength", ["s2"], ["n"]),
             helper.make_node("SequenceAt", ["s2", "p"], ["y"])]
    sess = ort.InferenceSession(_model(
        nodes, [_seq("s", T.FLOAT), helper.make_tensor_value_info("x", T.FLOAT, None),
                helper.make_tensor_value_info("p", T.INT64, [])],
        [_seq("s2", T.FLOAT), helper.make_tensor_value_info("n", T.INT64, []),
         helper.make_tensor_value_info("y", T.FLOAT, None)]))
    assert sess.get_inputs()[0].type == "seq"
    a, b = np.arange(3, dtype=np.float32), np.ones((2, 2), np.float32)
    x = np.array([7.0], np.float32)
    s2, n, y = sess.run(None, {"s": [a, b], "x": x, "p": np.array(1, np.int64)})
    assert isinstance(s2, list) and len(s2) == 3
    np.testing.assert_array_equal(s2[0], [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(s2[1], [7.0])
    np.testing.assert_array_equal(s2[2], [[1.0, 1.0], [1.0, 1.0]])
    assert n == 3
    np.testing.assert_array_equal(y, [7.0])
    # an empty list is an empty sequence; position 0 is then the only one allowed
    s2, n, y = sess.run(None, {"s": [], "x": x, "p": np.array(0, np.int64)})
    assert len(s2) == 1 and n == 1
    with pytest.raises(ort.IndexOutOfRange, match=r"position.*is 5.*\[-2, 2\]"):
        sess.run(None, {"s": [a, b], "x": x, "p": np.array(5, np.int64)})


def test_sequence_of_mixed_dtypes_refused():
    sess = ort.InferenceSession(_model(
        [helper.make_node("SequenceLength", ["s"], ["n"])], [_seq("s", T.FLOAT)],
        [helper.make_tensor_value_info("n", T.INT64, [])]))
    with pytest.raises(ort.InvalidArgument, match="item 1 has dtype int64"):
        sess.run(None, {"s": [np.zeros(2, np.float32), np.zeros(2, np.int64)]})
    with pytest.raises(ort.ShapeError, match="list"):
        sess.run(None, {"s": np.zeros(2, np.float32)})


def test_optional_none_and_element():
    nodes = [helper.make_node("OptionalHasElement", ["o"], ["has"]),
             helper.make_node("Identity", ["o"], ["o2"])]
    sess = ort.InferenceSession(_model(
        nodes, [_opt("o", T.FLOAT)],
        [helper.make_tensor_value_info("has", T.BOOL, []), _opt("o2", T.FLOAT)]))
    has, o2 = sess.run(None, {"o": None})
    assert not has and o2 is None
    has, o2 = sess.run(None, {"o": np.array([1.5, 2.5], np.float32)})
    assert has
    np.testing.assert_array_equal(o2, [1.5, 2.5])


def _counting_loop():
    """y = Loop(M, "", x) whose body adds 1 to x M times."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c_out"]),
         helper.make_node("Add", ["v", "one"], ["v_out"])], "body",
        [helper.make_tensor_value_info("i", T.INT64, []),
         helper.make_tensor_value_info("c", T.BOOL, []),
         helper.make_tensor_value_info("v", T.FLOAT, [1])],
        [helper.make_tensor_value_info("c_out", T.BOOL, []),
         helper.make_tensor_value_info("v_out", T.FLOAT, [1])],
        [helper.make_tensor("one", T.FLOAT, [1], [1.0])])
    loop = helper.make_node("Loop", ["M", "", "x"], ["y"], body=body)
    return _model([loop], [helper.make_tensor_value_info("M", T.INT64, []),
                           helper.make_tensor_value_info("x", T.FLOAT, [1])],
                  [helper.make_tensor_value_info("y", T.FLOAT, [1])])


def test_terminate_from_another_thread():
    import threading
    import time
    sess = ort.InferenceSession(_counting_loop())
    feed = {"M": np.array(3, np.int64), "x": np.zeros(1, np.float32)}
    np.testing.assert_array_equal(sess.run(None, feed)[0], [3.0])
    ro = ort.RunOptions()
    timer = threading.Timer(0.2, lambda: setattr(ro, "terminate", True))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(ort.Cancelled):
        sess.run(None, {"M": np.array(10**7, np.int64), "x": np.zeros(1, np.float32)}, ro)
    assert time.monotonic() - t0 < 5  # 10^7 iterations take far longer
    timer.join()
    # the session runs again, with other options or none
    np.testing.assert_array_equal(sess.run(None, feed)[0], [3.0])
    np.testing.assert_array_equal(sess.run(None, feed, ort.RunOptions())[0], [3.0])
