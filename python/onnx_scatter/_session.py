"""_session: InferenceSession, onnxruntime's session API over one osc_model (loaded once,
immutable, shared) and a pool of osc_sessions, one per thread running it at a time."""
import ctypes
import json
import os
import threading
import time
import warnings

import numpy as np

from . import _dtypes as D
from . import _values as V
from ._errors import InvalidArgument, ShapeError, StateError, error
from ._iobinding import IOBinding
from ._lib import MESSAGE_SIZE, MetaDesc, NodeDesc, Tensor, ValueDesc, lib

# osc_model_node_inplace: the node writes into a caller's input buffer
_INPLACE_INPUT = 2
# end_profiling's trace keeps at most this many runs (onnxruntime stops at 1M events)
_MAX_TRACE_RUNS = 100000
_PROVIDER = "CPUExecutionProvider"
_memmove = ctypes.memmove
_set_input, _run = lib.osc_session_set_input_at, lib.osc_session_run
_set_buffer, _output = lib.osc_session_set_output_buffer, lib.osc_session_output


def _data_ptr_function():
    """A function giving a C-contiguous array's data address. ndarray.ctypes.data costs about
    0.6 us; on CPython the address is the first field after the object header of numpy's
    PyArrayObject (a layout numpy's C ABI fixes), read here in 0.1 us. It is used only when it
    agrees with ndarray.ctypes.data on probe arrays (a view, a fresh one, an empty one)."""
    head = object.__basicsize__
    at = ctypes.c_void_p.from_address

    def fast(a):
        return at(id(a) + head).value or 0

    def slow(a):
        return a.ctypes.data

    probes = (np.arange(6.0), np.arange(12, dtype=np.int8)[3:], np.empty(0))
    return fast if all(fast(p) == slow(p) for p in probes) else slow


data_ptr = _data_ptr_function()


class ModelWarning(UserWarning):
    """A warning of the model's load (a deprecated op, a declared shape the graph does not
    compute); SessionOptions.strict makes them errors."""


class NodeArg:
    """An input or output: name, type ('tensor(float)') and shape (ints, dim_param strings for
    symbolic dims, None for unknown ones; [] when the model gives no shape), as onnxruntime."""
    __slots__ = ("name", "type", "shape")

    def __init__(self, name, type, shape):
        self.name, self.type, self.shape = name, type, shape

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


class ModelMetadata:
    """onnxruntime.ModelMetadata: the ModelProto's producer_name, domain, doc_string
    (description), model_version (version), metadata_props (custom_metadata_map) and the graph's
    name and doc_string (graph_description)."""
    __slots__ = ("producer_name", "producer_version", "graph_name", "domain", "description",
                 "graph_description", "version", "custom_metadata_map")

    def __init__(self, m):
        d = MetaDesc()
        _check(lib.osc_model_meta(m, ctypes.addressof(d)), "osc_model_meta")
        self.producer_name = d.producer_name.decode()
        self.producer_version = d.producer_version.decode()
        self.graph_name = d.graph_name.decode()
        self.domain = d.domain.decode()
        self.description = d.doc_string.decode()
        self.graph_description = d.graph_doc_string.decode()
        self.version = d.model_version
        self.custom_metadata_map = {}
        key, value = ctypes.c_char_p(), ctypes.c_char_p()
        for i in range(d.n_props):
            _check(lib.osc_model_meta_prop(m, i, ctypes.byref(key), ctypes.byref(value)),
                   "osc_model_meta_prop")
            self.custom_metadata_map[key.value.decode()] = value.value.decode()


def _check(status, what):
    if status:
        raise error(status, f"{what} failed")


def _shape(desc):
    if desc.rank < 0:
        return []
    return [desc.dims[k] if desc.dims[k] >= 0 else
            (desc.dim_names[k].decode() if desc.dim_names[k] else None) for k in range(desc.rank)]


