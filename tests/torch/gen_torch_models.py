#!/usr/bin/python3
"""gen_torch_models.py: exports scatter-style PyTorch modules to ONNX node-test folders.

For every pattern x opset in {11, 13, 16} it writes OUT/<pattern>_opset<N>/model.onnx and
test_data_set_0/input_K.pb + output_K.pb. The expected outputs come from running the torch
module itself (an oracle independent of onnx-scatter). The test inputs differ from the example
inputs the export traces with (other index values, another position, another batch size where
the pattern is dynamic), so a value the tracer baked into the graph shows up as a mismatch.

Needs Debian's python3-torch (1.13.1) and nothing else: the TensorProto files are written by
the small encoder below, not by the `onnx` package. Run with Debian's interpreter:

    /usr/bin/python3 tests/torch/gen_torch_models.py [OUT_DIR]   # default: this script's folder

It rewrites OUT/README.md (torch version, generated folders, patterns that did not export and
why, op types used) and prints the same summary.
"""
import io
import os
import shutil
import sys
import warnings

import numpy as np
import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mini_eval  # noqa: E402

OPSETS = (11, 13, 16)

# ---------------------------------------------------------------------------------------------
# A tiny protobuf encoder for TensorProto (mini_eval.py has the decoder).

ONNX_DTYPE = {  # TensorProto.DataType
    torch.float32: 1, torch.uint8: 2, torch.int8: 3, torch.int16: 5, torch.int32: 6,
    torch.int64: 7, torch.bool: 9, torch.float16: 10, torch.float64: 11, torch.bfloat16: 16,
}


def _varint(v):
    v &= (1 << 64) - 1  # negative int64 -> two's complement, as protobuf does
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint((field << 3) | wire)


def _len_field(field, payload):
    return _key(field, 2) + _varint(len(payload)) + payload


def tensor_proto(name, t):
    """Serialized TensorProto: dims=1 (packed int64), data_type=2, name=8, raw_data=9."""
    t = t.detach().contiguous().cpu()
    msg = bytearray()
    if t.dim():
        msg += _len_field(1, b"".join(_varint(d) for d in t.shape))
    msg += _key(2, 0) + _varint(ONNX_DTYPE[t.dtype])
    msg += _len_field(8, name.encode())
    if t.dtype == torch.bfloat16:
        raw = t.view(torch.int16).numpy().astype("<i2").tobytes()
    elif t.dtype == torch.bool:
        raw = t.to(torch.uint8).numpy().tobytes()
    else:
        a = t.numpy()
        raw = a.astype(a.dtype.newbyteorder("<")).tobytes()
    msg += _len_field(9, raw)
    return bytes(msg)


# ---------------------------------------------------------------------------------------------
# The patterns. Each: name -> (module, example inputs for the trace, test inputs, input names,
# dynamic_axes or None, note). Inputs are built by functions of a seeded generator.

def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def randf(g, *shape):
    # Multiples of 1/8 in [-4, 4): exact in float32, so sums are exact whatever the order.
    return torch.randint(-32, 32, shape, generator=g).to(torch.float32) / 8


class IndexPutTensor(torch.nn.Module):
    """y[idx] = v with a 1-D int64 tensor index (rows)."""
    def forward(self, x, idx, v):
        y = x.clone()
        y[idx] = v
        return y


class SliceAssignDynBatch(torch.nn.Module):
    """y[:, 2:4] = u with a dynamic batch dim."""
    def forward(self, x, u):
        y = x.clone()
        y[:, 2:4] = u
        return y


class AdvIndex2D(torch.nn.Module):
    """y[rows, cols] = v: two index tensors, one element each."""
    def forward(self, x, rows, cols, v):
        y = x.clone()
        y[rows, cols] = v
        return y


class Scatter(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x, idx, src):
        return x.clone().scatter_(self.dim, idx, src)


