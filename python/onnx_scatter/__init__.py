"""onnx_scatter: onnxruntime's Python session API over the onnx-scatter C library (ctypes).

    import onnx_scatter as ort
    sess = ort.InferenceSession("model.onnx")
    y, = sess.run(None, {"x": x})

docs/python.md lists the onnxruntime subset, the options, the dtypes and what goes beyond
onnxruntime (donated inputs, the per-node profile, the model's warnings, the limits).
onnx_scatter.backend (which imports onnx) is the ONNX backend for onnx's BackendTest.
"""
import sys as _sys
import types as _types

from ._errors import (Cancelled, Error, FileError, IndexOutOfRange, InvalidArgument,
                      InvalidModel, InvalidProtobuf, LimitExceeded, OutOfMemory, ShapeError,
                      StateError, Unsupported, ORT_CLASSES as _ORT_CLASSES)
from ._lib import lib as _lib, OpDesc as _OpDesc, path as _lib_path
from ._options import (ExecutionMode, GraphOptimizationLevel, OptionWarning, RunOptions,
                       SessionOptions, option_names, set_default_logger_severity,
                       set_default_logger_verbosity)
from ._iobinding import IOBinding
from ._session import InferenceSession, ModelMetadata, ModelWarning, NodeArg
from ._values import OrtValue
from ._version import __version__

__all__ = ["InferenceSession", "SessionOptions", "RunOptions", "NodeArg", "ModelMetadata",
           "GraphOptimizationLevel", "ExecutionMode", "get_available_providers",
           "get_all_providers", "get_device", "get_version_string", "supported_ops", "Error",
           "InvalidArgument", "OutOfMemory", "FileError", "InvalidProtobuf", "InvalidModel",
           "Unsupported", "ShapeError", "IndexOutOfRange", "LimitExceeded", "StateError",
           "Cancelled", "ModelWarning", "OptionWarning", "option_names", "__version__",
           "IOBinding", "OrtValue", "set_default_logger_severity",
           "set_default_logger_verbosity", "get_build_info", "capi"]


def _capi():
    """onnx_scatter.capi.onnxruntime_pybind11_state (also capi._pybind_state), as onnxruntime
    spells it: its exception classes (Fail, InvalidArgument, NoSuchFile, ...), which the
    package's errors derive from (docs/python.md, Errors), so `except` clauses written for
    onnxruntime catch them. Modules made here and put in sys.modules, so that `import` and
    `from ... import` of those names work."""
    capi = _types.ModuleType(__name__ + ".capi", _capi.__doc__)
    state = _types.ModuleType(capi.__name__ + ".onnxruntime_pybind11_state")
    for name, cls in _ORT_CLASSES.items():
        setattr(state, name, cls)
    state.OrtValue = OrtValue
    state.get_available_providers = get_available_providers
    state.__all__ = [*_ORT_CLASSES, "OrtValue", "get_available_providers"]
    capi.onnxruntime_pybind11_state = capi._pybind_state = state
    _sys.modules[capi.__name__] = capi
    _sys.modules[state.__name__] = state
    _sys.modules[capi.__name__ + "._pybind_state"] = state
    return capi


def get_available_providers():
    return ["CPUExecutionProvider"]


def get_all_providers():
    return ["CPUExecutionProvider"]


def get_device():
    return "CPU"


def get_version_string():
    """The C library's version."""
    return _lib.osc_version().decode()


def get_build_info():
    """onnxruntime's: a line saying what this build is (versions and the library's path)."""
    return (f"onnx-scatter build info: package={__version__}, library={get_version_string()}, "
            f"library path={_lib_path}, providers=CPUExecutionProvider")


capi = _capi()


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
