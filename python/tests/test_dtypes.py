"""test_dtypes: every dtype goes in and comes back (Identity), and the kernels see the elements
where numpy has them (ScatterElements on the classic types, TensorScatter on packed 4-bit
elements): expected values are written by hand."""
import numpy as np
import pytest

import onnx_scatter as ort
from models import T, identity, model, scatter_elements
from onnx import helper

# TensorProto numbers onnx 1.12 has no names for
F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, UINT4, INT4, F4E2M1, F8E8M0, UINT2, INT2 = range(17, 27)

# (TensorProto type, ONNX type string, numpy dtype it travels as, values)
ROUND_TRIP = [
    (T.FLOAT, "tensor(float)", np.float32, [1.5, -2.25, np.inf, 0.0]),
    (T.DOUBLE, "tensor(double)", np.float64, [1e300, -0.5, 3.0, np.nan]),
    (T.FLOAT16, "tensor(float16)", np.float16, [1.5, -65504.0, 0.000061035, 2.0]),
    (T.INT8, "tensor(int8)", np.int8, [-128, 127, 0, 1]),
    (T.INT16, "tensor(int16)", np.int16, [-32768, 32767, 0, 1]),
    (T.INT32, "tensor(int32)", np.int32, [-2**31, 2**31 - 1, 0, 1]),
    (T.INT64, "tensor(int64)", np.int64, [-2**63, 2**63 - 1, 0, 1]),
    (T.UINT8, "tensor(uint8)", np.uint8, [0, 255, 7, 1]),
    (T.UINT16, "tensor(uint16)", np.uint16, [0, 65535, 7, 1]),
    (T.UINT32, "tensor(uint32)", np.uint32, [0, 2**32 - 1, 7, 1]),
    (T.UINT64, "tensor(uint64)", np.uint64, [0, 2**64 - 1, 7, 1]),
    (T.BOOL, "tensor(bool)", np.bool_, [True, False, False, True]),
    (T.COMPLEX64, "tensor(complex64)", np.complex64, [1 + 2j, -3j, 0, 4]),
    (T.COMPLEX128, "tensor(complex128)", np.complex128, [1e200 + 2j, -3j, 0, 4]),
    # raw bits: bfloat16 as uint16 (0x3FC0 is 1.5), the float8 kinds as uint8
    (T.BFLOAT16, "tensor(bfloat16)", np.uint16, [0x3FC0, 0xBF80, 0x7F80, 0]),
    (F8E4M3FN, "tensor(float8e4m3fn)", np.uint8, [0x38, 0xB8, 0x7E, 0]),
    (F8E4M3FNUZ, "tensor(float8e4m3fnuz)", np.uint8, [0x40, 0xC0, 0x7F, 0]),
    (F8E5M2, "tensor(float8e5m2)", np.uint8, [0x3C, 0xBC, 0x7B, 0]),
    (F8E5M2FNUZ, "tensor(float8e5m2fnuz)", np.uint8, [0x40, 0xC0, 0x7F, 0]),
    (F8E8M0, "tensor(float8e8m0)", np.uint8, [0x7F, 0x80, 0xFE, 0]),
    # packed kinds: one uint8 per element, the bit pattern in the low bits
    (UINT4, "tensor(uint4)", np.uint8, [15, 0, 7, 1, 9]),
    (INT4, "tensor(int4)", np.uint8, [15, 8, 7, 1, 0]),
    (F4E2M1, "tensor(float4e2m1)", np.uint8, [0b0010, 0b1111, 0, 3, 5]),
    (UINT2, "tensor(uint2)", np.uint8, [3, 0, 2, 1, 3, 2]),
    (INT2, "tensor(int2)", np.uint8, [3, 0, 2, 1, 1]),
]


@pytest.mark.parametrize("elem,type_string,np_dtype,values", ROUND_TRIP,
                         ids=[r[1] for r in ROUND_TRIP])
def test_round_trip(elem, type_string, np_dtype, values):
    x = np.array(values, np_dtype).reshape(1, -1)
    sess = ort.InferenceSession(identity(elem, list(x.shape)))
    assert sess.get_inputs()[0].type == type_string
    assert sess.get_outputs()[0].type == type_string
    y, = sess.run(None, {"x": x})
    assert y.dtype == np_dtype and y.shape == x.shape
    np.testing.assert_array_equal(y, x)
    assert y.tobytes() == x.tobytes()  # bit for bit (NaN and -0.0 included)