class ScatterScalar(torch.nn.Module):
    """scatter_ with a Python scalar as the source."""
    def forward(self, x, idx):
        return x.clone().scatter_(1, idx, 2.5)


class ScatterAdd(torch.nn.Module):
    def forward(self, x, idx, src):
        return x.clone().scatter_add_(0, idx, src)


class IndexCopy(torch.nn.Module):
    def forward(self, x, idx, src):
        return x.clone().index_copy_(1, idx, src)


class IndexAdd(torch.nn.Module):
    def forward(self, x, idx, src):
        return x.clone().index_add_(0, idx, src)


class OneHotScatter(torch.nn.Module):
    """The scatter way: zeros(N, C).scatter_(1, labels[:, None], 1.0)."""
    def forward(self, labels):
        z = torch.zeros(labels.shape[0], 6, dtype=torch.float32)
        return z.scatter_(1, labels.unsqueeze(1), 1.0)


class OneHotFn(torch.nn.Module):
    """torch.nn.functional.one_hot (exports as ONNX OneHot)."""
    def forward(self, labels):
        return F.one_hot(labels, 6)


class KVCacheSlice(torch.nn.Module):
    """cache[:, :, pos:pos+T] = new, pos a 0-d int64 graph input."""
    def forward(self, cache, new, pos):
        c = cache.clone()
        c[:, :, pos:pos + new.shape[2]] = new
        return c


class KVCacheIndexCopy(torch.nn.Module):
    """cache.index_copy_(2, cache_position, new): the static-cache update of HF transformers."""
    def forward(self, cache, new, cache_position):
        return cache.clone().index_copy_(2, cache_position, new)


class MaskedAssignScalar(torch.nn.Module):
    """y[mask] = -1.0 with a bool mask input."""
    def forward(self, x, mask):
        y = x.clone()
        y[mask] = -1.0
        return y


class MaskedAssignTensor(torch.nn.Module):
    """y[mask] = src[mask]: the number of selected elements depends on the data."""
    def forward(self, x, mask, src):
        y = x.clone()
        y[mask] = src[mask]
        return y


class UniqueAll(torch.nn.Module):
    """torch.unique sorted, with the inverse and the counts: three outputs."""
    def forward(self, x):
        return torch.unique(x, sorted=True, return_inverse=True, return_counts=True)


def i64(*vals):
    return torch.tensor(vals, dtype=torch.int64)


def distinct_rows(g, n, rows, cols):
    """[rows, cols] int64 where each column holds distinct values in [0, n)."""
    return torch.stack([torch.randperm(n, generator=g)[:rows] for _ in range(cols)], 1)


