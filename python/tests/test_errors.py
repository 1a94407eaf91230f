"""test_errors: each exception class, raised by the failure it stands for, carrying the
runtime's full message; a bad feed is refused before the run; hostile input never crashes."""
import numpy as np
import pytest
from onnx import helper

import onnx_scatter as ort
from models import T, model, scatter_elements, scatter_elements_file

FEED = {"data": np.ones((3, 3), np.float32),
        "indices": np.array([[1, 0, 2], [0, 2, 1]], np.int64),
        "updates": np.ones((2, 3), np.float32)}


def test_index_out_of_range_names_node_position_value_range():
    sess = ort.InferenceSession(scatter_elements(T.FLOAT, node_name="sc"))
    bad = FEED["indices"].copy()
    bad[1, 2] = 5
    with pytest.raises(ort.IndexOutOfRange) as e:
        sess.run(None, dict(FEED, indices=bad))
    msg = e.value.message
    assert "'sc'" in msg and "indices" in msg and "5" in msg and "[-3, 2]" in msg, msg
    assert isinstance(e.value, IndexError) and e.value.status == 8
    np.testing.assert_array_equal(sess.run(None, FEED)[0].shape, (3, 3))  # still usable


def test_bad_feed_is_refused_before_the_run():
    sess = ort.InferenceSession(scatter_elements_file())
    with pytest.raises(ort.InvalidArgument, match="no input named 'dat'"):
        sess.run(None, dict(FEED, dat=FEED["data"]))
    with pytest.raises(ort.InvalidArgument, match=r"required inputs \['updates'\] are missing"):
        sess.run(None, {k: v for k, v in FEED.items() if k != "updates"})
    with pytest.raises(ort.ShapeError,
                       match="input 'data': expected shape \\[3,3\\], given \\[9\\]"):
        sess.run(None, dict(FEED, data=np.ones(9, np.float32)))
    with pytest.raises(ort.ShapeError, match="expected tensor\\(int64\\)"):
        sess.run(None, dict(FEED, indices=FEED["indices"].astype(np.int32)))
    with pytest.raises(ort.InvalidArgument, match="no output named 'nope'"):
        sess.run(["nope"], FEED)
    with pytest.raises(ort.InvalidArgument, match="input_feed must be a dict"):
        sess.run(None, [FEED["data"]])


def test_load_errors():
    with pytest.raises(ort.FileError, match="no-such.onnx"):
        ort.InferenceSession("/no-such.onnx")
    with pytest.raises(ort.InvalidProtobuf):
        ort.InferenceSession(b"\xff\xff\xff\xff not protobuf")
    broken = model([helper.make_node("Neg", ["ghost"], ["y"])], [("x", T.FLOAT, [1])],
                   [("y", T.FLOAT, [1])])
    with pytest.raises(ort.InvalidModel, match="ghost"):
        ort.InferenceSession(broken)
    conv = model([helper.make_node("ConvInteger", ["x", "w"], ["y"])],
                 [("x", T.FLOAT, [1, 1, 3, 3]), ("w", T.FLOAT, [1, 1, 1, 1])],
                 [("y", T.FLOAT, [1, 1, 3, 3])])
    with pytest.raises(ort.Unsupported, match="unsupported op ConvInteger"):
        ort.InferenceSession(conv)
    so = ort.SessionOptions()
    so.max_nodes = 1
    two = model([helper.make_node("Neg", ["x"], ["t"]), helper.make_node("Neg", ["t"], ["y"])],
                [("x", T.FLOAT, [1])], [("y", T.FLOAT, [1])])
    with pytest.raises(ort.LimitExceeded, match="graph has 2 nodes; the limit is 1"):
        ort.InferenceSession(two, so)
    with pytest.raises(ort.InvalidArgument, match="model path or the model's bytes"):
        ort.InferenceSession(12)
    so = ort.SessionOptions()
    so.max_rank = 300
    with pytest.raises(ort.InvalidArgument, match="'max_rank' is 300"):
        ort.InferenceSession(two, so)


def test_state_error_and_every_status_has_its_class():
    with pytest.raises(ort.StateError):
        ort.InferenceSession(scatter_elements_file()).get_profile()
    from onnx_scatter._errors import error
    classes = [ort.InvalidArgument, ort.OutOfMemory, ort.FileError, ort.InvalidProtobuf,
               ort.InvalidModel, ort.Unsupported, ort.ShapeError, ort.IndexOutOfRange,
               ort.LimitExceeded, ort.StateError]
    for status, cls in enumerate(classes, start=1):
        e = error(status, "the message")
        assert type(e) is cls and isinstance(e, ort.Error) and e.status == status
        assert e.message == "the message" and str(e) == "the message"
    e = error(99, "m")
    assert type(e) is ort.Error and e.status == 99


@pytest.mark.parametrize("value", [
    None, "text", 3.5, object(), np.array([[1, 2], [3]], dtype=object), np.ones((3, 3, 1, 1)),
    np.empty((0, 3), np.float32), np.ones((3, 3), np.float32)[::-1], np.array(np.nan),
], ids=["none", "str", "float", "object", "ragged", "rank4", "empty", "reversed", "scalar"])
def test_hostile_feed_raises_never_crashes(value):
    sess = ort.InferenceSession(scatter_elements_file())
    try:
        out = sess.run(None, dict(FEED, data=value))
    except (ort.Error, ValueError) as e:
        assert str(e)
    else:  # only a valid [3, 3] float32 array runs
        assert out[0].shape == (3, 3)
    np.testing.assert_array_equal(sess.run(None, FEED)[0].shape, (3, 3))


def test_hostile_model_bytes_never_crash():
    raw = open(scatter_elements_file(), "rb").read()
    rng = np.random.default_rng(1)
    for k in range(200):
        b = bytearray(raw)
        for pos in rng.integers(0, len(b), 1 + k % 8):
            b[pos] = int(rng.integers(0, 256))
        try:
            ort.InferenceSession(bytes(b)).run(None, FEED)
        except ort.Error as e:
            assert e.message