@pytest.mark.parametrize("feed,expected", [
    (np.array(["a", "héllo", "", "z\x00z"]), ["a", "héllo", "", "z\x00z"]),
    (np.array([b"a", b"bytes", b"", b"\xff\xfe"]), ["a", "bytes", "", b"\xff\xfe"]),
    (np.array(["x", b"y", "ü", b""], dtype=object), ["x", "y", "ü", ""]),
], ids=["str", "bytes", "object"])
def test_strings_round_trip(feed, expected):
    """str and bytes in (UTF-8 for str); out an object array of str, bytes where not UTF-8."""
    sess = ort.InferenceSession(identity(T.STRING, [4]))
    y, = sess.run(None, {"x": feed})
    assert y.dtype == np.object_ and y.shape == (4,)
    assert list(y) == expected
    assert [type(v) for v in y] == [type(v) for v in expected]


def test_string_scatter_concatenates():
    sess = ort.InferenceSession(scatter_elements(T.STRING, (4,), (2,), reduction="add"))
    y, = sess.run(None, {"data": np.array(["a", "b", "c", "d"]),
                         "indices": np.array([3, 0]), "updates": np.array(["XY", "Z"])})
    assert list(y) == ["aZ", "b", "c", "dXY"]


# indices [1, 0]: updates[0] goes to y[1], updates[1] to y[0]; y[2] is data[2]
@pytest.mark.parametrize("elem,np_dtype,reduction,data,updates,expected", [
    (T.FLOAT16, np.float16, "add", [1, 2, 3], [0.5, 0.25], [1.25, 2.5, 3]),
    (T.COMPLEX64, np.complex64, "add", [1j, 2, 3], [1, 1j], [2j, 3, 3]),
    (T.BOOL, np.bool_, "add", [False, False, True], [True, False], [False, True, True]),
    (T.BFLOAT16, np.uint16, None, [0x3F80, 0x4000, 0x4040], [0x3F00, 0x3E80],
     [0x3E80, 0x3F00, 0x4040]),
], ids=["float16", "complex64", "bool", "bfloat16"])
def test_scatter_moves_elements(elem, np_dtype, reduction, data, updates, expected):
    sess = ort.InferenceSession(scatter_elements(elem, (3,), (2,), reduction=reduction))
    y, = sess.run(None, {"data": np.array(data, np_dtype), "indices": np.array([1, 0]),
                         "updates": np.array(updates, np_dtype)})
    assert y.dtype == np_dtype
    np.testing.assert_array_equal(y, np.array(expected, np_dtype))


def test_int4_elements_in_place_order():
    """TensorScatter moves int4 elements one by one: the packing must put element k where the
    library reads it (first element in the low nibble)."""
    node = helper.make_node("TensorScatter", ["cache", "update", "idx"], ["y"], axis=-2)
    m = model([node], [("cache", INT4, [1, 5, 1]), ("update", INT4, [1, 2, 1]),
                       ("idx", T.INT64, [1])], [("y", INT4, [1, 5, 1])], opset=24)
    sess = ort.InferenceSession(m)
    cache = np.array([1, 2, 3, 4, 5], np.uint8).reshape(1, 5, 1)
    y, = sess.run(None, {"cache": cache, "update": np.array([14, 9], np.uint8).reshape(1, 2, 1),
                         "idx": np.array([2])})
    np.testing.assert_array_equal(y.reshape(-1), [1, 2, 14, 9, 5])


def test_packed_values_must_fit():
    sess = ort.InferenceSession(identity(INT4, [3]))
    with pytest.raises(ort.ShapeError, match=r"input 'x': element 1 is 16; tensor\(int4\) "
                                             r"elements are 4-bit patterns in \[0, 15\]"):
        sess.run(None, {"x": np.array([1, 16, 2], np.uint8)})


def test_byte_swapped_input_is_converted():
    sess = ort.InferenceSession(identity(T.FLOAT, [3]))
    x = np.array([1.5, -2.0, 3.25], ">f4")
    y, = sess.run(None, {"x": x})
    assert y.dtype == np.float32 and list(y) == [1.5, -2.0, 3.25]


def test_wrong_dtype_is_refused():
    sess = ort.InferenceSession(identity(T.FLOAT, [3]))
    with pytest.raises(ort.ShapeError, match=r"input 'x': expected tensor\(float\) \(numpy "
                                             r"float32\), given numpy float64"):
        sess.run(None, {"x": np.zeros(3)})
    with pytest.raises(ort.ShapeError, match="given numpy <U1"):
        sess.run(None, {"x": np.array(["a", "b", "c"])})