def pattern_inputs():
    """name -> dict(module, example, test, names, dynamic, test_for={opset: test} overrides)."""
    P = {}

    def add(name, module, example, test, names, dynamic=None, per_opset=None, note="",
            outputs=("y",)):
        P[name] = dict(module=module, example=example, test=test, names=names, dynamic=dynamic,
                       per_opset=per_opset or {}, note=note, outputs=list(outputs))

    g = gen(1)
    add("index_put_tensor", IndexPutTensor(),
        (randf(g, 5, 3), i64(0, 2), randf(g, 2, 3)),
        (randf(g, 5, 3), i64(4, -4), randf(g, 2, 3)),
        ["x", "idx", "v"], note="y[idx] = v, idx a 1-D int64 tensor (a negative one in the test)")

    g = gen(2)
    add("slice_assign_dynbatch", SliceAssignDynBatch(),
        (randf(g, 2, 6), randf(g, 2, 2)),
        (randf(g, 3, 6), randf(g, 3, 2)),
        ["x", "u"], dynamic={"x": {0: "batch"}, "u": {0: "batch"}, "y": {0: "batch"}},
        note="y[:, 2:4] = u, batch dynamic (traced at 2, tested at 3)")

    g = gen(3)
    add("adv_index_2d", AdvIndex2D(),
        (randf(g, 4, 5), i64(0, 1, 2), i64(1, 2, 3), randf(g, 3)),
        (randf(g, 4, 5), i64(3, 0, -1), i64(4, 0, 2), randf(g, 3)),
        ["x", "rows", "cols", "v"], note="y[rows, cols] = v")

    g = gen(4)
    add("scatter_dim0", Scatter(0),
        (randf(g, 4, 3), distinct_rows(g, 4, 2, 3), randf(g, 2, 3)),
        (randf(g, 4, 3), distinct_rows(g, 4, 2, 3), randf(g, 2, 3)),
        ["x", "idx", "src"], note="x.scatter_(0, idx, src)")
    g = gen(5)
    add("scatter_dim1", Scatter(1),
        (randf(g, 3, 5), distinct_rows(g, 5, 2, 3).t().contiguous(), randf(g, 3, 2)),
        (randf(g, 3, 5), distinct_rows(g, 5, 2, 3).t().contiguous(), randf(g, 3, 2)),
        ["x", "idx", "src"], note="x.scatter_(1, idx, src)")
    g = gen(6)

    def last_axis_idx(g):
        return torch.stack([torch.randperm(4, generator=g)[:2] for _ in range(6)]).reshape(2, 3, 2)
    add("scatter_dim_neg1_3d", Scatter(-1),
        (randf(g, 2, 3, 4), last_axis_idx(g), randf(g, 2, 3, 2)),
        (randf(g, 2, 3, 4), last_axis_idx(g), randf(g, 2, 3, 2)),
        ["x", "idx", "src"], note="x.scatter_(-1, idx, src) on a 3-D tensor, idx smaller than x")
    g = gen(7)
    add("scatter_scalar", ScatterScalar(),
        (randf(g, 3, 5), i64(0, 1, 2, 3, 4, 0).reshape(3, 2)),
        (randf(g, 3, 5), i64(4, 1, 0, 2, 3, 3).reshape(3, 2)),
        ["x", "idx"], note="x.scatter_(1, idx, 2.5)")

    g = gen(8)
    x0, s0, x1, s1 = randf(g, 4, 3), randf(g, 3, 3), randf(g, 4, 3), randf(g, 3, 3)
    add("scatter_add", ScatterAdd(),
        (x0, distinct_rows(g, 4, 3, 3), s0),
        (x1, distinct_rows(g, 4, 3, 3), s1),
        ["x", "idx", "src"],
        # ScatterElements(reduction=add) from opset 16 sums duplicates; below 16 torch exports
        # Add(x, ScatterElements(zeros, ...)), which keeps only one of them: duplicates only at 16.
        per_opset={16: (x1, i64(1, 1, 0, 1, 3, 0, 1, 1, 0).reshape(3, 3), s1)},
        note="x.scatter_add_(0, idx, src); duplicate indices only at opset 16")

    g = gen(9)
    add("index_copy", IndexCopy(),
        (randf(g, 3, 5), i64(0, 3), randf(g, 3, 2)),
        (randf(g, 3, 5), i64(4, 1), randf(g, 3, 2)),
        ["x", "idx", "src"], note="x.index_copy_(1, idx, src)")

    g = gen(10)
    add("index_add", IndexAdd(),
        (randf(g, 5, 3), i64(0, 2, 4), randf(g, 3, 3)),
        (randf(g, 5, 3), i64(3, 0, 1), randf(g, 3, 3)),
        ["x", "idx", "src"],
        note="x.index_add_(0, idx, src); distinct indices (torch warns the export drops duplicates)")

    add("one_hot_scatter", OneHotScatter(), (i64(0, 5, 2, 2),), (i64(3, 1, 5, 0),), ["labels"],
        note="zeros(4, 6).scatter_(1, labels[:, None], 1.0)")
    add("one_hot_fn", OneHotFn(), (i64(0, 5, 2, 2),), (i64(3, 1, 5, 0),), ["labels"],
        note="F.one_hot(labels, 6)")

    g = gen(11)
    add("kv_cache_slice", KVCacheSlice(),
        (randf(g, 1, 2, 6, 4), randf(g, 1, 2, 1, 4), torch.tensor(1)),
        (randf(g, 1, 2, 6, 4), randf(g, 1, 2, 1, 4), torch.tensor(4)),
        ["cache", "new", "pos"], note="cache[:, :, pos:pos+1] = new, pos a 0-d int64 input")
    g = gen(12)
    add("kv_cache_index_copy", KVCacheIndexCopy(),
        (randf(g, 1, 2, 6, 4), randf(g, 1, 2, 2, 4), i64(0, 1)),
        (randf(g, 1, 2, 6, 4), randf(g, 1, 2, 2, 4), i64(3, 4)),
        ["cache", "new", "cache_position"],
        note="cache.index_copy_(2, cache_position, new), cache_position an int64 input")

    g = gen(13)
    add("masked_assign_scalar", MaskedAssignScalar(),
        (randf(g, 3, 4), torch.rand(3, 4, generator=g) < 0.5),
        (randf(g, 3, 4), torch.rand(3, 4, generator=g) < 0.5),
        ["x", "mask"], note="y[mask] = -1.0")
    g = gen(14)
    m0 = torch.rand(3, 4, generator=g) < 0.5
    m1 = torch.rand(3, 4, generator=g) < 0.5
    assert m0.sum() != m1.sum()  # a different count than the trace saw
    add("masked_assign_tensor", MaskedAssignTensor(),
        (randf(g, 3, 4), m0, randf(g, 3, 4)),
        (randf(g, 3, 4), m1, randf(g, 3, 4)),
        ["x", "mask", "src"], note="y[mask] = src[mask] (data-dependent count)")

    # 1-D only: the export's inverse is ONNX's 1-D one, torch's has x's shape
    add("unique_sorted", UniqueAll(),
        (torch.tensor([3.0, 1.0, 2.0, 3.0, 1.0, 5.0]),),
        (torch.tensor([2.5, -1.0, 2.5, 0.0, -0.0, 7.0, -1.0, 2.5]),),
        ["x"], dynamic={"x": {0: "N"}}, outputs=("y", "inv", "cnt"),
        note="torch.unique(x, sorted=True, return_inverse=True, return_counts=True), 1-D, length"
             " dynamic (traced at 6, tested at 8 with duplicates and -0.0)")
    return P


