"""_options: SessionOptions and RunOptions with onnxruntime's attribute names, and what each
becomes in the C library's osc_options (docs/python.md has the table)."""
import ctypes
import enum
import threading
import warnings

from ._errors import Cancelled, InvalidArgument, Unsupported, error
from ._lib import MESSAGE_SIZE, DimPin, Options, lib


class GraphOptimizationLevel(enum.IntEnum):
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(enum.IntEnum):
    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


class OptionWarning(UserWarning):
    """An onnxruntime option onnx-scatter accepts but cannot honour."""


# onnxruntime attributes that ask for something onnx-scatter does not do: (default, what
# happens). Set to another value, they are ignored with an OptionWarning.
_IGNORED = {
    "inter_op_num_threads": (0, "nodes run one after another; intra_op_num_threads sets the "
                                "threads of each node"),
    "execution_mode": (ExecutionMode.ORT_SEQUENTIAL, "nodes run one after another"),
    "enable_mem_pattern": (True, "one arena is always planned"),
    "enable_mem_reuse": (True, "the arena planner always reuses memory"),
    "enable_cpu_mem_arena": (True, "one arena is always planned"),
    "log_severity_level": (2, "onnx-scatter writes no log; warnings are Python warnings"),
    "log_verbosity_level": (0, "onnx-scatter writes no log"),
    "logid": ("", "onnx-scatter writes no log"),
}
# Values other than the default that onnx-scatter honours all the same: one node at a time is
# what inter_op_num_threads = 1 asks for.
_ALSO_HONOURED = {"inter_op_num_threads": (1,)}
# set_default_logger_severity: sessions whose log_severity_level is left at 2 take this one.
_default_severity = [2]


def set_default_logger_severity(severity):
    """onnxruntime's: the severity below which messages are dropped (0 verbose, 1 info, 2
    warning, 3 error, 4 fatal) for sessions that do not set their own log_severity_level.
    onnx-scatter's messages are warnings (ModelWarning, OptionWarning): 3 and 4 silence them;
    InferenceSession.get_warnings() still lists the model's."""
    if type(severity) is not int or not 0 <= severity <= 4:
        raise InvalidArgument(f"set_default_logger_severity({severity!r}): the severity is an int "
                              "in [0, 4] (0 verbose, 1 info, 2 warning, 3 error, 4 fatal)")
    _default_severity[0] = severity


def set_default_logger_verbosity(verbosity):
    """onnxruntime's: the verbosity of verbose messages; onnx-scatter writes none."""
    if type(verbosity) is not int or verbosity < 0:
        raise InvalidArgument(f"set_default_logger_verbosity({verbosity!r}): an int >= 0")


