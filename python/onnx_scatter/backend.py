"""backend: onnx.backend.base.Backend over onnx_scatter, so that onnx's BackendTest (and any
other user of the backend API) runs models through it. Needs python3-onnx.

onnx 1.12's numpy_helper gives bfloat16 tensors as float32 arrays; this backend converts them
to and from the raw bits the session takes (a float32 input for a bfloat16 model input keeps
its upper 16 bits, exact for values that are bfloat16 already; a bfloat16 output comes back as
float32)."""
import numpy as np
import onnx
from onnx import helper
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict

from ._options import SessionOptions
from ._session import InferenceSession

_BF16 = "tensor(bfloat16)"


def _elem(dtype):
    """TensorProto element type of a numpy dtype (str and bytes: STRING)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "USO":
        return onnx.TensorProto.STRING
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[dtype]


class ScatterRep(BackendRep):
    """A prepared model: run(inputs) takes a list (graph inputs in model order) or a dict."""

    def __init__(self, session, input_names):
        self.session = session
        self.input_names = input_names
        self._types = {a.name: a.type for a in
                       session.get_inputs() + session.get_overridable_initializers()}
        self._out = session.get_outputs()

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            if isinstance(inputs, np.ndarray):
                inputs = [inputs]
            feed = dict(zip(self.input_names, inputs))
        for name, value in feed.items():
            if value is None or isinstance(value, (list, tuple)):
                continue  # an optional's None, a sequence's list: the session takes them
            value = np.asarray(value)
            if self._types.get(name) == _BF16 and value.dtype == np.float32:
                value = (np.ascontiguousarray(value).view(np.uint32) >> 16).astype(np.uint16)
            feed[name] = value
        outs = self.session.run(None, feed)
        for k, arg in enumerate(self._out):
            if arg.type == _BF16:
                outs[k] = (outs[k].astype(np.uint32) << 16).view(np.float32)
        return namedtupledict("Outputs", [a.name for a in self._out])(*outs)


class ScatterBackend(Backend):
    @classmethod
    def supports_device(cls, device):
        return Device(device).type == DeviceType.CPU

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        """kwargs: SessionOptions attributes (intra_op_num_threads=2, strict=True, ...)."""
        super().prepare(model, device, **kwargs)  # checks the model (onnx.checker)
        if not cls.supports_device(device):
            raise RuntimeError(f"onnx_scatter runs on CPU only, not {device}")
        so = SessionOptions()
        for key, value in kwargs.items():
            setattr(so, key, value)
        session = InferenceSession(model.SerializeToString(), so)
        return ScatterRep(session, [i.name for i in model.graph.input])

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Runs one node on inputs (a list in node.input order, or a dict by name) in a model of
        the default opset (kwargs opset_version=N for another). outputs_info: optional
        (numpy dtype, shape) per output, to declare them."""
        opset = kwargs.pop("opset_version", onnx.defs.onnx_opset_version())
        names = [n for n in node.input if n]
        values = inputs if isinstance(inputs, dict) else dict(zip(names, inputs))
        graph_in = []
        for name in names:
            arr = np.asarray(values[name])
            graph_in.append(helper.make_tensor_value_info(name, _elem(arr.dtype), arr.shape))
        graph_out = []
        for k, name in enumerate(o for o in node.output if o):
            if outputs_info and k < len(outputs_info):
                dtype, shape = outputs_info[k]
                graph_out.append(helper.make_tensor_value_info(name, _elem(dtype), shape))
            else:
                graph_out.append(helper.make_empty_tensor_value_info(name))
        graph = helper.make_graph([node], "run_node", graph_in, graph_out)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        return cls.run_model(model, {n: values[n] for n in names}, device, **kwargs)


prepare = ScatterBackend.prepare
run_model = ScatterBackend.run_model
run_node = ScatterBackend.run_node
supports_device = ScatterBackend.supports_device