# ---------------------------------------------------------------------------------------------

def export(p, opset):
    f = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(p["module"], p["example"], f, opset_version=opset,
                          input_names=p["names"], output_names=p["outputs"],
                          dynamic_axes=p["dynamic"], do_constant_folding=True)
    return f.getvalue()


def write_folder(folder, model, names, outs, inputs, test):
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    ds = os.path.join(folder, "test_data_set_0")
    os.makedirs(ds)
    with open(os.path.join(folder, "model.onnx"), "wb") as fh:
        fh.write(model)
    by_name = dict(zip(names, test))
    for k, name in enumerate(inputs):
        with open(os.path.join(ds, "input_%d.pb" % k), "wb") as fh:
            fh.write(tensor_proto(name, by_name[name]))
    for k, (name, t) in enumerate(outs):
        with open(os.path.join(ds, "output_%d.pb" % k), "wb") as fh:
            fh.write(tensor_proto(name, t))


def check_graph(m, p, test, expected):
    """None when the exported graph, run by mini_eval on the test inputs, gives torch's results
    (expected: one tensor per graph output)."""
    unused = [n for n in p["names"] if n not in m.inputs]
    if unused:
        return "the exported graph dropped input(s) %s (the tracer made them constants)" % unused
    try:
        outs = m.run({n: t.numpy() for n, t in zip(p["names"], test)})
    except NotImplementedError as e:
        return "mini_eval cannot run it: %s" % e
    for got, want in zip(outs, (e.numpy() for e in expected)):
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            return "the exported graph computes something else than torch on the test inputs" \
                   " (mini_eval: %s %s, torch: %s %s)" % (got.dtype, got.shape, want.dtype,
                                                         want.shape)
    return None


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    made, failed, op_use = [], [], {}
    for name, p in pattern_inputs().items():
        for opset in OPSETS:
            folder = os.path.join(out_dir, "%s_opset%d" % (name, opset))
            if os.path.isdir(folder):
                shutil.rmtree(folder)
            try:
                model = export(p, opset)
            except Exception as e:  # the exporter's reason, first line
                failed.append((name, opset, "torch.onnx.export: " + str(e).strip().splitlines()[0]))
                continue
            m = mini_eval.Model(model)
            test = p["per_opset"].get(opset, p["test"])
            with torch.no_grad():
                y = p["module"](*[t.clone() for t in test])
            ys = list(y) if isinstance(y, tuple) else [y]
            why = check_graph(m, p, test, ys)
            if why:
                failed.append((name, opset, why))
                continue
            write_folder(folder, model, p["names"], list(zip(m.outputs, ys)), m.inputs, test)
            made.append((name, opset, len(model)))
            for n in m.nodes:
                op = (n["domain"] + "." if n["domain"] else "") + n["op"]
                op_use.setdefault(op, {}).setdefault(m.opset, set()).add(name)
    write_readme(out_dir, made, failed, op_use)
    return 0 if made else 1


