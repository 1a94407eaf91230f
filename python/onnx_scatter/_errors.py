"""_errors: one exception class per osc_status, all under onnx_scatter.Error, each also deriving
from the onnxruntime exception classes (onnx_scatter.capi.onnxruntime_pybind11_state) that
onnxruntime raises for the same failure, so `except` clauses written for onnxruntime catch it."""


# onnxruntime's classes (one per onnxruntime StatusCode; pybind11 derives them from Exception).
class Fail(Exception):
    """onnxruntime FAIL."""


class OrtInvalidArgument(Exception):
    """onnxruntime INVALID_ARGUMENT (onnxruntime's name: InvalidArgument)."""


class NoSuchFile(Exception):
    """onnxruntime NO_SUCHFILE."""


class NoModel(Exception):
    """onnxruntime NO_MODEL."""


class EngineError(Exception):
    """onnxruntime ENGINE_ERROR."""


class RuntimeException(Exception):
    """onnxruntime RUNTIME_EXCEPTION."""


class OrtInvalidProtobuf(Exception):
    """onnxruntime INVALID_PROTOBUF (onnxruntime's name: InvalidProtobuf)."""


class ModelLoaded(Exception):
    """onnxruntime MODEL_LOADED."""


class NotImplemented(Exception):  # noqa: A001 (onnxruntime's name)
    """onnxruntime NOT_IMPLEMENTED."""


class InvalidGraph(Exception):
    """onnxruntime INVALID_GRAPH."""


class EPFail(Exception):
    """onnxruntime EP_FAIL."""


class ModelLoadCanceled(Exception):
    """onnxruntime MODEL_LOAD_CANCELED."""


class ModelRequiresCompilation(Exception):
    """onnxruntime MODEL_REQUIRES_COMPILATION."""


class NotFound(Exception):
    """onnxruntime NOT_FOUND."""


# The names onnxruntime.capi.onnxruntime_pybind11_state gives them.
ORT_CLASSES = {"Fail": Fail, "InvalidArgument": OrtInvalidArgument, "NoSuchFile": NoSuchFile,
               "NoModel": NoModel, "EngineError": EngineError,
               "RuntimeException": RuntimeException, "InvalidProtobuf": OrtInvalidProtobuf,
               "ModelLoaded": ModelLoaded, "NotImplemented": NotImplemented,
               "InvalidGraph": InvalidGraph, "EPFail": EPFail,
               "ModelLoadCanceled": ModelLoadCanceled,
               "ModelRequiresCompilation": ModelRequiresCompilation, "NotFound": NotFound}


class Error(RuntimeError):
    """Any failure of onnx-scatter. `status` is the C library's osc_status number and `message`
    its full message (the node, input, position, value and allowed range it names)."""
    status = None

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class InvalidArgument(Error, ValueError, OrtInvalidArgument):
    """OSC_ERR_ARG: a bad argument: unknown input or output name, missing input, bad buffer."""
    status = 1


class OutOfMemory(Error, MemoryError, RuntimeException):
    """OSC_ERR_NOMEM: the allocator returned NULL."""
    status = 2


class FileError(Error, OSError, NoSuchFile):
    """OSC_ERR_IO: a file could not be opened or read."""
    status = 3


class InvalidProtobuf(Error, ValueError, OrtInvalidProtobuf):
    """OSC_ERR_PARSE: the bytes are not a valid ModelProto."""
    status = 4


class InvalidModel(Error, ValueError, InvalidGraph, Fail):
    """OSC_ERR_MODEL: graph structure, attributes or payloads are invalid."""
    status = 5


class Unsupported(Error, NotImplementedError, NotImplemented):
    """OSC_ERR_UNSUPPORTED: an op, op version, dtype or option onnx-scatter does not implement."""
    status = 6


class ShapeError(Error, ValueError, OrtInvalidArgument, Fail):
    """OSC_ERR_SHAPE: shapes, ranks or dtypes do not fit (a feed's dtype or rank included)."""
    status = 7


class IndexOutOfRange(Error, IndexError, OrtInvalidArgument, RuntimeException):
    """OSC_ERR_INDEX: an index value is outside its allowed range."""
    status = 8


class LimitExceeded(Error, Fail):
    """OSC_ERR_LIMIT: a resource limit (bytes, rank, string length, nodes) was reached."""
    status = 9


class StateError(Error, Fail):
    """OSC_ERR_STATE: a call out of order."""
    status = 10


class Cancelled(Error, Fail):
    """OSC_ERR_CANCELLED: the caller cancelled the run."""
    status = 11


BY_STATUS = {c.status: c for c in (InvalidArgument, OutOfMemory, FileError, InvalidProtobuf,
                                   InvalidModel, Unsupported, ShapeError, IndexOutOfRange,
                                   LimitExceeded, StateError, Cancelled)}


def error(status, message):
    """The exception for a C status (Error itself for a status this package does not know)."""
    cls = BY_STATUS.get(status)
    if cls is None:
        e = Error(f"{message} (status {status})")
        e.status = status
        return e
    return cls(message)
