"""test_ort_compat: onnxruntime user code run unchanged with only the import swapped, and one
test per onnxruntime call or behaviour the package matches (docs/python.md, "The onnxruntime
subset")."""
import json
import os
import warnings

import numpy as np
import pytest
from onnx import helper, numpy_helper

import onnx_scatter as ort
from models import T, model, scatter_elements_file

# A page of plain onnxruntime user code; the test swaps its import line and nothing else.
USER_CODE = '''
import json
import numpy as np
import onnxruntime as ort

ort.set_default_logger_severity(3)
assert "CPUExecutionProvider" in ort.get_available_providers() and ort.get_build_info()

so = ort.SessionOptions()
so.intra_op_num_threads = 1
so.inter_op_num_threads = 1
so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
so.enable_profiling = True
so.add_free_dimension_override_by_name("batch", 2)
providers = [("CPUExecutionProvider", {"arena_extend_strategy": "kSameAsRequested"})]
sess = ort.InferenceSession(MODEL_PATH, sess_options=so, providers=providers)
assert sess.get_provider_options()["CPUExecutionProvider"] == {
    "arena_extend_strategy": "kSameAsRequested"}
assert sess.get_profiling_start_time_ns() > 0
sess.disable_fallback()

input_name = sess.get_inputs()[0].name
output_name = sess.get_outputs()[0].name
assert sess.get_inputs()[0].type == "tensor(float)"

# plain Python lists are converted to the input's type
result = sess.run([output_name], {input_name: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]})[0]
assert result.dtype == np.float32 and result.tolist() == [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]

# a numpy array of another dtype is an error onnxruntime's except clauses catch
try:
    sess.run(None, {input_name: np.zeros((2, 3), dtype=np.float64)})
    raise AssertionError("float64 was accepted")
except ort.capi.onnxruntime_pybind11_state.InvalidArgument as e:
    assert "float" in str(e)
try:
    ort.InferenceSession("no/such/model.onnx")
    raise AssertionError("a missing file was accepted")
except ort.capi.onnxruntime_pybind11_state.NoSuchFile:
    pass
try:
    sess.run(["nope"], {input_name: np.ones((2, 3), np.float32)})
except (ort.capi.onnxruntime_pybind11_state.InvalidArgument,
        ort.capi.onnxruntime_pybind11_state.Fail):
    pass

# IO binding: inputs and a preallocated output, written in place run after run
x = np.arange(6, dtype=np.float32).reshape(2, 3)
y = np.empty((2, 3), dtype=np.float32)
io_binding = sess.io_binding()
io_binding.bind_cpu_input(input_name, x)
io_binding.bind_output(output_name, "cpu", 0, np.float32, list(y.shape), y.ctypes.data)
sess.run_with_iobinding(io_binding)
assert y.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
x += 1
sess.run_with_iobinding(io_binding)
assert y.tolist() == [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]
assert io_binding.copy_outputs_to_cpu()[0].tolist() == y.tolist()

# OrtValue, and an output the session allocates
x_ortvalue = ort.OrtValue.ortvalue_from_numpy(x)
assert x_ortvalue.shape() == [2, 3] and x_ortvalue.data_type() == "tensor(float)"
assert x_ortvalue.device_name() == "cpu" and x_ortvalue.is_tensor()
io_binding = sess.io_binding()
io_binding.bind_ortvalue_input(input_name, x_ortvalue)
io_binding.bind_output(output_name)
sess.run_with_iobinding(io_binding)
out = io_binding.get_outputs()[0]
assert out.shape() == [2, 3] and out.numpy().tolist() == (2 * x).tolist()
ort_outs = sess.run_with_ort_values([output_name], {input_name: x_ortvalue})
assert ort_outs[0].numpy().tolist() == (2 * x).tolist()

prof_file = sess.end_profiling()
with open(prof_file) as f:
    events = json.load(f)
assert any(e["cat"] == "Node" and e["args"]["op_name"] == "Add" for e in events)
'''


def _double_model(path):
    """y = x + x with x [batch, 3] float."""
    node = helper.make_node("Add", ["x", "x"], ["y"], name="add")
    with open(path, "wb") as f:
        f.write(model([node], [("x", T.FLOAT, ["batch", 3])], [("y", T.FLOAT, ["batch", 3])]))


def test_onnxruntime_user_code_runs_with_only_the_import_changed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _double_model("double.onnx")
    code = USER_CODE.replace("import onnxruntime as ort", "import onnx_scatter as ort")
    assert code.count("onnx_scatter") == 1 and "onnxruntime as" not in code
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing the page does is merely tolerated
        exec(compile(code, "user_code", "exec"), {"MODEL_PATH": "double.onnx"})
    ort.set_default_logger_severity(2)


FEED = {"data": np.ones((3, 3), np.float32),
        "indices": np.array([[1, 0, 2], [0, 2, 1]], np.int64),
        "updates": np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)}


