"""test_inplace: SessionOptions.inplace_inputs and run(donate=...): a donated input's buffer is
written by the scatter and comes back as the output (the same array object, so no copy was
made); an input that is not donated is copied first and stays untouched."""
import numpy as np
import pytest

import onnx_scatter as ort
from models import scatter_elements_file

IDX = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
UPD = np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)
EXPECTED = np.array([[3.0, 2.1, 1.0], [2.0, 1.0, 3.2], [1.0, 3.1, 2.2]], np.float32)


def session(inplace=True):
    so = ort.SessionOptions()
    so.inplace_inputs = inplace
    return ort.InferenceSession(scatter_elements_file(), so)


def test_donated_buffer_is_the_output():
    sess = session()
    assert sess.get_inplace_inputs() == ["data"]
    data = np.ones((3, 3), np.float32)
    y, = sess.run(None, {"data": data, "indices": IDX, "updates": UPD}, donate=["data"])
    assert y is data  # the library wrote into the caller's buffer: zero copy
    np.testing.assert_array_equal(data, EXPECTED)


def test_not_donated_input_is_left_alone():
    sess = session()
    data = np.ones((3, 3), np.float32)
    y, = sess.run(None, {"data": data, "indices": IDX, "updates": UPD})
    assert y is not data and not np.shares_memory(y, data)
    np.testing.assert_array_equal(y, EXPECTED)
    np.testing.assert_array_equal(data, np.ones((3, 3), np.float32))


def test_donation_is_checked():
    feed = {"data": np.ones((3, 3), np.float32), "indices": IDX, "updates": UPD}
    with pytest.raises(ort.InvalidArgument, match="'data' cannot be donated.*inplace_inputs"):
        session(False).run(None, feed, donate=["data"])
    with pytest.raises(ort.InvalidArgument, match="'updates' cannot be donated"):
        session().run(None, feed, donate=["updates"])
    ro = np.ones((3, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ort.InvalidArgument, match="donated input 'data' must be a writable"):
        session().run(None, dict(feed, data=ro), donate=["data"])
    with pytest.raises(ort.InvalidArgument, match="donated input 'data' must be"):
        session().run(None, dict(feed, data=np.ones((3, 6), np.float32)[:, ::2]), donate="data")


def product_session(inplace):
    """y = (x W) + b, x [N, 4], W [4, 4]: with inplace_inputs=2 both nodes run in x's buffer."""
    import onnx.numpy_helper as nh
    from onnx import helper, TensorProto
    from models import model
    w = (np.arange(16, dtype=np.float32).reshape(4, 4) % 5) - 2
    b = np.array([1, -1, 2, -2], np.float32)
    nodes = [helper.make_node("MatMul", ["x", "W"], ["h"]), helper.make_node("Add", ["h", "b"], ["y"])]
    m = model(nodes, [("x", TensorProto.FLOAT, ["N", 4])], [("y", TensorProto.FLOAT, ["N", 4])],
              opset=17, initializers=[nh.from_array(w, "W"), nh.from_array(b, "b")])
    so = ort.SessionOptions()
    so.inplace_inputs = inplace
    return ort.InferenceSession(m, so), w, b


def test_product_over_donated_input():
    """inplace_inputs=2: the product and the sum after it are written into the donated x and
    come back as that array; True (1) keeps in-place writes to scatters, so x may not be
    donated there and is never written."""
    sess, w, b = product_session(2)
    assert sess.get_inplace_inputs() == ["x"]
    x = (np.arange(24, dtype=np.float32).reshape(6, 4) % 7) - 3
    want = x @ w + b  # small integers: exact in any order
    y, = sess.run(None, {"x": x.copy()})
    assert not np.shares_memory(y, x)
    np.testing.assert_array_equal(y, want)
    donated = x.copy()
    y, = sess.run(None, {"x": donated}, donate=["x"])
    assert y is donated
    np.testing.assert_array_equal(y, want)
    sess, _, _ = product_session(True)
    assert sess.get_inplace_inputs() == []
    kept = x.copy()
    with pytest.raises(ort.InvalidArgument, match="'x' cannot be donated"):
        sess.run(None, {"x": kept}, donate=["x"])
    y, = sess.run(None, {"x": kept})
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(kept, x)
    with pytest.raises(ort.InvalidArgument, match="inplace_inputs is 3"):
        product_session(3)
