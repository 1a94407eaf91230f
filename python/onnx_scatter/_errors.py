"""_errors: one exception class per osc_status, all under onnx_scatter.Error."""


class Error(RuntimeError):
    """Any failure of onnx-scatter. `status` is the C library's osc_status number and `message`
    its full message (the node, input, position, value and allowed range it names)."""
    status = None

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class InvalidArgument(Error, ValueError):
    """OSC_ERR_ARG: a bad argument: unknown input or output name, missing input, bad buffer."""
    status = 1


class OutOfMemory(Error, MemoryError):
    """OSC_ERR_NOMEM: the allocator returned NULL."""
    status = 2


class FileError(Error, OSError):
    """OSC_ERR_IO: a file could not be opened or read."""
    status = 3


class InvalidProtobuf(Error, ValueError):
    """OSC_ERR_PARSE: the bytes are not a valid ModelProto."""
    status = 4


class InvalidModel(Error, ValueError):
    """OSC_ERR_MODEL: graph structure, attributes or payloads are invalid."""
    status = 5


class Unsupported(Error, NotImplementedError):
    """OSC_ERR_UNSUPPORTED: an op, op version, dtype or option onnx-scatter does not implement."""
    status = 6


class ShapeError(Error, ValueError):
    """OSC_ERR_SHAPE: shapes, ranks or dtypes do not fit (a feed's dtype or rank included)."""
    status = 7


class IndexOutOfRange(Error, IndexError):
    """OSC_ERR_INDEX: an index value is outside its allowed range."""
    status = 8


class LimitExceeded(Error):
    """OSC_ERR_LIMIT: a resource limit (bytes, rank, string length, nodes) was reached."""
    status = 9


class StateError(Error):
    """OSC_ERR_STATE: a call out of order."""
    status = 10


class Cancelled(Error):
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
