"""test_session: onnxruntime's session API: inputs, outputs, metadata, options, providers, the
feed's arrays (bound without a copy, non-contiguous ones copied), outputs the caller owns,
defaults, the profile and the model's warnings. Expected values are written by hand."""
import gc
import warnings

import numpy as np
import pytest
from onnx import helper, numpy_helper

import onnx_scatter as ort
from models import T, model, scatter_elements, scatter_elements_file

FEED = {"data": np.ones((3, 3), np.float32),
        "indices": np.array([[1, 0, 2], [0, 2, 1]], np.int64),
        "updates": np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)}
# the example's ScatterElements with reduction add, worked by hand
EXPECTED = np.array([[3.0, 2.1, 1.0], [2.0, 1.0, 3.2], [1.0, 3.1, 2.2]], np.float32)


def test_run_the_example():
    sess = ort.InferenceSession(scatter_elements_file())
    out = sess.run(None, FEED)
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_array_equal(out[0], EXPECTED)


def test_inputs_outputs_and_types():
    sess = ort.InferenceSession(scatter_elements_file())
    assert [(a.name, a.type, a.shape) for a in sess.get_inputs()] == [
        ("data", "tensor(float)", [3, 3]), ("indices", "tensor(int64)", [2, 3]),
        ("updates", "tensor(float)", [2, 3])]
    assert [(a.name, a.type, a.shape) for a in sess.get_outputs()] == [
        ("output", "tensor(float)", [3, 3])]
    assert repr(sess.get_outputs()[0]) == \
        "NodeArg(name='output', type='tensor(float)', shape=[3, 3])"


def test_symbolic_and_unknown_dims():
    node = helper.make_node("Identity", ["x"], ["y"])
    m = model([node], [("x", T.INT32, ["batch", None, 4])], [("y", T.INT32, None)])
    sess = ort.InferenceSession(m)
    assert sess.get_inputs()[0].shape == ["batch", None, 4]
    assert sess.get_outputs()[0].shape == []  # no shape in the model, as onnxruntime says
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    y, = sess.run(None, {"x": x})
    np.testing.assert_array_equal(y, x)


