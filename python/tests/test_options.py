"""test_options: the C library's options by name (osc_options_set) as session config entries:
every name, bad names and values refused at once with the library's message, precedence over
the attributes, and the effect at load."""
import ctypes
import importlib
import warnings

import numpy as np
import pytest

import onnx_scatter as ort
# the module (the package's attribute _lib is the loaded library)
_lib = importlib.import_module("onnx_scatter._lib")
from models import scatter_elements_file

FEED = {"data": np.ones((3, 3), np.float32),
        "indices": np.array([[1, 0, 2], [0, 2, 1]], np.int64),
        "updates": np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)}


def test_option_names():
    names = ort.option_names()
    assert names == [f for f, _ in _lib.Options._fields_
                     if f not in ("alloc", "alloc_ud", "reserved", "dim_pins", "n_dim_pins",
                                  "reserved_ext")]


@pytest.mark.parametrize("key", ort.option_names())
def test_each_option_sets_its_field(key):
    so = ort.SessionOptions()
    so.add_session_config_entry(key, "1")
    assert so.get_session_config_entry(key) == "1"
    assert getattr(so.to_c(), key) == 1


def test_bad_keys_and_values_are_refused_at_once():
    so = ort.SessionOptions()
    with pytest.raises(ort.InvalidArgument, match="unknown option 'fuse_recompte'.*fuse_recompute"):
        so.add_session_config_entry("fuse_recompte", "1")
    with pytest.raises(ort.InvalidArgument,
                       match="threads = '300': out of range; expected 0 to 256"):
        so.add_session_config_entry("threads", 300)
    with pytest.raises(ort.InvalidArgument, match="no_fusion = '2'.*expected 0 or 1"):
        so.add_session_config_entry("no_fusion", "2")
    with pytest.raises(ort.InvalidArgument, match="max_rank = '-1': not a decimal integer"):
        so.add_session_config_entry("max_rank", "-1")
    with pytest.raises(ort.InvalidArgument, match="NUL"):
        so.add_session_config_entry("threads", "2\0")
    assert so._config == {}  # nothing refused was kept


def test_entries_apply_after_the_attributes_and_take_effect():
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.add_session_config_entry("threads", 3)
    so.add_session_config_entry("fuse_recompute", True)
    so.add_session_config_entry("profile", "1")
    o = so.to_c()
    assert (o.threads, o.fuse_recompute, o.profile) == (3, 1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the library's keys are not "ignored"
        sess = ort.InferenceSession(scatter_elements_file(), so)
    sess.run(None, FEED)
    assert len(sess.get_profile()) == 1  # profile by name: the session profiles
    read = ctypes.c_uint64()
    for key, want in (("threads", 3), ("fuse_recompute", 1)):
        assert _lib.lib.osc_options_get(ctypes.addressof(o), key.encode(),
                                        ctypes.byref(read)) == 0
        assert read.value == want


def test_max_fold_bytes_attribute():
    so = ort.SessionOptions()
    assert so.to_c().max_fold_bytes == 0  # the library's default
    so.max_fold_bytes = 1 << 20
    assert so.to_c().max_fold_bytes == 1 << 20
    so.max_fold_bytes = None  # no budget: max_bytes alone
    assert so.to_c().max_fold_bytes == 2**64 - 1
    ort.InferenceSession(scatter_elements_file(), so).run(None, FEED)


def test_node_desc_reserved_tail_zeroed():
    sess = ort.InferenceSession(scatter_elements_file())
    d = _lib.NodeDesc()
    ctypes.memset(ctypes.addressof(d), 0x5A, ctypes.sizeof(d))
    assert _lib.lib.osc_model_node(sess._model, 0, ctypes.addressof(d)) == 0
    assert list(d.reserved) == [0] * len(d.reserved)


def _symbolic_scatter():
    """data [N, 3], dst [E], upd [E, 3] with symbolic N and E; y = ScatterElements(data,
    Expand(Unsqueeze(dst, 1), Shape(upd)), upd, add), as exporters spell a row scatter."""
    from onnx import helper, numpy_helper
    from models import T, model
    nodes = [helper.make_node("Unsqueeze", ["dst", "axes"], ["u"]),
             helper.make_node("Shape", ["upd"], ["s"]),
             helper.make_node("Expand", ["u", "s"], ["idx"]),
             helper.make_node("ScatterElements", ["data", "idx", "upd"], ["y"], name="scatter",
                              reduction="add", axis=0)]
    return model(nodes, [("data", T.FLOAT, ["N", 3]), ("dst", T.INT64, ["E"]),
                         ("upd", T.FLOAT, ["E", 3])], [("y", T.FLOAT, ["N", 3])],
                 initializers=[numpy_helper.from_array(np.array([1], np.int64), "axes")])


def test_free_dimension_overrides_pin_symbolic_dims():
    so = ort.SessionOptions()
    so.add_free_dimension_override_by_name("N", 4)
    so.add_free_dimension_override_by_name("E", 5)
    sess = ort.InferenceSession(_symbolic_scatter(), so)
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    dst = np.array([3, 0, 3, -1, 1], np.int64)
    upd = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    want = data.copy()
    for e in range(5):
        want[dst[e]] += upd[e]
    (y,) = sess.run(None, {"data": data, "dst": dst, "upd": upd})
    assert y.tobytes() == want.tobytes()
    with pytest.raises(ort.ShapeError, match="dst"):  # 6 edges against the pin E = 5
        sess.run(None, {"data": data, "dst": np.zeros(6, np.int64),
                        "upd": np.zeros((6, 3), np.float32)})


def test_free_dimension_override_of_no_dim_is_refused():
    so = ort.SessionOptions()
    so.add_free_dimension_override_by_name("M", 4)
    with pytest.raises(ort.InvalidArgument, match="'M': no graph input has a dim of that name"):
        ort.InferenceSession(_symbolic_scatter(), so)
    with pytest.raises(ort.InvalidArgument, match="int >= 0"):
        so.add_free_dimension_override_by_name("N", -1)