class _Value:
    """What a run needs to know of one input or output, worked out once at load."""
    __slots__ = ("index", "name", "dtype", "np", "arg", "has_default", "inplace", "plain",
                 "static_shape")

    def __init__(self, index, desc):
        self.index = index
        self.name = desc.name.decode()
        self.dtype = desc.dtype
        self.np = D.NUMPY.get(desc.dtype)
        self.arg = NodeArg(self.name, D.type_string(desc.dtype), _shape(desc))
        self.has_default = bool(desc.has_default)
        self.inplace = False
        # plain: the numpy array is bound as it is (no string table, no packing)
        self.plain = self.np is not None and desc.dtype != D.STRING and \
            desc.dtype not in D.PACKED_BITS
        shape = self.arg.shape
        static = self.plain and desc.rank >= 0 and all(type(d) is int for d in shape)
        self.static_shape = tuple(shape) if static else None


class _Slot:
    """One osc_session with the tensor views bound to it."""
    __slots__ = ("h", "tensors", "refs", "bound", "buffered", "out", "out_ref")

    def __init__(self, model, inputs):
        h = ctypes.c_void_p()
        _check(lib.osc_session_create(model, ctypes.byref(h)), "osc_session_create")
        self.h = h.value
        self.tensors = [Tensor() for _ in inputs]
        for t, spec in zip(self.tensors, inputs):
            t.dtype = spec.dtype
        self.refs = [ctypes.addressof(t) for t in self.tensors]
        self.bound = [False] * len(inputs)
        self.buffered = set()
        self.out = Tensor()
        self.out_ref = ctypes.addressof(self.out)

    def free(self):
        if self.h:
            lib.osc_session_free(self.h)
            self.h = None


