"""test_iobinding: onnxruntime's IOBinding and OrtValue: outputs bound to caller memory are
written in place run after run (no page faults after the first run), outputs bound by name are
allocated once, inputs are read afresh at every run."""
import resource

import numpy as np
import pytest
from onnx import helper

import onnx_scatter as ort
from models import T, model, scatter_elements_file

SHAPE = [1, 8, 1024, 128]  # a KV cache: 1M float32, 4 MiB


def _kv_step():
    """present = TensorScatter(past, update, write_indices): one step's keys into the cache."""
    node = helper.make_node("TensorScatter", ["past", "update", "pos"], ["present"], axis=-2)
    return model([node], [("past", T.FLOAT, SHAPE), ("update", T.FLOAT, [1, 8, 1, 128]),
                          ("pos", T.INT64, [1])], [("present", T.FLOAT, SHAPE)], opset=24)


def _faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def test_bound_output_is_written_in_place_without_page_faults():
    sess = ort.InferenceSession(_kv_step())
    past = np.zeros(SHAPE, np.float32)
    present = np.full(SHAPE, -1.0, np.float32)
    update = np.zeros([1, 8, 1, 128], np.float32)
    pos = np.zeros(1, np.int64)
    binding = sess.io_binding()
    binding.bind_cpu_input("past", past)
    binding.bind_cpu_input("update", update)
    binding.bind_cpu_input("pos", pos)
    binding.bind_output("present", "cpu", 0, np.float32, SHAPE, present.ctypes.data)
    address = present.ctypes.data
    sess.run_with_iobinding(binding)  # the first run plans and touches the arena
    # 20 steps, each writing the whole 4 MiB output. A fresh output array per run faults
    # its pages in: plain run() here took 481 faults in its first 20 runs (glibc maps a
    # 4 MiB block and unmaps it on free until its adaptive threshold keeps such blocks on the
    # heap). Bound, the memory is the caller's and already touched: 0 here; the slack of 20
    # covers Python objects of the loop landing on a fresh page.
    before = _faults()
    for step in range(20):
        pos[0] = step           # inputs are read at each run: changed in place, seen
        update[...] = step + 1
        sess.run_with_iobinding(binding)
    faults = _faults() - before
    assert faults < 20, f"{faults} minor page faults in 20 runs with a bound output"
    assert present.ctypes.data == address
    assert present[0, 0, 19, 0] == 20.0 and present[0, 0, 0, 0] == 0.0  # past is zeros
    assert present[0, 3, 20:, :].max() == 0.0
    (out,) = binding.get_outputs()
    assert out.data_ptr() == address and out.shape() == SHAPE
    assert binding.copy_outputs_to_cpu()[0].ctypes.data != address


def test_output_bound_by_name_is_allocated_once():
    sess = ort.InferenceSession(_kv_step())
    binding = sess.io_binding()
    binding.bind_cpu_input("past", np.zeros(SHAPE, np.float32))
    binding.bind_cpu_input("update", np.ones([1, 8, 1, 128], np.float32))
    pos = np.zeros(1, np.int64)
    binding.bind_cpu_input("pos", pos)
    binding.bind_output("present")
    sess.run_with_iobinding(binding)
    first = binding.get_outputs()[0]
    before = _faults()
    for step in range(5):
        pos[0] = step + 1
        sess.run_with_iobinding(binding)
    assert _faults() - before < 20
    again = binding.get_outputs()[0]
    assert again.data_ptr() == first.data_ptr()
    values = again.numpy()
    assert values[0, 0, 5, 0] == 1.0 and values[0, 0, 0, 0] == 0.0


