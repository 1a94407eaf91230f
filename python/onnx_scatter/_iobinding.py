"""_iobinding: onnxruntime's IOBinding over an InferenceSession: inputs and outputs bound once
(outputs written in place run after run, or allocated once by the session)."""
import numpy as np

from . import _dtypes as D
from . import _values as V
from ._errors import InvalidArgument


class IOBinding:
    """onnxruntime.IOBinding (session.io_binding()): inputs and outputs bound once, runs with
    session.run_with_iobinding(binding). The CPU is the only device."""

    def __init__(self, session):
        self._sess = session
        self._inputs = {}      # name -> array (read afresh at every run: changes are seen)
        self._outputs = {}     # output index -> caller array written in place, or None
        self._allocated = {}   # output index -> the array the session allocated for it
        self._results = []     # the last run's outputs, in binding order

    def _out(self, name):
        return self._sess._output(name)

    def bind_cpu_input(self, name, arr_on_cpu):
        spec = self._sess._by_name.get(name)
        if spec is None:
            raise InvalidArgument(f"the model has no input named {name!r}; its inputs: "
                                  f"{list(self._sess._by_name)}")
        value = arr_on_cpu
        if type(value) is not np.ndarray and spec.dtype not in V.KINDS:
            value = V.feed_array(spec, value)
        self._inputs[name] = value

    def bind_input(self, name, device_type, device_id, element_type, shape, buffer_ptr):
        V.cpu(device_type, device_id)
        self.bind_cpu_input(name, V.view(buffer_ptr, element_type, shape))

    def bind_ortvalue_input(self, name, ortvalue):
        self.bind_cpu_input(name, ortvalue._arr)

    def bind_output(self, name, device_type="cpu", device_id=0, element_type=None, shape=None,
                    buffer_ptr=None):
        """With buffer_ptr: the run writes that output there, run after run (element_type
        and shape must be given). Without: the session allocates it once and reuses it."""
        V.cpu(device_type, device_id)
        o = self._out(name)
        if buffer_ptr is None:
            self._outputs[o] = None
            return
        if element_type is None or shape is None:
            raise InvalidArgument("`element_type` and `shape` are to be provided if "
                                  "pre-allocated memory is provided")
        self._bind_array(o, V.view(buffer_ptr, element_type, shape))

    def bind_ortvalue_output(self, name, ortvalue):
        self._bind_array(self._out(name), ortvalue._arr)

    def _bind_array(self, o, arr):
        spec = self._sess._outputs[o]
        f = arr.flags
        if not spec.plain or arr.dtype != spec.np or not (f.c_contiguous and f.aligned and
                                                           f.writeable):
            raise InvalidArgument(f"output '{spec.name}' ({D.describe(spec.dtype)}) cannot be "
                                  f"bound to a numpy {arr.dtype} array (writable, aligned, "
                                  "C-contiguous, of the output's dtype; strings and packed "
                                  "types are bound by name)")
        self._outputs[o] = arr

    def get_outputs(self):
        """The last run's outputs as OrtValues over the bound (or allocated) arrays."""
        from ._values import OrtValue
        return [OrtValue(a) for a in self._results]

    get_outputs_as_ortvaluevector = get_outputs

    def copy_outputs_to_cpu(self):
        """Copies of the last run's outputs."""
        return [a.copy() if isinstance(a, np.ndarray) else a for a in self._results]

    def clear_binding_inputs(self):
        self._inputs = {}

    def clear_binding_outputs(self):
        self._outputs, self._allocated, self._results = {}, {}, []

    def synchronize_inputs(self):
        """Nothing to do on the CPU."""

    def synchronize_outputs(self):
        """Nothing to do on the CPU."""
