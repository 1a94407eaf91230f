"""mini_eval.py: a small numpy evaluator for the ONNX graphs gen_torch_models.py exports.

It exists to check the exporter, not onnx-scatter: before a folder is written, the generator runs
the exported graph here on the test inputs and compares with what torch computed. A graph the
tracer got wrong (a baked-in shape or index) is then reported as such instead of becoming a test
that the runtime can never pass. Only the ops and attributes these exports use are implemented;
anything else raises NotImplementedError, which the generator reports.
"""
import struct

import numpy as np

# TensorProto.DataType -> numpy dtype
NP_DTYPE = {1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16, 6: np.int32, 7: np.int64,
            9: np.bool_, 10: np.float16, 11: np.float64}


def _read_varint(buf, i):
    v = shift = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def fields(buf):
    """Fields of a protobuf message: {field_number: [(wire_type, value), ...]}."""
    out, i = {}, 0
    while i < len(buf):
        key, i = _read_varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            val, i = _read_varint(buf, i)
        elif wire == 1:
            val, i = bytes(buf[i:i + 8]), i + 8
        elif wire == 2:
            n, i = _read_varint(buf, i)
            val, i = bytes(buf[i:i + n]), i + n
        elif wire == 5:
            val, i = bytes(buf[i:i + 4]), i + 4
        else:
            raise ValueError("unsupported wire type %d" % wire)
        out.setdefault(field, []).append((wire, val))
    return out


def _s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _ints(entries):
    """A repeated int64 field, packed or not."""
    out = []
    for wire, val in entries:
        if wire == 2:
            i = 0
            while i < len(val):
                v, i = _read_varint(val, i)
                out.append(_s64(v))
        else:
            out.append(_s64(val))
    return out


def _str(f, n, default=""):
    return f[n][0][1].decode() if n in f else default