class SessionOptions:
    """onnxruntime.SessionOptions. Beyond it: the C library's limits and switches (max_bytes,
    max_arena_bytes, max_fold_bytes, max_nodes, max_rank, max_string_mib, strict, newer_opsets,
    inplace_inputs); graph_optimization_level ORT_DISABLE_ALL turns the load-time fusion off;
    tuning knobs such as fuse_recompute are session config entries by the library's name."""
    __slots__ = ("intra_op_num_threads", "graph_optimization_level", "enable_profiling",
                 "use_deterministic_compute", "optimized_model_filepath", "max_bytes",
                 "max_arena_bytes", "max_fold_bytes", "max_nodes", "max_rank", "max_string_mib",
                 "strict", "newer_opsets", "inplace_inputs", "profile_file_prefix", "_config",
                 "_dims", "_denotations", *_IGNORED)

    def __init__(self):
        self.intra_op_num_threads = 0
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.enable_profiling = False
        self.profile_file_prefix = "onnxruntime_profile_"
        self.use_deterministic_compute = False  # onnx-scatter always is
        self.optimized_model_filepath = ""
        self.max_bytes = 0        # 0: half the memory the process may use; None: no cap
        self.max_arena_bytes = 0  # 0: no cap
        self.max_fold_bytes = 0   # 0: 64 times the model's bytes, at least 64 MiB; None: no cap
        self.max_nodes = 0        # 0: the library's default (50000)
        self.max_rank = 0         # 0: 32
        self.max_string_mib = 0   # 0: 64
        self.strict = False
        self.newer_opsets = False
        self.inplace_inputs = False
        self._config = {}
        self._dims = {}
        self._denotations = {}
        for name, (default, _) in _IGNORED.items():
            setattr(self, name, default)

    def add_session_config_entry(self, key, value):
        """Stored (get_session_config_entry returns it). A key without a dot is an option of
        the C library (option_names(): "fuse_recompute", "threads", ...), set by name with
        osc_options_set when the session is made, after the attributes above; a bad key or
        value raises InvalidArgument here, with the library's message. Dotted keys are
        onnxruntime's ("session.intra_op.allow_spinning"): they tune onnxruntime's internals
        and are ignored with an OptionWarning when the session is made."""
        key, value = str(key), _text(value)
        if _is_library_key(key):
            _set_by_name(Options(), key, value)
        self._config[key] = value

    def add_free_dimension_override_by_name(self, dim_name, dim_value):
        """onnxruntime's: the symbolic dim dim_name (a dim_param of the model's inputs) has size
        dim_value, so the model loads as if exported with that static size (fused, planned
        once); inputs of another size are refused at run (opts.dim_pins). A name no input uses
        raises InvalidArgument when the session is made."""
        self._dims[str(dim_name)] = _dim_size("add_free_dimension_override_by_name", dim_name,
                                              dim_value)

    def add_free_dimension_override_by_denotation(self, dim_denotation, dim_value):
        """onnxruntime's: every symbolic dim of the model's inputs whose denotation (the
        TensorShapeProto.Dimension field, e.g. "DATA_BATCH") is dim_denotation has size
        dim_value. The dims matched are the graph inputs' dims carrying that denotation and a
        dim_param; each such dim_param is pinned as add_free_dimension_override_by_name does
        (so its other uses, in outputs and value_info, follow). A denotation no input dim
        carries with a dim_param raises InvalidArgument when the session is made."""
        self._denotations[str(dim_denotation)] = _dim_size(
            "add_free_dimension_override_by_denotation", dim_denotation, dim_value)

    def get_session_config_entry(self, key):
        return self._config[key]

    def add_initializer(self, name, value):
        raise Unsupported("SessionOptions.add_initializer is not supported: give the value as "
                          "an input of run() (an input with a default can be overridden)")

    def add_external_initializers(self, names, values):
        raise Unsupported("SessionOptions.add_external_initializers is not supported")

    def register_custom_ops_library(self, path):
        raise Unsupported("custom op libraries are not supported: onnx-scatter runs the ops "
                          "of its kernel registry (onnx_scatter.supported_ops())")

    def warns(self):
        """Whether sessions made with these options issue warnings: the log severity in force
        (log_severity_level, or set_default_logger_severity's when left at 2) is 2 or less."""
        severity = self.log_severity_level
        return (_default_severity[0] if severity == 2 else severity) <= 2

    def to_c(self, dim_pins=None):
        """The osc_options these stand for; warns about what is ignored, refuses what cannot be
        honoured."""
        if self.optimized_model_filepath:
            raise Unsupported("SessionOptions.optimized_model_filepath: onnx-scatter does not "
                              "write optimized models (its fusion is made at each load)")
        warn = self.warns()
        for name, (default, why) in _IGNORED.items():
            value = getattr(self, name)
            if value != default and not (name == "log_severity_level" and value > default) \
                    and value not in _ALSO_HONOURED.get(name, ()) and warn:
                warnings.warn(f"SessionOptions.{name} = {value!r} is ignored: {why}",
                              OptionWarning, stacklevel=4)
        for key in self._config:
            if not _is_library_key(key) and warn:
                warnings.warn(f"session config entry {key!r} is ignored", OptionWarning,
                              stacklevel=4)
        o = Options()
        lib.osc_options_init(ctypes.addressof(o))
        fields = [("threads", self.intra_op_num_threads), ("max_arena_bytes", self.max_arena_bytes),
                  ("max_nodes", self.max_nodes), ("max_rank", self.max_rank),
                  ("max_string_mib", self.max_string_mib)]
        fields.append(("max_bytes", 2**64 - 1 if self.max_bytes is None else self.max_bytes))
        fields.append(("max_fold_bytes",
                       2**64 - 1 if self.max_fold_bytes is None else self.max_fold_bytes))
        for field, value in fields:
            _set_int(o, field, value)
        o.strict = bool(self.strict)
        o.profile = bool(self.enable_profiling)
        o.inplace_inputs = int(self.inplace_inputs)
        o.newer_opsets = bool(self.newer_opsets)
        o.no_fusion = self.graph_optimization_level == GraphOptimizationLevel.ORT_DISABLE_ALL
        for key, value in self._config.items():
            if _is_library_key(key):
                _set_by_name(o, key, value)
        dims = dict(dim_pins or {}, **self._dims)
        if dims:  # the array stays alive with o (ctypes keeps what a pointer field holds)
            pins = (DimPin * len(dims))(*[DimPin(k.encode(), v) for k, v in dims.items()])
            o.dim_pins = ctypes.cast(pins, ctypes.POINTER(DimPin))
            o.n_dim_pins = len(dims)
        return o