def test_modelmeta():
    node = helper.make_node("Identity", ["x"], ["y"])
    g = helper.make_graph([node], "the-graph", [helper.make_tensor_value_info("x", T.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", T.FLOAT, [1])], doc_string="gdoc")
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], producer_name="prod",
                          producer_version="9.8", domain="org.test", model_version=7,
                          doc_string="mdoc")
    helper.set_model_props(m, {"author": "someone", "license": "MIT"})
    meta = ort.InferenceSession(m.SerializeToString()).get_modelmeta()
    assert (meta.producer_name, meta.graph_name, meta.domain, meta.description,
            meta.graph_description, meta.version) == ("prod", "the-graph", "org.test", "mdoc",
                                                      "gdoc", 7)
    assert meta.custom_metadata_map == {"author": "someone", "license": "MIT"}


def test_providers():
    assert ort.get_available_providers() == ["CPUExecutionProvider"]
    sess = ort.InferenceSession(scatter_elements_file(), providers=["CPUExecutionProvider"])
    assert sess.get_providers() == ["CPUExecutionProvider"]
    with pytest.warns(RuntimeWarning, match="provider 'CUDAExecutionProvider' is not available"):
        ort.InferenceSession(scatter_elements_file(),
                             providers=[("CUDAExecutionProvider", {}), "CPUExecutionProvider"])


def test_output_names_select_and_order():
    nodes = [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Abs", ["x"], ["a"])]
    m = model(nodes, [("x", T.FLOAT, [2])], [("n", T.FLOAT, [2]), ("a", T.FLOAT, [2])])
    sess = ort.InferenceSession(m)
    x = np.array([1.0, -2.0], np.float32)
    a, n = sess.run(["a", "n"], {"x": x})
    assert list(a) == [1.0, 2.0] and list(n) == [-1.0, 2.0]
    only, = sess.run(["n"], {"x": x})
    assert list(only) == [-1.0, 2.0]
    a2, = sess.run(["a"], {"x": -x})  # n had a caller array last run: it is not written again
    assert list(a2) == [1.0, 2.0] and list(only) == [-1.0, 2.0]


def test_outputs_outlive_next_run_and_session():
    sess = ort.InferenceSession(scatter_elements_file())
    first, = sess.run(None, FEED)
    second, = sess.run(None, dict(FEED, data=np.zeros((3, 3), np.float32)))
    np.testing.assert_array_equal(first, EXPECTED)
    np.testing.assert_array_equal(second, np.array([[2.0, 1.1, 0.0], [1.0, 0.0, 2.2],
                                                    [0.0, 2.1, 1.2]], np.float32))
    strings = ort.InferenceSession(scatter_elements(T.STRING, (2,), (1,)))
    s, = strings.run(None, {"data": np.array(["a", "b"]), "indices": np.array([1]),
                            "updates": np.array(["new"])})
    del sess, strings
    gc.collect()
    junk = [np.full((3, 3), 7.0, np.float32) for _ in range(100)]  # reuse of freed memory
    np.testing.assert_array_equal(first, EXPECTED)
    assert list(s) == ["a", "new"] and junk[0][0, 0] == 7.0


def test_contiguous_input_is_bound_without_copy():
    """The tensor the session holds points at the caller's array itself."""
    sess = ort.InferenceSession(scatter_elements_file())
    data = np.ones((3, 3), np.float32)
    sess.run(None, dict(FEED, data=data))
    slot = sess._free[0]
    assert slot.tensors[0].data == data.ctypes.data


@pytest.mark.parametrize("make", [
    lambda: np.ones((3, 6), np.float32)[:, ::2],                      # strided
    lambda: np.asfortranarray(np.ones((3, 3), np.float32)),           # column-major
    lambda: np.frombuffer(b"\0" + np.ones(9, np.float32).tobytes(), np.float32, 9, 1
                          ).reshape(3, 3),                            # misaligned, read-only
], ids=["strided", "fortran", "misaligned"])
def test_non_contiguous_input_is_copied(make):
    data = make()
    assert not (data.flags.c_contiguous and data.flags.aligned)
    sess = ort.InferenceSession(scatter_elements_file())
    y, = sess.run(None, dict(FEED, data=data))
    np.testing.assert_array_equal(y, EXPECTED)
    assert sess._free[0].tensors[0].data != data.ctypes.data


def test_transposed_values_read_in_order():
    """A transposed view is read as numpy shows it, not as memory holds it."""
    node = helper.make_node("Identity", ["x"], ["y"])
    sess = ort.InferenceSession(model([node], [("x", T.INT64, [2, 3])], [("y", T.INT64, [2, 3])]))
    base = np.array([[1, 2], [3, 4], [5, 6]], np.int64)
    y, = sess.run(None, {"x": base.T})
    np.testing.assert_array_equal(y, [[1, 3, 5], [2, 4, 6]])


def test_lists_are_accepted_as_arrays():
    node = helper.make_node("Identity", ["x"], ["y"])
    sess = ort.InferenceSession(model([node], [("x", T.INT64, [3])], [("y", T.INT64, [3])]))
    y, = sess.run(None, {"x": [4, 5, 6]})
    assert y.dtype == np.int64 and list(y) == [4, 5, 6]


def test_default_input_override_and_back():
    """An input backed by an initializer: get_overridable_initializers lists it; fed, it
    overrides the default for that run only."""
    b = numpy_helper.from_array(np.array([10.0, 20.0], np.float32), "b")
    m = model([helper.make_node("Add", ["x", "b"], ["y"])],
              [("x", T.FLOAT, [2]), ("b", T.FLOAT, [2])], [("y", T.FLOAT, [2])],
              initializers=[b])
    sess = ort.InferenceSession(m)
    assert [a.name for a in sess.get_inputs()] == ["x"]
    assert [a.name for a in sess.get_overridable_initializers()] == ["b"]
    x = np.array([1.0, 2.0], np.float32)
    assert list(sess.run(None, {"x": x})[0]) == [11.0, 22.0]
    b = np.array([100.0, 200.0], np.float32)
    assert list(sess.run(None, {"x": x, "b": b})[0]) == [101.0, 202.0]
    assert list(sess.run(None, {"x": x})[0]) == [11.0, 22.0]


def test_session_options():
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(scatter_elements_file(), so)
    assert sess.get_session_options() is so
    np.testing.assert_array_equal(sess.run(None, FEED)[0], EXPECTED)
    with pytest.raises(AttributeError):
        so.intra_op_num_thread = 2  # a typo is an error, as with onnxruntime's object


def test_ignored_options_warn_and_refused_ones_raise():
    so = ort.SessionOptions()
    so.enable_mem_pattern = False
    so.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    so.add_session_config_entry("session.x", "1")
    with pytest.warns(ort.OptionWarning) as record:
        ort.InferenceSession(scatter_elements_file(), so)
    text = " ".join(str(w.message) for w in record)
    assert "enable_mem_pattern = False is ignored" in text and "execution_mode" in text
    assert "'session.x' is ignored" in text
    quiet = ort.SessionOptions()
    quiet.log_severity_level = 3  # asks for less log: nothing is lost, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ort.InferenceSession(scatter_elements_file(), quiet)
    so = ort.SessionOptions()
    so.optimized_model_filepath = "/tmp/x.onnx"
    with pytest.raises(ort.Unsupported, match="does not write optimized models"):
        ort.InferenceSession(scatter_elements_file(), so)
    with pytest.raises(ort.Unsupported):
        so.register_custom_ops_library("libx.so")
    ro = ort.RunOptions()
    ro.run_tag = "tag"
    sess = ort.InferenceSession(scatter_elements_file())
    np.testing.assert_array_equal(sess.run(None, FEED, ro)[0], EXPECTED)
    ro.terminate = True  # set before the run: it fails at once
    with pytest.raises(ort.Cancelled, match="terminate"):
        sess.run(None, FEED, ro)


def test_profile():
    so = ort.SessionOptions()
    so.enable_profiling = True
    sess = ort.InferenceSession(scatter_elements_file(), so)
    with pytest.raises(ort.StateError, match="no run has completed"):
        sess.get_profile()
    sess.run(None, FEED)
    prof = sess.get_profile()
    assert len(prof) == 1
    p = prof[0]
    assert (p["index"], p["op_type"], p["since_version"], p["folded"]) == \
        (0, "ScatterElements", 18, False)
    assert isinstance(p["ns"], int) and p["ns"] > 0
    with pytest.raises(ort.StateError, match="enable_profiling"):
        ort.InferenceSession(scatter_elements_file()).get_profile()


def test_model_warnings():
    node = helper.make_node("Scatter", ["data", "indices", "updates"], ["y"])
    m = model([node], [("data", T.FLOAT, [3]), ("indices", T.INT64, [1]),
                       ("updates", T.FLOAT, [1])], [("y", T.FLOAT, [3])], opset=11)
    with pytest.warns(ort.ModelWarning, match="deprecated"):
        sess = ort.InferenceSession(m)
    assert len(sess.get_warnings()) == 1 and "Scatter" in sess.get_warnings()[0]
    y, = sess.run(None, {"data": np.zeros(3, np.float32), "indices": np.array([2]),
                         "updates": np.array([5.0], np.float32)})
    assert list(y) == [0.0, 0.0, 5.0]
    so = ort.SessionOptions()
    so.strict = True
    with pytest.raises(ort.Error, match="deprecated"):
        ort.InferenceSession(m, so)


def test_load_from_path_bytes_and_modelproto(tmp_path):
    import onnx
    raw = open(scatter_elements_file(), "rb").read()
    for src in (scatter_elements_file(), raw, onnx.load_from_string(raw)):
        np.testing.assert_array_equal(ort.InferenceSession(src).run(None, FEED)[0], EXPECTED)


def test_input_without_declared_type_takes_the_arrays():
    g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
                          [helper.make_empty_tensor_value_info("x")],
                          [helper.make_empty_tensor_value_info("y")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    sess = ort.InferenceSession(m.SerializeToString())
    assert sess.get_inputs()[0].type == "tensor(undefined)"
    for x in (np.array([[1, 2]], np.int16), np.array([0.5], np.float64), np.array(["a", "bc"])):
        y, = sess.run(None, {"x": x})
        assert y.shape == x.shape and list(y.reshape(-1)) == list(x.reshape(-1))
    x = np.array([7, 8], np.uint32)
    sess.run(None, {"x": x})
    assert sess._free[0].tensors[0].data == x.ctypes.data  # bound as given, no copy


class RepeatingFeed:
    """A mapping whose items() names one input twice and another never (len and `in` agree
    with a dict of those items): a feed counted per item, not per name, looked complete."""

    def __init__(self, pairs):
        self.pairs = pairs

    def items(self):
        return list(self.pairs)

    def __iter__(self):
        return iter(name for name, _ in self.pairs)

    def __len__(self):
        return len(self.pairs)

    def __contains__(self, name):
        return any(name == n for n, _ in self.pairs)


def test_each_run_binds_its_inputs_afresh():
    """An input the feed leaves out is not read from an earlier run's array (that array may be
    freed): the run fails naming it, even when another name is given twice."""
    m = model([helper.make_node("Add", ["a", "b"], ["y"])],
              [("a", T.FLOAT, [2]), ("b", T.FLOAT, [2])], [("y", T.FLOAT, [2])])
    sess = ort.InferenceSession(m)
    a = np.array([1.0, 2.0], np.float32)
    y, = sess.run(None, {"a": a, "b": np.array([10.0, 20.0], np.float32)})  # b: a temporary
    assert list(y) == [11.0, 22.0]
    gc.collect()
    with pytest.raises(ort.InvalidArgument, match=r"required inputs \['b'\] are missing"):
        sess.run(None, RepeatingFeed([("a", a), ("a", a)]))
    with pytest.raises(ort.InvalidArgument, match=r"required inputs \['b'\] are missing"):
        sess.run(None, {"a": a})
    # the session is usable again, and a name given twice binds its last array
    y, = sess.run(None, RepeatingFeed([("a", a), ("b", a), ("a", a + 1)]))
    assert list(y) == [3.0, 5.0]
