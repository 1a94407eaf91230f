"""test_unchanged: run(unchanged=[...]) on the fused GCN layer of tests/models: a second run
with the edge index declared unchanged gives the result of the first; a declared input whose
bytes did change raises InvalidArgument, and naming an input the feed lacks is refused."""
import os

import numpy as np
import pytest
from onnx import numpy_helper, TensorProto

import onnx_scatter as ort

CASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "models",
                    "gnn_gcn_small_opset17")


def load(k):
    t = TensorProto()
    with open(os.path.join(CASE, "test_data_set_0", f"input_{k}.pb"), "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def test_unchanged_index_reused_and_checked():
    sess = ort.InferenceSession(os.path.join(CASE, "model.onnx"))
    x, edges = load(0), load(1).copy()
    first, = sess.run(None, {"x": x, "edge_index": edges})
    again, = sess.run(None, {"x": x, "edge_index": edges}, unchanged=["edge_index"])
    np.testing.assert_array_equal(again, first)
    edges[1, 0] = (edges[1, 0] + 1) % x.shape[0]  # the same array, other bytes
    with pytest.raises(ort.InvalidArgument, match="edge_index"):
        sess.run(None, {"x": x, "edge_index": edges}, unchanged=["edge_index"])
    with pytest.raises(ort.InvalidArgument, match="not an input this feed gives"):
        sess.run(None, {"x": x, "edge_index": edges}, unchanged=["nope"])
