"""_values: onnxruntime's OrtValue (a tensor over a numpy array), and sequences and optionals,
which the C library carries as packed tensors of dtype OSC_SEQUENCE or OSC_OPTIONAL
(osc_value_pack, osc_value_count, osc_value_item). A sequence is a Python list (or tuple) of
numpy arrays of one dtype; an optional is None (empty) or its element (an array, or a list for
an optional sequence)."""
import ctypes

import numpy as np

from . import _dtypes as D
from ._errors import InvalidArgument, ShapeError, error
from ._lib import Tensor, lib

SEQUENCE, OPTIONAL = 60, 61
KINDS = (SEQUENCE, OPTIONAL)


def _item_tensor(name, arr, keep):
    """A Tensor viewing arr (a numpy array of a plain dtype), or a packed value (a list)."""
    if isinstance(arr, (list, tuple)):
        return pack(name, SEQUENCE, arr, keep)
    arr = np.ascontiguousarray(arr)
    if arr.dtype.newbyteorder("=") not in D.FROM_NUMPY or D.is_string_array(arr):
        raise InvalidArgument(f"input {name!r}: a sequence or optional item of numpy "
                              f"{arr.dtype} is not supported (numbers and bool only)")
    arr = arr.astype(arr.dtype.newbyteorder("="), copy=False)
    keep.append(arr)
    t = Tensor()
    t.dtype = D.FROM_NUMPY[arr.dtype]
    t.rank = arr.ndim
    t.dims[:arr.ndim] = arr.shape
    t.data = arr.ctypes.data
    t.nbytes = arr.nbytes
    return t


def pack(name, kind, items, keep):
    """The packed value (a Tensor whose bytes live in a numpy array appended to keep) of
    items: a list for a sequence; for an optional, [] (empty) or [element]."""
    ts = [_item_tensor(name, x, keep) for x in items]
    arr = (Tensor * max(len(ts), 1))(*ts)
    out = Tensor()
    msg = ctypes.create_string_buffer(512)
    st = lib.osc_value_pack(kind, 0, arr, len(ts), ctypes.byref(out), msg, len(msg))
    if st:
        raise error(st, f"input {name!r}: {msg.value.decode(errors='replace')}")
    nbytes = out.nbytes
    try:
        raw = np.empty(nbytes, np.uint8)
        ctypes.memmove(raw.ctypes.data, out.data, nbytes)
    finally:
        lib.osc_tensor_free_data(ctypes.byref(out))
    keep.append(raw)
    t = Tensor()
    t.dtype, t.rank, t.dims[0], t.data, t.nbytes = kind, 1, nbytes, raw.ctypes.data, nbytes
    return t


def from_python(name, kind, value, keep):
    """The packed Tensor for an input declared a sequence or an optional."""
    if kind == SEQUENCE:
        if not isinstance(value, (list, tuple)):
            raise ShapeError(f"input {name!r} is a sequence: give a list of numpy arrays, not "
                             f"{type(value).__name__}")
        return pack(name, SEQUENCE, list(value), keep)
    return pack(name, OPTIONAL, [] if value is None else [value], keep)


def to_python(t):
    """A packed output value as Python: a list of arrays, or None / the element."""
    n, elem = ctypes.c_size_t(), ctypes.c_int32()
    if lib.osc_value_count(ctypes.byref(t), ctypes.byref(n), ctypes.byref(elem)):
        raise ShapeError("the library returned a malformed sequence or optional")
    items = []
    for k in range(n.value):
        it = Tensor()
        lib.osc_value_item(ctypes.byref(t), k, ctypes.byref(it))
        if it.dtype in KINDS:
            items.append(to_python(it))
            continue
        shape = tuple(it.dims[:it.rank])
        arr = np.empty(shape, D.NUMPY[it.dtype])
        if it.nbytes:
            ctypes.memmove(arr.ctypes.data, it.data, it.nbytes)
        items.append(arr)
    if t.dtype == SEQUENCE:
        return items
    return items[0] if items else None


class OrtValue:
    """onnxruntime.OrtValue, for tensors on the CPU: a view of a numpy array (no copy), as
    onnxruntime's CPU OrtValue is of the array it was made from."""
    __slots__ = ("_arr",)

    def __init__(self, arr):
        self._arr = arr

    @staticmethod
    def ortvalue_from_numpy(numpy_obj, device_type="cpu", device_id=0):
        """An OrtValue viewing numpy_obj (a C-contiguous copy when it is not C-contiguous)."""
        cpu(device_type, device_id)
        if not isinstance(numpy_obj, np.ndarray):
            raise InvalidArgument(f"ortvalue_from_numpy takes a numpy array, not "
                                  f"{type(numpy_obj).__name__}")
        return OrtValue(np.ascontiguousarray(numpy_obj))

    @staticmethod
    def ortvalue_from_shape_and_type(shape=None, element_type=None, device_type="cpu",
                                     device_id=0):
        """An OrtValue of that shape and numpy element type (contents unspecified)."""
        cpu(device_type, device_id)
        if shape is None or element_type is None:
            raise InvalidArgument("`element_type` and `shape` are to be provided")
        return OrtValue(np.empty(tuple(shape), element_type))

    def numpy(self):
        """A copy of the tensor, as onnxruntime's numpy() gives."""
        return self._arr.copy()

    def update_inplace(self, np_arr):
        """Copies np_arr (same number of elements) into the tensor's memory."""
        src = np.asarray(np_arr, dtype=self._arr.dtype)
        if src.size != self._arr.size:
            raise InvalidArgument(f"update_inplace: {src.size} elements given, the OrtValue has "
                                  f"{self._arr.size}")
        self._arr.reshape(-1)[...] = src.reshape(-1)

    def shape(self):
        return list(self._arr.shape)

    def data_type(self):
        """'tensor(float)'..."""
        return D.type_string(self.element_type())

    def element_type(self):
        """The ONNX element type (TensorProto.DataType number), as onnxruntime's."""
        if D.is_string_array(self._arr):
            return D.STRING
        return D.FROM_NUMPY.get(self._arr.dtype.newbyteorder("="), 0)

    def data_ptr(self):
        return self._arr.ctypes.data

    def device_name(self):
        return "cpu"

    def is_tensor(self):
        return True

    def has_value(self):
        return True

    def is_tensor_sequence(self):
        return False

    def is_sparse_tensor(self):
        return False

    def __repr__(self):
        return f"OrtValue({self.data_type()}, shape={self.shape()})"


def feed_array(spec, value):
    """A feed that is not a numpy array (a list, a scalar) as an array of the input's declared
    dtype, as onnxruntime converts it (numpy arrays of another dtype are refused instead)."""
    dtype = spec.np if spec.dtype not in (0, D.STRING) else None
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as e:
        raise ShapeError(f"input '{spec.name}': {type(value).__name__} {value!r:.80} cannot be "
                         f"converted to {D.describe(spec.dtype)}: {e}") from None


def cpu(device_type, device_id):
    if str(device_type).lower() != "cpu" or device_id != 0:
        raise InvalidArgument(f"device {device_type!r} {device_id!r}: onnx-scatter has the CPU "
                              "only ('cpu', device_id 0)")


def view(ptr, element_type, shape):
    """The numpy array over caller memory at ptr (IOBinding's raw-pointer binds)."""
    dtype = np.dtype(element_type)
    shape = tuple(int(d) for d in shape)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if n and not ptr:
        raise InvalidArgument("buffer_ptr is 0 for a non-empty buffer")
    raw = (ctypes.c_char * n).from_address(ptr) if n else bytearray()
    return np.frombuffer(raw, dtype).reshape(shape)
