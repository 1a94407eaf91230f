"""_dtypes: osc dtypes <-> numpy dtypes and onnxruntime type strings, and the conversions for
what numpy has no dtype for: strings (osc_string arrays) and the packed 4-bit and 2-bit types."""
import ctypes

import numpy as np

from ._errors import ShapeError
from ._lib import String, lib

STRING = 8
# numpy dtype of each osc dtype. bfloat16 and the float8 kinds travel as their raw bits
# (uint16, uint8); the packed 4-bit and 2-bit kinds as one uint8 per element (the bits in the
# low end), packed and unpacked here.
NUMPY = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
         7: np.int64, 8: np.object_, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
         13: np.uint64, 14: np.complex64, 15: np.complex128, 16: np.uint16, 17: np.uint8,
         18: np.uint8, 19: np.uint8, 20: np.uint8, 21: np.uint8, 22: np.uint8, 23: np.uint8,
         24: np.uint8, 25: np.uint8, 26: np.uint8}
NUMPY = {k: np.dtype(v) for k, v in NUMPY.items()}
PACKED_BITS = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2}
TYPE_STRING = {k: f"tensor({lib.osc_dtype_name(k).decode()})" for k in NUMPY}
# An input the model declares without a dtype takes the array's (the classic types only).
FROM_NUMPY = {v: k for k, v in NUMPY.items() if k <= 15 and k != STRING}


def type_string(dtype):
    """onnxruntime's spelling: 'tensor(float)'; 'seq' and 'optional' for the packed values
    (their item type is not said)."""
    return {60: "seq", 61: "optional"}.get(dtype) or TYPE_STRING.get(dtype, "tensor(undefined)")


def describe(dtype):
    """'tensor(bfloat16) (numpy uint16, raw bits)', for messages."""
    if dtype == STRING:
        return "tensor(string) (numpy str, bytes or object)"
    extra = ", raw bits" if dtype >= 16 and dtype not in PACKED_BITS else ""
    extra = ", one element per byte" if dtype in PACKED_BITS else extra
    if dtype not in NUMPY:
        return type_string(dtype)
    return f"{type_string(dtype)} (numpy {NUMPY[dtype]}{extra})"


def is_string_array(arr):
    return arr.dtype.kind in "USO"


def encode_strings(name, arr):
    """The osc_string table (count pairs of address and length) of a str, bytes or object
    array, as a uint8 view of one block that also holds the bytes it points at (UTF-8 for
    str): binding the view keeps both alive."""
    flat = arr.reshape(-1)
    if arr.dtype.kind == "S":
        parts = flat.tolist()
    else:
        parts = []
        for i, s in enumerate(flat.tolist()):
            if isinstance(s, str):
                s = s.encode("utf-8", "surrogatepass")
            elif not isinstance(s, bytes):
                raise ShapeError(f"input '{name}': element {i} is {type(s).__name__}; a string "
                                 "tensor takes str or bytes elements")
            parts.append(s)
    n = len(parts)
    blob = b"".join(parts)
    block = np.empty(16 * n + len(blob), np.uint8)
    block[16 * n:] = np.frombuffer(blob, np.uint8)
    table = block[:16 * n].view(np.uint64).reshape(n, 2)
    lens = np.fromiter(map(len, parts), np.uint64, n)
    table[:, 1] = lens
    table[:, 0] = block.ctypes.data + 16 * n
    if n:
        table[1:, 0] += np.cumsum(lens[:-1], dtype=np.uint64)
    return block[:16 * n]


def decode_strings(data, count):
    """An object array of str (bytes for elements that are not valid UTF-8) from count
    osc_string at address data."""
    out = np.empty(count, np.object_)
    if count:
        items = (String * count).from_address(data)
        for i, s in enumerate(items):
            b = ctypes.string_at(s.ptr, s.len) if s.len else b""
            try:
                out[i] = b.decode("utf-8")
            except UnicodeDecodeError:
                out[i] = b
    return out


def pack(name, arr, dtype):
    """Packs one-element-per-byte sub-byte values (uint8, only the low bits set) as the C
    library stores them: the first element in the lowest bits."""
    bits = PACKED_BITS[dtype]
    flat = arr.reshape(-1)
    bad = np.flatnonzero(flat >> bits)
    if bad.size:
        raise ShapeError(f"input '{name}': element {bad[0]} is {flat[bad[0]]}; "
                         f"{type_string(dtype)} elements are {bits}-bit patterns in [0, "
                         f"{(1 << bits) - 1}]")
    per = 8 // bits
    padded = np.zeros(-(-flat.size // per) * per, np.uint8)
    padded[:flat.size] = flat
    lanes = padded.reshape(-1, per)
    out = np.zeros(lanes.shape[0], np.uint8)
    for k in range(per):
        out |= lanes[:, k] << (k * bits)
    return out


def unpack(packed, dtype, count):
    """The inverse of pack: one uint8 per element."""
    bits = PACKED_BITS[dtype]
    per = 8 // bits
    out = np.empty((packed.size, per), np.uint8)
    for k in range(per):
        out[:, k] = (packed >> (k * bits)) & ((1 << bits) - 1)
    return out.reshape(-1)[:count]


def checked_dtype(name, arr, dtype):
    """arr with the numpy dtype the osc dtype travels as: an equal dtype in another byte order
    is converted; anything else is refused (no silent cast, as in onnxruntime)."""
    want = NUMPY[dtype]
    if arr.dtype == want:
        return arr
    if arr.dtype.newbyteorder("=") == want:
        return arr.astype(want)
    raise ShapeError(f"input '{name}': expected {describe(dtype)}, given numpy {arr.dtype}")