def test_capi_exception_classes_catch_the_package_errors():
    from onnx_scatter.capi.onnxruntime_pybind11_state import (
        EPFail, EngineError, Fail, InvalidArgument, InvalidGraph, InvalidProtobuf, ModelLoaded,
        NoModel, NoSuchFile, NotImplemented, RuntimeException)
    import onnx_scatter.capi._pybind_state as C
    assert C.InvalidArgument is InvalidArgument
    for cls in (EPFail, EngineError, Fail, InvalidArgument, InvalidGraph, InvalidProtobuf,
                ModelLoaded, NoModel, NoSuchFile, NotImplemented, RuntimeException):
        assert issubclass(cls, Exception) and not issubclass(cls, ort.Error)
    sess = ort.InferenceSession(scatter_elements_file())
    with pytest.raises(InvalidArgument):  # ShapeError: a feed's dtype
        sess.run(None, dict(FEED, data=np.ones((3, 3))))
    with pytest.raises(InvalidArgument):
        sess.run(None, dict(FEED, bogus=FEED["data"]))
    with pytest.raises(InvalidArgument):  # IndexOutOfRange
        sess.run(None, dict(FEED, indices=np.full((2, 3), 9, np.int64)))
    with pytest.raises(NoSuchFile):
        ort.InferenceSession("/nonexistent/model.onnx")
    with pytest.raises(InvalidProtobuf):
        ort.InferenceSession(b"\xff\xff\xff\xff")
    bad_op = model([helper.make_node("NoSuchOp", ["x"], ["y"])], [("x", T.FLOAT, [1])],
                   [("y", T.FLOAT, [1])])
    with pytest.raises(NotImplemented):
        ort.InferenceSession(bad_op)
    cycle = model([helper.make_node("Identity", ["x"], ["y"])], [("x", T.FLOAT, [1])],
                  [("z", T.FLOAT, [1])])
    with pytest.raises((InvalidGraph, Fail)):
        ort.InferenceSession(cycle)


def test_lists_and_scalars_take_the_declared_dtype():
    sess = ort.InferenceSession(scatter_elements_file())
    (y,) = sess.run(None, {"data": [[1.0] * 3] * 3, "indices": [[1, 0, 2], [0, 2, 1]],
                           "updates": FEED["updates"].tolist()})
    (want,) = sess.run(None, FEED)
    assert y.dtype == np.float32 and y.tobytes() == want.tobytes()
    add = model([helper.make_node("Cast", ["b"], ["bf"], to=T.FLOAT),
                 helper.make_node("Add", ["a", "bf"], ["c"])],
                [("a", T.FLOAT, []), ("b", T.INT64, [])], [("c", T.FLOAT, [])])
    (c,) = ort.InferenceSession(add).run(None, {"a": 1.5, "b": 2})
    assert c.dtype == np.float32 and c.shape == () and float(c) == 3.5
    (c,) = ort.InferenceSession(add).run(None, {"a": np.float64(0.25), "b": True})
    assert float(c) == 1.25  # numpy scalars are not arrays: converted as onnxruntime does
    with pytest.raises(ort.ShapeError, match="given numpy float64"):  # arrays are not
        ort.InferenceSession(add).run(None, {"a": np.array(1.5), "b": 2})
    with pytest.raises(ort.ShapeError, match="cannot be converted to tensor\\(float\\)"):
        ort.InferenceSession(add).run(None, {"a": "x", "b": 2})


def test_provider_options_are_kept():
    f = scatter_elements_file()
    sess = ort.InferenceSession(f, providers=[("CPUExecutionProvider", {"a": 1, "b": "x"})])
    assert sess.get_provider_options() == {"CPUExecutionProvider": {"a": "1", "b": "x"}}
    sess = ort.InferenceSession(f, providers=["CPUExecutionProvider"],
                                provider_options=[{"use_arena": True}])
    assert sess.get_provider_options() == {"CPUExecutionProvider": {"use_arena": "True"}}
    sess.set_providers(["CPUExecutionProvider"])
    assert sess.get_provider_options() == {"CPUExecutionProvider": {}}
    with pytest.raises(ValueError, match="same length"):
        ort.InferenceSession(f, providers=["CPUExecutionProvider"], provider_options=[{}, {}])


def test_inter_op_num_threads_one_does_not_warn():
    so = ort.SessionOptions()
    so.inter_op_num_threads = 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ort.InferenceSession(scatter_elements_file(), so)
    so.inter_op_num_threads = 2
    with pytest.warns(ort.OptionWarning, match="inter_op_num_threads = 2 is ignored"):
        ort.InferenceSession(scatter_elements_file(), so)


def _deprecated_scatter():
    node = helper.make_node("Scatter", ["data", "indices", "updates"], ["y"])
    return model([node], [("data", T.FLOAT, [3]), ("indices", T.INT64, [1]),
                          ("updates", T.FLOAT, [1])], [("y", T.FLOAT, [3])], opset=11)