def test_dynamic_output_by_name_and_ortvalues():
    node = helper.make_node("Add", ["x", "x"], ["y"])
    sess = ort.InferenceSession(model([node], [("x", T.FLOAT, ["n"])], [("y", T.FLOAT, ["n"])]))
    binding = sess.io_binding()
    x = ort.OrtValue.ortvalue_from_numpy(np.arange(3, dtype=np.float32))
    assert (x.element_type(), x.data_type(), x.has_value()) == (1, "tensor(float)", True)
    binding.bind_ortvalue_input("x", x)
    binding.bind_output("y")
    sess.run_with_iobinding(binding)
    (y,) = binding.copy_outputs_to_cpu()
    assert y.tolist() == [0.0, 2.0, 4.0]
    x.update_inplace(np.array([5, 6, 7], np.float32))
    sess.run_with_iobinding(binding)
    assert binding.get_outputs()[0].numpy().tolist() == [10.0, 12.0, 14.0]
    binding.bind_cpu_input("x", [1.0, 2.0])  # a list: converted to the input's dtype
    sess.run_with_iobinding(binding)
    assert binding.get_outputs()[0].shape() == [2]
    out = ort.OrtValue.ortvalue_from_shape_and_type([2], np.float32)
    binding.bind_ortvalue_output("y", out)
    sess.run_with_iobinding(binding)
    assert out.numpy().tolist() == [2.0, 4.0]
    (r,) = sess.run_with_ort_values(["y"], {"x": x})
    assert isinstance(r, ort.OrtValue) and r.numpy().tolist() == [10.0, 12.0, 14.0]
    with pytest.raises(ort.InvalidArgument, match="buffer has 8 bytes; the output, float "
                                                  "\\[3\\], needs 12"):
        binding.bind_cpu_input("x", np.zeros(3, np.float32))
        sess.run_with_iobinding(binding)


def test_binding_errors():
    sess = ort.InferenceSession(scatter_elements_file())
    binding = sess.io_binding()
    with pytest.raises(ort.InvalidArgument, match="no input named 'bogus'"):
        binding.bind_cpu_input("bogus", np.zeros(1))
    with pytest.raises(ort.InvalidArgument, match="no output named 'bogus'"):
        binding.bind_output("bogus")
    with pytest.raises(ort.InvalidArgument, match="CPU only"):
        binding.bind_output("y", "cuda")
    with pytest.raises(ort.InvalidArgument, match="element_type"):
        binding.bind_output("output", "cpu", 0, None, None, 1234)
    with pytest.raises(ort.InvalidArgument, match="cannot be bound to a numpy float64"):
        binding.bind_ortvalue_output("output", ort.OrtValue.ortvalue_from_numpy(np.zeros((3, 3))))
    with pytest.raises(ort.InvalidArgument, match="no output is bound"):
        sess.run_with_iobinding(binding)
    wrong = np.zeros((9,), np.float32)
    binding.bind_ortvalue_output("output", ort.OrtValue.ortvalue_from_numpy(wrong))
    binding.bind_cpu_input("data", np.ones((3, 3), np.float32))
    binding.bind_cpu_input("indices", np.zeros((2, 3), np.int64))
    binding.bind_cpu_input("updates", np.ones((2, 3), np.float32))
    with pytest.raises(ort.InvalidArgument, match="shape \\(9,\\); the output's shape is"):
        sess.run_with_iobinding(binding)
    binding.clear_binding_outputs()
    binding.bind_output("output")
    binding.clear_binding_inputs()
    with pytest.raises(ort.InvalidArgument, match="missing"):
        sess.run_with_iobinding(binding)
    with pytest.raises(ort.InvalidArgument, match="IOBinding of this session"):
        ort.InferenceSession(scatter_elements_file()).run_with_iobinding(binding)
    # a plain run on the same session after a bound run does not write the bound array
    feed = {"data": np.ones((3, 3), np.float32), "indices": np.zeros((2, 3), np.int64),
            "updates": np.ones((2, 3), np.float32)}
    mine = np.zeros((3, 3), np.float32)
    b2 = sess.io_binding()
    for k, v in feed.items():
        b2.bind_cpu_input(k, v)
    b2.bind_ortvalue_output("output", ort.OrtValue.ortvalue_from_numpy(mine))
    sess.run_with_iobinding(b2)
    snapshot = mine.copy()
    (y,) = sess.run(None, dict(feed, updates=np.full((2, 3), 7, np.float32)))
    assert mine.tobytes() == snapshot.tobytes() and y.ctypes.data != mine.ctypes.data