def tensor(buf):
    """TensorProto -> (name, numpy array)."""
    f = fields(buf)
    dims = _ints(f.get(1, []))
    dt = NP_DTYPE[f[2][0][1]]
    if 9 in f:
        a = np.frombuffer(f[9][0][1], dtype=np.dtype(dt).newbyteorder("<")).astype(dt)
    elif 4 in f:
        a = np.array([x for w, v in f[4] for x in struct.unpack("<%df" % (len(v) // 4), v)], dt)
    elif 7 in f:
        a = np.array(_ints(f[7]), dt)
    elif 5 in f:
        a = np.array(_ints(f[5]), dt)
    elif 10 in f:
        a = np.array([x for w, v in f[10] for x in struct.unpack("<%dd" % (len(v) // 8), v)], dt)
    else:
        a = np.zeros(0, dt)
    return _str(f, 8), a.reshape(dims)


def _attr(buf):
    f = fields(buf)
    name = _str(f, 1)
    if 5 in f:
        return name, tensor(f[5][0][1])[1]
    if 8 in f:
        return name, _ints(f[8])
    if 4 in f:
        return name, f[4][0][1].decode()
    if 3 in f:
        return name, _s64(f[3][0][1])
    if 2 in f:
        return name, struct.unpack("<f", f[2][0][1])[0]
    if 20 in f and f[20][0][1] == 7:  # INTS, empty
        return name, []
    raise NotImplementedError("attribute %s of an unhandled kind" % name)


class Model:
    def __init__(self, data):
        m = fields(data)
        self.opset = None
        for _, o in m.get(8, []):
            f = fields(o)
            if _str(f, 1) in ("", "ai.onnx"):
                self.opset = f[2][0][1]
        g = fields(m[7][0][1])
        self.inits = dict(tensor(v) for _, v in g.get(5, []))
        self.inputs = [_str(fields(v), 1) for _, v in g.get(11, [])]
        self.outputs = [_str(fields(v), 1) for _, v in g.get(12, [])]
        self.nodes = []
        for _, n in g.get(1, []):
            f = fields(n)
            self.nodes.append(dict(
                op=_str(f, 4), domain=_str(f, 7), name=_str(f, 3),
                inputs=[v.decode() for _, v in f.get(1, [])],
                outputs=[v.decode() for _, v in f.get(2, [])],
                attrs=dict(_attr(v) for _, v in f.get(5, []))))

    def run(self, feeds):
        env = dict(self.inits)
        env.update({k: np.asarray(v) for k, v in feeds.items()})
        for n in self.nodes:
            if n["domain"] not in ("", "ai.onnx"):
                raise NotImplementedError("op %s.%s" % (n["domain"], n["op"]))
            fn = OPS.get(n["op"])
            if fn is None:
                raise NotImplementedError("op %s" % n["op"])
            args = [env[i] if i else None for i in n["inputs"]]
            outs = fn(self.opset, n["attrs"], *args)
            for name, val in zip(n["outputs"], outs):
                env[name] = np.asarray(val)
        return [env[o] for o in self.outputs]


def _axes(opset, attrs, axes_in, name="axes"):
    return list(axes_in) if opset >= 13 and axes_in is not None else attrs.get(name)


def _unsqueeze(opset, a, x, axes=None):
    axes = _axes(opset, a, axes)
    r = x.ndim + len(axes)
    for ax in sorted(ax % r for ax in axes):
        x = np.expand_dims(x, ax)
    return (x,)


def _slice(opset, a, x, starts, ends, axes=None, steps=None):
    axes = list(range(len(starts))) if axes is None else list(axes)
    steps = [1] * len(starts) if steps is None else list(steps)
    sl = [slice(None)] * x.ndim
    for s, e, ax, st in zip(starts, ends, axes, steps):
        n = x.shape[ax]
        s, e = int(s), int(e)
        s = max(0, min(n, s + n if s < 0 else s)) if st > 0 else max(-1, min(n - 1, s + n if s < 0 else s))
        e = max(0, min(n, e + n if e < 0 else e)) if st > 0 else max(-1, min(n - 1, e + n if e < 0 else e))
        sl[ax] = slice(s, e if e >= 0 else None, int(st))
    return (x[tuple(sl)],)


def _scatter_elements(opset, a, data, idx, upd):
    out = data.copy()
    axis = a.get("axis", 0) % data.ndim
    red = a.get("reduction", "none")
    idx = np.where(idx < 0, idx + data.shape[axis], idx)
    for pos in np.ndindex(*idx.shape):
        tgt = list(pos)
        tgt[axis] = idx[pos]
        tgt = tuple(tgt)
        out[tgt] = out[tgt] + upd[pos] if red == "add" else (
            out[tgt] * upd[pos] if red == "mul" else upd[pos])
    return (out,)


def _scatter_nd(opset, a, data, idx, upd):
    out = data.copy()
    red = a.get("reduction", "none")
    for pos in np.ndindex(*idx.shape[:-1]):
        tgt = tuple(int(i) for i in idx[pos])
        out[tgt] = out[tgt] + upd[pos] if red == "add" else (
            out[tgt] * upd[pos] if red == "mul" else upd[pos])
    return (out,)


def _gather_nd(opset, a, data, idx):
    b = a.get("batch_dims", 0)
    assert b == 0
    k = idx.shape[-1]
    res = [data[tuple(int(i) for i in idx[pos])] for pos in np.ndindex(*idx.shape[:-1])]
    return (np.array(res, data.dtype).reshape(idx.shape[:-1] + data.shape[k:]),)


def _reshape(opset, a, x, shape):
    shape = [x.shape[i] if s == 0 and not a.get("allowzero", 0) else int(s)
             for i, s in enumerate(shape)]
    return (x.reshape(shape),)


def _one_hot(opset, a, idx, depth, values):
    d = int(np.asarray(depth).reshape(-1)[0])
    axis = a.get("axis", -1)
    idx = np.where(idx < 0, idx + d, idx)
    eye = (np.arange(d) == idx[..., None])
    out = np.where(eye, values[1], values[0]).astype(values.dtype)
    return (np.moveaxis(out, -1, axis % out.ndim),)


def _unique(opset, a, x):
    if "axis" in a or not a.get("sorted", 1):
        raise NotImplementedError("Unique with an axis or unsorted")
    y, ind, inv, cnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    return y, ind.astype(np.int64), inv.reshape(-1).astype(np.int64), cnt.astype(np.int64)


OPS = {
    "Add": lambda o, a, x, y: (x + y,),
    "Mul": lambda o, a, x, y: (x * y,),
    "Equal": lambda o, a, x, y: (x == y,),
    "Where": lambda o, a, c, x, y: (np.where(c, x, y),),
    "Cast": lambda o, a, x: (x.astype(NP_DTYPE[a["to"]]),),
    "Constant": lambda o, a: (a["value"],),
    "ConstantOfShape": lambda o, a, s: (
        np.full([int(d) for d in s], a["value"].reshape(-1)[0] if "value" in a else np.float32(0),
                a["value"].dtype if "value" in a else np.float32),),
    "Shape": lambda o, a, x: (np.array(x.shape, np.int64),),
    "Concat": lambda o, a, *xs: (np.concatenate(xs, a["axis"]),),
    "Expand": lambda o, a, x, s: (
        np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(int(d) for d in s))).copy(),),
    "Gather": lambda o, a, x, i: (np.take(x, np.where(i < 0, i + x.shape[a.get("axis", 0)], i),
                                          axis=a.get("axis", 0)),),
    "GatherND": _gather_nd,
    "NonZero": lambda o, a, x: (np.array(np.nonzero(x), np.int64).reshape(x.ndim, -1),),
    "OneHot": _one_hot,
    "Range": lambda o, a, s, l, d: (np.arange(s, l, d, dtype=np.asarray(s).dtype),),
    "Reshape": _reshape,
    "ScatterElements": _scatter_elements,
    "ScatterND": _scatter_nd,
    "Slice": _slice,
    "Transpose": lambda o, a, x: (np.transpose(x, a.get("perm")),),
    "Unique": _unique,
    "Unsqueeze": _unsqueeze,
    "Squeeze": lambda o, a, x, axes=None: (np.squeeze(x, tuple(_axes(o, a, axes) or ())) if
                                           _axes(o, a, axes) else np.squeeze(x),),
    "Identity": lambda o, a, x: (x,),
}