def test_set_default_logger_severity_silences_warnings():
    with pytest.warns(ort.ModelWarning):
        ort.InferenceSession(_deprecated_scatter())
    try:
        ort.set_default_logger_severity(3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sess = ort.InferenceSession(_deprecated_scatter())
        assert sess.get_warnings()  # still listed
        so = ort.SessionOptions()
        so.log_severity_level = 1  # the session's own level wins
        with pytest.warns(ort.ModelWarning):
            ort.InferenceSession(_deprecated_scatter(), so)
    finally:
        ort.set_default_logger_severity(2)
    with pytest.raises(ort.InvalidArgument, match="in \\[0, 4\\]"):
        ort.set_default_logger_severity(5)
    ort.set_default_logger_verbosity(0)


def test_get_build_info_names_the_versions():
    info = ort.get_build_info()
    assert ort.get_version_string() in info and ort.__version__ in info


def test_fallback_switches():
    sess = ort.InferenceSession(scatter_elements_file())
    assert sess._enable_fallback
    sess.disable_fallback()
    assert not sess._enable_fallback
    sess.enable_fallback()
    assert sess._enable_fallback
    np.testing.assert_array_equal(sess.run(None, FEED)[0].shape, (3, 3))


def test_end_profiling_writes_a_chrome_trace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sess = ort.InferenceSession(scatter_elements_file())
    assert sess.end_profiling() == "" and sess.get_profiling_start_time_ns() == 0
    so = ort.SessionOptions()
    so.enable_profiling = True
    so.profile_file_prefix = "mine"
    import time
    before = time.monotonic_ns()
    sess = ort.InferenceSession(scatter_elements_file(), so)
    start = sess.get_profiling_start_time_ns()
    assert before <= start <= time.monotonic_ns()
    for _ in range(3):
        sess.run(None, FEED)
    path = sess.end_profiling()
    assert path.startswith("mine_") and path.endswith(".json") and os.path.isfile(path)
    with open(path) as f:
        events = json.load(f)
    assert [e["name"] for e in events if e["cat"] == "Session"] == \
        ["session_initialization"] + ["model_run"] * 3
    nodes = [e for e in events if e["cat"] == "Node"]
    assert len(nodes) == 3 and nodes[0]["name"] == "scatter_kernel_time"
    assert nodes[0]["args"]["op_name"] == "ScatterElements" and nodes[0]["ph"] == "X"
    runs = [e for e in events if e["name"] == "model_run"]
    assert runs[0]["ts"] <= nodes[0]["ts"] and runs[0]["ts"] < runs[1]["ts"] < runs[2]["ts"]
    assert sess.end_profiling() == ""  # profiling ended
    sess.run(None, FEED)
    assert sess.get_profile()[0]["op_type"] == "ScatterElements"


def _denoted_scatter():
    """_symbolic_scatter of test_options with denotations: N is DATA_BATCH, E is DATA_EDGE."""
    import onnx
    nodes = [helper.make_node("Unsqueeze", ["dst", "axes"], ["u"]),
             helper.make_node("Shape", ["upd"], ["s"]),
             helper.make_node("Expand", ["u", "s"], ["idx"]),
             helper.make_node("ScatterElements", ["data", "idx", "upd"], ["y"], reduction="add",
                              axis=0)]
    raw = model(nodes, [("data", T.FLOAT, ["N", 3]), ("dst", T.INT64, ["E"]),
                        ("upd", T.FLOAT, ["E", 3])], [("y", T.FLOAT, ["N", 3])],
                initializers=[numpy_helper.from_array(np.array([1], np.int64), "axes")])
    m = onnx.load_from_string(raw)
    inputs = {vi.name: vi.type.tensor_type.shape.dim for vi in m.graph.input}
    inputs["data"][0].denotation = "DATA_BATCH"
    inputs["dst"][0].denotation = "DATA_EDGE"
    inputs["upd"][0].denotation = "DATA_EDGE"
    return m.SerializeToString()


def test_free_dimension_override_by_denotation():
    so = ort.SessionOptions()
    so.add_free_dimension_override_by_denotation("DATA_EDGE", 5)
    sess = ort.InferenceSession(_denoted_scatter(), so)
    feed = {"data": np.zeros((4, 3), np.float32), "dst": np.array([3, 0, 3, 1, 1], np.int64),
            "upd": np.ones((5, 3), np.float32)}
    (y,) = sess.run(None, feed)
    assert y[:, 0].tolist() == [1.0, 2.0, 0.0, 2.0]
    (y,) = sess.run(None, dict(feed, data=np.zeros((7, 3), np.float32)))  # N stays free
    with pytest.raises(ort.ShapeError, match="dst"):  # E is 5
        sess.run(None, {"data": feed["data"], "dst": np.zeros(6, np.int64),
                        "upd": np.zeros((6, 3), np.float32)})
    so = ort.SessionOptions()
    so.add_free_dimension_override_by_denotation("DATA_CHANNEL", 2)
    with pytest.raises(ort.InvalidArgument, match="'DATA_CHANNEL'"):
        ort.InferenceSession(_denoted_scatter(), so)
    with pytest.raises(ort.InvalidArgument, match="int >= 0"):
        so.add_free_dimension_override_by_denotation("DATA_BATCH", -2)