def write_readme(out_dir, made, failed, op_use):
    P = pattern_inputs()
    lines = [
        "# tests/torch: graphs exported from PyTorch",
        "",
        "Generated by `gen_torch_models.py` and committed; regenerate with",
        "`/usr/bin/python3 tests/torch/gen_torch_models.py` (Debian's interpreter and its `python3-torch`;",
        "the `onnx` Python package is not needed). Each `<pattern>_opset<N>/` is a node-test folder:",
        "`model.onnx` from `torch.onnx.export` (constant folding on), `test_data_set_0/` with inputs that",
        "differ from the ones the export traced with (so a value the tracer baked in shows up) and the",
        "output the torch module itself returns. Before writing a folder the generator also runs the",
        "graph with `mini_eval.py` (numpy) and drops it if the export does not compute what torch does.",
        "`tests/torch.cmake` runs every folder through `onnx-scatter test`.",
        "",
        "torch version: `%s` (Debian 12 package python3-torch 1.13.1+dfsg)" % torch.__version__,
        "",
        "| pattern | what | opsets |",
        "|---|---|---|",
    ]
    for name, p in P.items():
        ops = [str(o) for n, o, _ in made if n == name]
        lines.append("| `%s` | %s | %s |" % (name, p["note"], ", ".join(ops) or "none"))
    lines += ["", "Not generated:", ""]
    lines += ["- `%s` at opset %d: %s" % f for f in failed] or \
        ["- none: every pattern exports at 11, 13 and 16 and computes what torch does"]
    lines += ["", "ONNX op types used (model opsets: patterns):", ""]
    for op in sorted(op_use):
        by_opset = op_use[op]
        pats = sorted(set().union(*by_opset.values()))
        lines.append("- %s (%s): %s" % (op, ", ".join(str(o) for o in sorted(by_opset)),
                                         ", ".join(pats)))
    lines.append("")
    text = "\n".join(lines)
    path = os.path.join(out_dir, "README.md")
    kept = ""  # gen_control_models.py's section, which it writes itself
    if os.path.exists(path):
        with open(path) as fh:
            old = fh.read()
        at = old.find("\n## Control flow")
        kept = old[at:] if at >= 0 else ""
    with open(path, "w") as fh:
        fh.write(text + kept)
    print(text)
    print("%d folders, %d bytes of models" % (len(made), sum(s for _, _, s in made)))


if __name__ == "__main__":
    sys.exit(main())
