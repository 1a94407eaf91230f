"""onnx_scatter: onnxruntime's Python session API over the onnx-scatter C library (ctypes).

    import onnx_scatter as ort
    sess = ort.InferenceSession("model.onnx")
    y, = sess.run(None, {"x": x})

docs/python.md lists the onnxruntime subset, the options, the dtypes and what goes beyond
onnxruntime (donated inputs, the per-node profile, the model's warnings, the limits).
onnx_scatter.backend (which imports onnx) is the ONNX backend for onnx's BackendTest.
"""
from ._errors import (Cancelled, Error, FileError, IndexOutOfRange, InvalidArgument,
                      InvalidModel, InvalidProtobuf, LimitExceeded, OutOfMemory, ShapeError,
                      StateError, Unsupported)
from ._lib import lib as _lib, OpDesc as _OpDesc
from ._options import (ExecutionMode, GraphOptimizationLevel, OptionWarning, RunOptions,
                       SessionOptions, option_names)
from ._session import InferenceSession, ModelMetadata, ModelWarning, NodeArg
from ._version import __version__

__all__ = ["InferenceSession", "SessionOptions", "RunOptions", "NodeArg", "ModelMetadata",
           "GraphOptimizationLevel", "ExecutionMode", "get_available_providers",
           "get_all_providers", "get_device", "get_version_string", "supported_ops", "Error",
           "InvalidArgument", "OutOfMemory", "FileError", "InvalidProtobuf", "InvalidModel",
           "Unsupported", "ShapeError", "IndexOutOfRange", "LimitExceeded", "StateError",
           "Cancelled", "ModelWarning", "OptionWarning", "option_names", "__version__"]


def get_available_providers():
    return ["CPUExecutionProvider"]


def get_all_providers():
    return ["CPUExecutionProvider"]


def get_device():
    return "CPU"


def get_version_string():
    """The C library's version."""
    return _lib.osc_version().decode()


def supported_ops():
    """The kernel registry: {(domain, op_type): [(since_version, until_version), ...]}, domain
    "" for ai.onnx. A model runs a node when its opset for the domain is in one of the ranges."""
    import ctypes
    ops = {}
    d = _OpDesc()
    for i in range(_lib.osc_op_count()):
        if _lib.osc_op_at(i, ctypes.addressof(d)) == 0:
            key = (d.domain.decode(), d.op_type.decode())
            ops.setdefault(key, []).append((d.since_version, d.until_version))
    return ops