def _dim_size(call, dim, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidArgument(f"{call}({dim!r}, {value!r}): the size must be an int >= 0")
    return value


def option_names():
    """The C library's options settable by name (osc_option_name): keys of
    SessionOptions.add_session_config_entry."""
    names, i = [], 0
    while (name := lib.osc_option_name(i)) is not None:
        names.append(name.decode())
        i += 1
    return names


def _is_library_key(key):
    return "." not in key


def _text(value):
    """A config value as text: True/False as "1"/"0" (the library's switches), else str()."""
    return ("1" if value else "0") if isinstance(value, bool) else str(value)


def _set_by_name(o, key, value):
    """osc_options_set on o; its failure (unknown key, bad value: the message says which and
    what is allowed) as the matching exception."""
    if "\0" in key or "\0" in value:
        raise InvalidArgument(f"SessionOptions: option {key!r} = {value!r}: a NUL character")
    msg = ctypes.create_string_buffer(MESSAGE_SIZE)
    st = lib.osc_options_set(ctypes.addressof(o), key.encode(), value.encode(), msg, MESSAGE_SIZE)
    if st:
        raise error(st, f"SessionOptions: {msg.value.decode(errors='replace')}")


def _set_int(o, field, value):
    """Sets an integer field, refusing what the field cannot hold (the library checks ranges)."""
    try:
        setattr(o, field, int(value))
        ok = getattr(o, field) == int(value) and int(value) >= 0
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise InvalidArgument(f"SessionOptions: {field!r} is {value!r}; it must be a "
                              "non-negative integer in the field's range")


class RunOptions:
    """onnxruntime.RunOptions: run_tag and the log settings are accepted (onnx-scatter writes no
    log). Setting terminate = True, from any thread, stops the runs using these options
    (osc_session_cancel: before their next node or loop iteration) with Cancelled; a run started
    with terminate already True fails at once."""
    __slots__ = ("log_severity_level", "log_verbosity_level", "logid", "run_tag", "_terminate",
                 "_active", "_lock")

    def __init__(self):
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.run_tag = ""
        self._terminate = False
        self._active = set()  # osc_session handles running with these options
        self._lock = threading.Lock()

    @property
    def terminate(self):
        return self._terminate

    @terminate.setter
    def terminate(self, value):
        with self._lock:
            self._terminate = bool(value)
            if self._terminate:
                for h in self._active:
                    lib.osc_session_cancel(h)

    def _enter(self, h):
        """Before a run on session h."""
        with self._lock:
            if self._terminate:
                raise Cancelled("the run was cancelled: RunOptions.terminate is True")
            self._active.add(h)

    def _leave(self, h):
        """After the run on h; True when a cancel request may still be pending on h (terminate
        was set while it ran): the caller then drops that session."""
        with self._lock:
            self._active.discard(h)
            return self._terminate


def denotation_pins(model, denotations):
    """{dim_param: size} for add_free_dimension_override_by_denotation: the dim_params of the
    graph inputs' dims whose denotation is a key of denotations (model: the ModelProto's bytes).
    A read-only walk of the protobuf wire format over ModelProto.graph (7), GraphProto.input
    (11), ValueInfoProto.type (2), TypeProto.tensor_type (1), its shape (2), the shape's dims
    (1) and each Dimension's dim_param (2) and denotation (3); anything malformed ends the walk
    (the load then says what is wrong)."""
    buf = memoryview(model)
    pins, seen = {}, set()
    try:
        for graph in _sub(buf, 0, len(buf), 7):
            for vi in _sub(buf, *graph, 11):
                for t in _sub(buf, *vi, 2):
                    for tensor in _sub(buf, *t, 1):
                        for shape in _sub(buf, *tensor, 2):
                            for dim in _sub(buf, *shape, 1):
                                param = b"".join(bytes(buf[a:b]) for a, b in _sub(buf, *dim, 2))
                                for a, b in _sub(buf, *dim, 3):
                                    d = bytes(buf[a:b]).decode(errors="replace")
                                    if d in denotations and param:
                                        pins[param.decode(errors="replace")] = denotations[d]
                                        seen.add(d)
    except ValueError:
        pass
    for d in denotations:
        if d not in seen:
            raise InvalidArgument(f"add_free_dimension_override_by_denotation({d!r}): no dim "
                                  "of the model's inputs has that denotation and a dim_param")
    return pins


def _sub(buf, start, end, field):
    """(start, end) of each length-delimited field number `field` in buf[start:end]."""
    i = start
    while i < end:
        tag, i = _varint(buf, i, end)
        wire = tag & 7
        if wire == 0:
            i = _varint(buf, i, end)[1]
        elif wire == 1 or wire == 5:
            i += 8 if wire == 1 else 4
        elif wire == 2:
            n, i = _varint(buf, i, end)
            if i + n > end:
                raise ValueError("truncated")
            if tag >> 3 == field:
                yield i, i + n
            i += n
        else:
            raise ValueError("wire type")
    if i > end:
        raise ValueError("truncated")


def _varint(buf, i, end):
    value = shift = 0
    while True:
        if i >= end or shift > 63:
            raise ValueError("varint")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i
