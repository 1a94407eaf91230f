"""_lib: loads libonnxscatter and declares the C API's structs and calls for ctypes.

The structs mirror include/onnx_scatter.h field for field, reserved tails included;
python/tests/test_abi.py compares them with the C layout (sizeof, offsetof) and the header.

The library is the file next to this package (the build tree and `cmake --install` put it
there), or the one the environment variable ONNX_SCATTER_LIBRARY names. Every call goes through
ctypes.CDLL, which releases the GIL for the duration of each foreign call.
"""
import ctypes
import os

from ._version import ABI

MAX_RANK = 32
MESSAGE_SIZE = 512

c_int32, c_int64 = ctypes.c_int32, ctypes.c_int64
c_uint8, c_uint64 = ctypes.c_uint8, ctypes.c_uint64
c_size_t, c_void_p, c_char_p = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_char_p


class Tensor(ctypes.Structure):
    _fields_ = [("dtype", c_int32), ("rank", c_int32), ("dims", c_int64 * MAX_RANK),
                ("data", c_void_p), ("nbytes", c_size_t)]


class String(ctypes.Structure):
    _fields_ = [("ptr", c_void_p), ("len", c_size_t)]


class DimPin(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("size", c_int64)]


class Options(ctypes.Structure):
    _fields_ = [("alloc", c_void_p), ("alloc_ud", c_void_p), ("max_bytes", c_uint64),
                ("strict", c_int32), ("profile", c_int32), ("inplace_inputs", c_int32),
                ("threads", c_int32), ("max_arena_bytes", c_uint64), ("max_nodes", c_int32),
                ("max_rank", c_uint8), ("max_string_mib", c_uint8), ("newer_opsets", c_uint8),
                ("no_fusion", c_uint8), ("fuse_recompute", c_uint8),
                ("reserved", c_uint8 * 6), ("dim_pins", ctypes.POINTER(DimPin)),
                ("n_dim_pins", c_size_t), ("max_iterations", c_uint64),
                ("max_fold_bytes", c_uint64), ("reserved_ext", c_uint64 * 2)]


class ValueDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("dtype", c_int32), ("rank", c_int32),
                ("dims", c_int64 * MAX_RANK), ("dim_names", c_char_p * MAX_RANK),
                ("has_default", c_int32)]


class RuleSlot(ctypes.Union):  # the C struct's anonymous union in reserved element 0
    _fields_ = [("value", c_char_p), ("reserved0", c_uint64)]


class NotFusedSlot(ctypes.Union):  # and in reserved element 1
    _fields_ = [("value", c_char_p), ("reserved1", c_uint64)]


class NodeDesc(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("op_type", c_char_p), ("domain", c_char_p),
                ("since_version", c_int64), ("opset", c_int64), ("n_inputs", c_int32),
                ("inputs", ctypes.POINTER(c_char_p)), ("n_outputs", c_int32),
                ("outputs", ctypes.POINTER(c_char_p)), ("folded", c_int32), ("n_fused", c_int32),
                ("fused_names", ctypes.POINTER(c_char_p)), ("fused_ops", ctypes.POINTER(c_char_p)),
                ("fused_rule", RuleSlot), ("not_fused", NotFusedSlot),
                ("reserved", c_uint64 * 6)]


class MetaDesc(ctypes.Structure):
    _fields_ = [("producer_name", c_char_p), ("producer_version", c_char_p), ("domain", c_char_p),
                ("model_version", c_int64), ("doc_string", c_char_p), ("graph_name", c_char_p),
                ("graph_doc_string", c_char_p), ("n_props", c_size_t)]


class OpDesc(ctypes.Structure):
    _fields_ = [("domain", c_char_p), ("op_type", c_char_p), ("since_version", c_int64),
                ("until_version", c_int64), ("min_inputs", c_int32), ("max_inputs", c_int32),
                ("n_outputs", c_int32), ("deprecated", c_int32), ("min_outputs", c_int32),
                ("reserved", c_uint64 * 4)]


P = c_void_p
# name: (restype, argtypes); handles and struct pointers are passed as c_void_p
_PROTOTYPES = {
    "osc_version": (c_char_p, []),
    "osc_dtype_name": (c_char_p, [c_int32]),
    "osc_options_init": (None, [P]),
    "osc_options_set": (c_int32, [P, c_char_p, c_char_p, c_char_p, c_size_t]),
    "osc_options_get": (c_int32, [P, c_char_p, P]),
    "osc_option_name": (c_char_p, [c_size_t]),
    "osc_model_load_file": (c_int32, [c_char_p, P, P, c_char_p, c_size_t]),
    "osc_model_load_buffer": (c_int32, [c_char_p, c_size_t, c_char_p, P, P, c_char_p, c_size_t]),
    "osc_model_free": (None, [P]),
    "osc_model_input_count": (c_size_t, [P]),
    "osc_model_output_count": (c_size_t, [P]),
    "osc_model_input": (c_int32, [P, c_size_t, P]),
    "osc_model_output": (c_int32, [P, c_size_t, P]),
    "osc_model_node_count": (c_size_t, [P]),
    "osc_model_node": (c_int32, [P, c_size_t, P]),
    "osc_model_node_inplace": (c_int32, [P, c_size_t, P]),
    "osc_model_arena_bytes": (c_uint64, [P]),
    "osc_model_warning_count": (c_size_t, [P]),
    "osc_model_warning": (c_char_p, [P, c_size_t]),
    "osc_model_meta": (c_int32, [P, P]),
    "osc_model_meta_prop": (c_int32, [P, c_size_t, P, P]),
    "osc_op_count": (c_size_t, []),
    "osc_op_at": (c_int32, [c_size_t, P]),
    "osc_session_create": (c_int32, [P, P]),
    "osc_session_free": (None, [P]),
    "osc_session_set_input_at": (c_int32, [P, c_size_t, P]),
    "osc_session_unbind_input": (c_int32, [P, c_size_t]),
    "osc_session_input_unchanged": (c_int32, [P, c_size_t]),
    "osc_session_set_output_buffer": (c_int32, [P, c_size_t, P, c_size_t]),
    "osc_session_run": (c_int32, [P]),
    "osc_session_cancel": (c_int32, [P]),
    "osc_session_output": (c_int32, [P, c_size_t, P]),
    "osc_session_node_ns": (c_uint64, [P, c_size_t]),
    "osc_session_error": (c_char_p, [P]),
    "osc_value_pack": (c_int32, [c_int32, c_int32, P, c_size_t, P, c_char_p, c_size_t]),
    "osc_value_count": (c_int32, [P, P, P]),
    "osc_value_item": (c_int32, [P, c_size_t, P]),
    "osc_tensor_free_data": (None, [P]),
}


def _find():
    path = os.environ.get("ONNX_SCATTER_LIBRARY")
    if path:
        return path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libonnxscatter.so")


def _load():
    path = _find()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"onnx_scatter: cannot load the C library {path!r} ({e}); build it "
                          "(cmake --build BUILD) and set PYTHONPATH=BUILD/python, or set "
                          "ONNX_SCATTER_LIBRARY to its path") from None
    for name, (restype, argtypes) in _PROTOTYPES.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            raise ImportError(f"onnx_scatter: {path!r} has no {name}: the library is older "
                              f"than this package (ABI {ABI})") from None
        f.restype, f.argtypes = restype, argtypes
    version = lib.osc_version().decode()
    if version.rsplit(".", 1)[0] != ABI:
        raise ImportError(f"onnx_scatter: {path!r} is version {version}; this package needs "
                          f"{ABI}.x")
    return lib, path


lib, path = _load()
