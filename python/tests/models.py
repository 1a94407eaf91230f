"""models: small ONNX models for the package's tests, made with onnx.helper."""
from onnx import TensorProto, helper

T = TensorProto


def model(nodes, inputs, outputs, opset=18, initializers=(), **kw):
    """Serialized ModelProto. inputs/outputs: (name, elem_type, shape) (shape None: none)."""
    vi = [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs]
    vo = [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs]
    g = helper.make_graph(nodes, "g", vi, vo, initializer=list(initializers))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], **kw)
    m.ir_version = 10 if opset >= 21 else 8
    return m.SerializeToString()


def identity(elem, shape, opset=25):
    return model([helper.make_node("Identity", ["x"], ["y"])], [("x", elem, shape)],
                 [("y", elem, shape)], opset=opset)


def scatter_elements(elem, shape=(3, 3), idx_shape=(2, 3), reduction=None, opset=18,
                     node_name="scatter"):
    kw = {"reduction": reduction} if reduction else {}
    node = helper.make_node("ScatterElements", ["data", "indices", "updates"], ["y"],
                            name=node_name, **kw)
    return model([node], [("data", elem, shape), ("indices", T.INT64, idx_shape),
                          ("updates", elem, idx_shape)], [("y", elem, shape)], opset=opset)


def scatter_elements_file():
    """The bundled example (3x3 ScatterElements, reduction add)."""
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "examples", "scatter_elements", "model.onnx")