class InferenceSession:
    """onnxruntime.InferenceSession over onnx-scatter. One loaded model; run() may be called
    from several threads at once (each takes an osc_session of its own, and releases the GIL
    while the graph runs)."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None,
                 **kwargs):
        from ._options import SessionOptions, denotation_pins
        self._model, self._free, self._slots = None, [], []
        self._options = sess_options if sess_options is not None else SessionOptions()
        self._provider_options = self._check_providers(providers, provider_options, kwargs)
        self._enable_fallback = True
        if hasattr(path_or_bytes, "SerializeToString"):  # an onnx.ModelProto
            path_or_bytes = path_or_bytes.SerializeToString()
        pins = None
        if self._options._denotations:
            pins = denotation_pins(_model_bytes(path_or_bytes), self._options._denotations)
        opts = self._options.to_c(pins)
        t0 = time.monotonic_ns()
        self._model = self._load(path_or_bytes, opts)
        load_ns = time.monotonic_ns() - t0
        m = self._model
        self._inputs = [self._describe(lib.osc_model_input, i) for i in
                        range(lib.osc_model_input_count(m))]
        self._outputs = [self._describe(lib.osc_model_output, i) for i in
                         range(lib.osc_model_output_count(m))]
        self._by_name = {v.name: v for v in self._inputs}
        self._out_index = {v.name: v.index for v in self._outputs}
        self._all_outputs = list(range(len(self._outputs)))
        self._nodes = self._read_nodes()
        self._mark_inplace(bool(opts.inplace_inputs))
        # Outputs get a fresh caller array per run (no copy) when their shape is known at load:
        # a static plan exists (arena > 0) and no default is overridden (checked per run).
        self._static = lib.osc_model_arena_bytes(m) > 0
        self._profiling = bool(opts.profile)
        self._profile = None
        # enable_profiling: the events of end_profiling()'s trace, times from self._t0
        self._t0 = t0 if self._profiling else 0
        self._trace = [] if self._profiling else None
        if self._profiling:
            self._trace.append(("session_initialization", 0, load_ns, None))
        self._warnings = [lib.osc_model_warning(m, i).decode(errors="replace")
                          for i in range(lib.osc_model_warning_count(m))]
        if self._options.warns():
            for w in self._warnings:
                warnings.warn(w, ModelWarning, stacklevel=2)
        self._free.append(self._new_slot())

    @staticmethod
    def _check_providers(providers, provider_options, kwargs):
        """The CPU provider's options as given (names as onnxruntime takes them: a name, or a
        (name, options) tuple, or names with a parallel provider_options list), values as str
        as onnxruntime stores them; other providers warn and are dropped."""
        pairs = []
        if provider_options is not None:
            if providers is None or len(providers) != len(provider_options):
                raise InvalidArgument("'providers' and 'provider_options' should be the same "
                                      "length if both are given")
            pairs = list(zip(providers, provider_options))
        else:
            for p in providers or ():
                pairs.append(tuple(p) if isinstance(p, (tuple, list)) and len(p) == 2 else (p, {}))
        given = {}
        for name, options in pairs:
            if not isinstance(name, str) or not isinstance(options, dict):
                raise InvalidArgument("'providers' values must be either strings or (string, "
                                      f"dict) tuples, not {(name, options)!r}")
            if name != _PROVIDER:
                warnings.warn(f"provider {name!r} is not available; onnx-scatter runs on "
                              f"{_PROVIDER}", RuntimeWarning, stacklevel=3)
            elif name not in given:
                given[name] = {str(k): str(v) for k, v in options.items()}
        for key in kwargs:
            warnings.warn(f"InferenceSession argument {key!r} is ignored", RuntimeWarning,
                          stacklevel=3)
        return given.get(_PROVIDER, {})

    @staticmethod
    def _load(src, opts):
        h = ctypes.c_void_p()
        msg = ctypes.create_string_buffer(MESSAGE_SIZE)
        if isinstance(src, (bytes, bytearray, memoryview)):
            data = bytes(src)
            st = lib.osc_model_load_buffer(data, len(data), None, ctypes.addressof(opts),
                                           ctypes.byref(h), msg, MESSAGE_SIZE)
        elif isinstance(src, (str, os.PathLike)):
            st = lib.osc_model_load_file(os.fsencode(src), ctypes.addressof(opts),
                                         ctypes.byref(h), msg, MESSAGE_SIZE)
        else:
            raise InvalidArgument("InferenceSession takes a model path or the model's bytes, "
                                  f"not {type(src).__name__}")
        if st:
            raise error(st, msg.value.decode(errors="replace"))
        return h.value

    def _describe(self, call, i):
        d = ValueDesc()
        _check(call(self._model, i, ctypes.addressof(d)), call.__name__)
        return _Value(i, d)

    def _read_nodes(self):
        nodes = []
        d = NodeDesc()
        for i in range(lib.osc_model_node_count(self._model)):
            _check(lib.osc_model_node(self._model, i, ctypes.addressof(d)), "osc_model_node")
            op = d.op_type.decode()
            name = d.name.decode() if d.name else ""
            nodes.append({"index": i, "name": name or f"#{i} {op}", "op_type": op,
                          "since_version": d.since_version, "folded": bool(d.folded),
                          "input0": d.inputs[0].decode() if d.n_inputs else "",
                          "outputs": [d.outputs[k].decode() for k in range(d.n_outputs)]})
        return nodes

    def _mark_inplace(self, on):
        """With opts.inplace_inputs: which inputs runs write into, and which outputs are
        computed there (those are returned as the input's array, never given a buffer)."""
        outputs = set()
        mode = ctypes.c_int32()
        for n in self._nodes if on else ():
            _check(lib.osc_model_node_inplace(self._model, n["index"], ctypes.byref(mode)),
                   "osc_model_node_inplace")
            if mode.value != _INPLACE_INPUT:
                continue
            if n["input0"] in self._by_name:
                self._by_name[n["input0"]].inplace = True
            outputs.update(self._out_index[o] for o in n["outputs"] if o in self._out_index)
        for o in outputs:
            self._outputs[o].static_shape = None

    def _new_slot(self):
        slot = _Slot(self._model, self._inputs)
        self._slots.append(slot)
        return slot

    def __del__(self):
        for slot in getattr(self, "_slots", ()):
            slot.free()
        if getattr(self, "_model", None) and lib is not None:
            lib.osc_model_free(self._model)
            self._model = None

    # ---- onnxruntime's API ----
    def get_inputs(self):
        """Inputs to feed (those without a default), as onnxruntime lists them."""
        return [v.arg for v in self._inputs if not v.has_default]

    def get_overridable_initializers(self):
        """Inputs backed by an initializer: fed, they override it."""
        return [v.arg for v in self._inputs if v.has_default]

    def get_outputs(self):
        return [v.arg for v in self._outputs]

    def get_modelmeta(self):
        return ModelMetadata(self._model)

    def get_providers(self):
        return [_PROVIDER]

    def get_provider_options(self):
        """{'CPUExecutionProvider': the options given for it}, values as str."""
        return {_PROVIDER: dict(self._provider_options)}

    def set_providers(self, providers=None, provider_options=None):
        self._provider_options = self._check_providers(providers, provider_options, {})

    def get_session_options(self):
        return self._options

    def disable_fallback(self):
        """onnxruntime's: no retry on another provider after a provider failure. There is one
        provider here, so runs are the same either way; the setting is kept."""
        self._enable_fallback = False

    def enable_fallback(self):
        self._enable_fallback = True

    def run(self, output_names, input_feed, run_options=None, *, donate=(), unchanged=()):
        """The outputs named (all when None or empty), in that order, as numpy arrays the
        caller owns. donate: names of inputs whose arrays the run may write into
        (SessionOptions.inplace_inputs); their output comes back as that same array.
        unchanged: names of inputs holding the same bytes as in the last run
        (osc_session_input_unchanged: checked, a changed one raises InvalidArgument)."""
        outs = self._all_outputs if not output_names else [self._output(n) for n in output_names]
        return self._pooled(input_feed, outs, run_options, donate, unchanged)

    def run_with_ort_values(self, output_names, input_dict_ort_values, run_options=None):
        """run() with OrtValue inputs and outputs (the OrtValues view numpy arrays)."""
        from ._values import OrtValue
        feed = {k: v._arr if isinstance(v, OrtValue) else v
                for k, v in input_dict_ort_values.items()}
        return [OrtValue(a) for a in self.run(output_names, feed, run_options)]

    def io_binding(self):
        """An IOBinding of this session (run_with_iobinding runs it)."""
        return IOBinding(self)

    def run_with_iobinding(self, iobinding, run_options=None):
        """Runs on the inputs and outputs bound in iobinding: outputs bound to a caller's
        buffer are written there, run after run; outputs bound by name are allocated by the
        session once and reused while their shape stays (iobinding.get_outputs())."""
        if getattr(iobinding, "_sess", None) is not self:
            raise InvalidArgument("run_with_iobinding takes an IOBinding of this session "
                                  "(session.io_binding())")
        outs = list(iobinding._outputs)
        if not outs:
            raise InvalidArgument("run_with_iobinding: no output is bound (bind_output)")
        bound = {o: a for o, a in iobinding._outputs.items() if a is not None}
        results = self._pooled(iobinding._inputs, outs, run_options, (), (), bound,
                               iobinding._allocated)
        iobinding._results = results

    def end_profiling(self):
        """onnxruntime's: writes the runs profiled since the session was made as a Chrome trace
        (the JSON array of trace events onnxruntime writes) in PREFIX_DATE_TIME.json in the
        current folder (PREFIX: SessionOptions.profile_file_prefix), returns that path and stops
        profiling (get_profile() still gives the last run). "" without enable_profiling or
        after the first call."""
        if self._trace is None:
            return ""
        events, self._trace = self._trace, None
        path = f"{self._options.profile_file_prefix}_{time.strftime('%Y-%m-%d_%H-%M-%S')}.json"
        with open(path, "w") as f:
            json.dump(self._trace_events(events), f, separators=(",", ":"))
        return path

    def get_profiling_start_time_ns(self):
        """onnxruntime's: when profiling started (time.monotonic_ns()), 0 without
        enable_profiling."""
        return self._t0

    def _pooled(self, input_feed, outs, run_options, donate, unchanged, out_arrays=None,
                allocated=None):
        """_run on an osc_session of the pool (a new one when all are in use)."""
        try:
            slot = self._free.pop()
        except IndexError:
            slot = self._new_slot()
        stale = False
        try:
            if run_options is None:
                return self._run(slot, input_feed, outs, donate, unchanged, out_arrays,
                                 allocated)
            run_options._enter(slot.h)
            try:
                return self._run(slot, input_feed, outs, donate, unchanged, out_arrays,
                                 allocated)
            finally:
                stale = run_options._leave(slot.h)
        finally:
            if stale:  # a cancel request may wait on this session: its next run would stop
                self._slots.remove(slot)
                slot.free()
            else:
                self._free.append(slot)

    # ---- beyond onnxruntime ----
    def get_warnings(self):
        """The model's load warnings (also issued as ModelWarning when it was loaded)."""
        return list(self._warnings)

    def get_inplace_inputs(self):
        """Inputs a run writes into (SessionOptions.inplace_inputs): run(donate=...) names them;
        those not donated are copied first."""
        return [v.name for v in self._inputs if v.inplace]

    def get_profile(self):
        """Per-node times of the last completed run (SessionOptions.enable_profiling): one dict
        per node in execution order: index, name (the model's, or '#INDEX OP'), op_type,
        since_version, folded (computed at load, does not run) and ns."""
        if not self._profiling:
            raise StateError("no profile: create the session with "
                             "SessionOptions.enable_profiling = True")
        if self._profile is None:
            raise StateError("no profile yet: no run has completed")
        return [dict(p) for p in self._profile]

    # ---- the run ----
    def _output(self, name):
        try:
            return self._out_index[name]
        except (KeyError, TypeError):
            raise InvalidArgument(f"the model has no output named {name!r}; its outputs: "
                                  f"{list(self._out_index)}") from None

    def _fail(self, slot, status):
        raise error(status, lib.osc_session_error(slot.h).decode(errors="replace"))

    def _run(self, slot, feed, outs, donate, unchanged, out_arrays=None, allocated=None):
        """One run on slot. out_arrays: {output index: caller array} written in place (IOBinding);
        allocated: {output index: array} of outputs the session allocates once and reuses,
        updated here (IOBinding outputs bound by name)."""
        by_name = self._by_name
        static = self._static
        try:
            items = feed.items()
        except AttributeError:
            raise InvalidArgument("input_feed must be a dict of input name -> numpy array, not "
                                  f"{type(feed).__name__}") from None
        if donate:
            self._check_donate(donate, feed)
        h, tensors, refs, bound = slot.h, slot.tensors, slot.refs, slot.bound
        keep = []         # what the session points into, alive until the run ends
        inplace = {}      # data address -> array of inputs the run may write into
        fed = set()       # indices of the inputs this feed binds (a name given twice: once)
        for name, value in items:
            spec = by_name.get(name)
            if spec is None:
                raise InvalidArgument(f"the model has no input named {name!r}; its inputs: "
                                      f"{list(by_name)}")
            i = spec.index
            fed.add(i)
            t = tensors[i]
            if spec.dtype in V.KINDS:  # a list, None or an element: packed (a copy)
                packed = V.from_python(name, spec.dtype, value, keep)
                ctypes.pointer(t)[0] = packed
                data = ptr = None
                st = _set_input(h, i, refs[i])
                if st:
                    self._fail(slot, st)
                bound[i] = True
                static = False
                continue
            arr = value if type(value) is np.ndarray else V.feed_array(spec, value)
            flags = arr.flags
            if arr.dtype is spec.np and spec.plain and flags.c_contiguous and flags.aligned \
                    and not spec.inplace:
                data, shape = arr, arr.shape
            else:
                data, shape = self._convert(spec, arr, t, name in donate)
            t.rank = len(shape)
            t.dims[:len(shape)] = shape
            t.data = ptr = data_ptr(data)
            t.nbytes = data.nbytes
            st = _set_input(h, i, refs[i])
            if st:
                self._fail(slot, st)
            bound[i] = True
            keep.append(data)
            if spec.has_default:
                static = False
            if spec.inplace:
                inplace[ptr] = data
        if len(fed) != len(bound):
            # Every run binds its inputs afresh: a binding of an earlier run points into an
            # array that may be gone, so what this feed does not give is unbound (an input
            # with a default uses it again), and a required one missing is an error.
            for i, was in enumerate(bound):
                if was and i not in fed:
                    _check(lib.osc_session_unbind_input(h, i), "osc_session_unbind_input")
                    bound[i] = False
            missing = [v.name for v in self._inputs if not v.has_default and v.index not in fed]
            if missing:
                raise InvalidArgument(f"required inputs {missing} are missing from the input "
                                      f"feed {[self._inputs[i].name for i in sorted(fed)]}")
        for name in unchanged:
            spec = by_name.get(name)
            if spec is None or spec.index not in fed:
                raise InvalidArgument(f"unchanged names {name!r}, which is not an input this "
                                      f"feed gives: {[self._inputs[i].name for i in sorted(fed)]}")
            _check(lib.osc_session_input_unchanged(h, spec.index), "osc_session_input_unchanged")
        given = dict(out_arrays) if out_arrays else {}
        outputs = self._outputs
        if out_arrays and static:
            for o, arr in out_arrays.items():
                shape = outputs[o].static_shape
                if shape is not None and shape != arr.shape:
                    raise InvalidArgument(f"output '{outputs[o].name}' is bound to an array of "
                                          f"shape {arr.shape}; the output's shape is {shape}")
        if static:
            for o in outs:
                shape = outputs[o].static_shape
                if shape is not None and o not in given:
                    arr = allocated.get(o) if allocated is not None else None
                    if arr is None or arr.shape != shape:
                        arr = np.empty(shape, outputs[o].np)
                        if allocated is not None:
                            allocated[o] = arr
                    given[o] = arr
        for o, arr in given.items():
            st = _set_buffer(h, o, data_ptr(arr), arr.nbytes)
            if st:
                self._fail(slot, st)
        if slot.buffered:
            for o in slot.buffered.difference(given):
                _set_buffer(h, o, None, 0)  # that array now belongs to a caller
            slot.buffered = set(given)
        elif given:
            slot.buffered = set(given)
        t0 = time.monotonic_ns() if self._profiling else 0
        st = _run(h)
        if st:
            self._fail(slot, st)
        if self._profiling:
            dur = time.monotonic_ns() - t0
            self._profile = [dict(n, ns=lib.osc_session_node_ns(h, n["index"]))
                             for n in self._public_nodes()]
            trace = self._trace
            if trace is not None and len(trace) < _MAX_TRACE_RUNS:
                trace.append(("model_run", t0 - self._t0, dur, [p["ns"] for p in self._profile]))
        out, out_ref = slot.out, slot.out_ref
        result = []
        for o in outs:
            st = _output(h, o, out_ref)
            if st:
                self._fail(slot, st)
            arr = given.get(o)
            if arr is None or out.rank != arr.ndim or tuple(out.dims[:out.rank]) != arr.shape:
                if out_arrays and o in out_arrays:
                    raise InvalidArgument(f"output '{outputs[o].name}' is bound to an array of "
                                          f"shape {out_arrays[o].shape}; the run computed shape "
                                          f"{tuple(out.dims[:out.rank])}")
                arr = self._copy_out(out, inplace, allocated.get(o) if allocated else None)
                if allocated is not None:
                    allocated[o] = arr
            result.append(arr)
        return result

    def _trace_events(self, events):
        """end_profiling's Chrome trace: onnxruntime's event layout ("cat" "Session" for the
        load and each run, "Node" for each node that ran, "<node>_kernel_time", times in us
        from get_profiling_start_time_ns()). The library times each node, not its start: the
        nodes of a run are laid end to end from the run's start."""
        pid, tid = os.getpid(), threading.get_native_id()
        nodes = list(self._public_nodes())
        out = []
        for name, ts, dur, node_ns in events:
            out.append({"cat": "Session", "pid": pid, "tid": tid, "dur": dur // 1000,
                        "ts": ts // 1000, "ph": "X", "name": name, "args": {}})
            at = ts
            for n, ns in zip(nodes, node_ns or ()):
                if n["folded"]:
                    continue
                out.append({"cat": "Node", "pid": pid, "tid": tid, "dur": ns // 1000,
                            "ts": at // 1000, "ph": "X", "name": f"{n['name']}_kernel_time",
                            "args": {"op_name": n["op_type"], "provider": _PROVIDER,
                                     "node_index": str(n["index"]),
                                     "kernel_version": n["since_version"]}})
                at += ns
        return out

    def _public_nodes(self):
        return ({k: n[k] for k in ("index", "name", "op_type", "since_version", "folded")}
                for n in self._nodes)

    def _check_donate(self, donate, feed):
        if isinstance(donate, str):
            donate = (donate,)
        for name in donate:
            if name not in feed:
                raise InvalidArgument(f"donated input {name!r} is not in the input feed")
            if not self._by_name[name].inplace:
                raise InvalidArgument(
                    f"input {name!r} cannot be donated: no node writes it in place (inputs "
                    f"written in place: {self.get_inplace_inputs()}; they need "
                    "SessionOptions.inplace_inputs = True)")

    @staticmethod
    def _convert(spec, arr, t, donated):
        """The array to bind for an input that cannot be bound as given, and its logical shape.
        Sets t.dtype for inputs the model declares without one."""
        name, dtype = spec.name, spec.dtype
        if dtype == 0:
            if D.is_string_array(arr):
                dtype = D.STRING
            elif arr.dtype.newbyteorder("=") in D.FROM_NUMPY:
                dtype = D.FROM_NUMPY[arr.dtype.newbyteorder("=")]
            else:
                raise InvalidArgument(f"input {name!r}: numpy {arr.dtype} has no ONNX type")
            t.dtype = dtype
        if dtype == D.STRING:
            if not D.is_string_array(arr):
                raise ShapeError(f"input '{name}': expected {D.describe(dtype)}, given numpy "
                                 f"{arr.dtype}")
            return D.encode_strings(name, arr), arr.shape
        if donated:
            ok = type(arr) is np.ndarray and arr.dtype == spec.np and arr.flags.c_contiguous \
                and arr.flags.aligned and arr.flags.writeable
            if not ok:
                raise InvalidArgument(f"donated input '{name}' must be a writable, aligned, "
                                      f"C-contiguous numpy {spec.np} array (given {arr.dtype}, "
                                      f"flags {arr.flags.c_contiguous=}, {arr.flags.aligned=}, "
                                      f"{arr.flags.writeable=})")
            return arr, arr.shape
        arr = D.checked_dtype(name, arr, dtype)
        if dtype in D.PACKED_BITS:
            return D.pack(name, arr, dtype), arr.shape
        if spec.inplace or not (arr.flags.c_contiguous and arr.flags.aligned):
            # a copy: C order, aligned (a fresh array), and the caller's array stays untouched
            # when a node writes into it
            arr = np.array(arr, order="C", copy=True)
        return arr, arr.shape

    @staticmethod
    def _copy_out(t, inplace, reuse=None):
        """Output t (osc_session_output) as an array the caller owns: the input array it was
        computed in, or a copy out of the session's memory (into reuse when it is an array of
        that dtype and shape)."""
        dtype, shape = t.dtype, tuple(t.dims[:t.rank])
        if dtype in V.KINDS:
            return V.to_python(t)
        count = int(np.prod(shape, dtype=np.int64))
        if dtype == D.STRING:
            return D.decode_strings(t.data, count).reshape(shape)
        arr = inplace.get(t.data)
        if arr is not None and arr.dtype == D.NUMPY[dtype] and arr.size == count:
            return arr if arr.shape == shape else arr.reshape(shape)
        if dtype in D.PACKED_BITS:
            raw = np.empty(t.nbytes, np.uint8)
            if t.nbytes:
                _memmove(data_ptr(raw), t.data, t.nbytes)
            return D.unpack(raw, dtype, count).reshape(shape)
        arr = reuse
        if arr is None or arr.dtype != D.NUMPY[dtype] or arr.shape != shape:
            arr = np.empty(shape, D.NUMPY[dtype])
        if t.nbytes:
            _memmove(data_ptr(arr), t.data, t.nbytes)
        return arr


def _model_bytes(src):
    """The model's bytes (read from the file for a path), for denotation_pins."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        return src
    if isinstance(src, (str, os.PathLike)):
        try:
            with open(src, "rb") as f:
                return f.read()
        except OSError:
            return b""  # the load says what is wrong with the file
    return b""
