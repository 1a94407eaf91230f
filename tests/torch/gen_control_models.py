#!/usr/bin/python3
"""gen_control_models.py: PyTorch exports with control flow (If, Loop) as node-test folders.

The companion of gen_torch_models.py (same conventions, its TensorProto encoder imported): for
every pattern x opset in {11, 13, 16} it exports the module as a new user would write it (a
torch.jit.script module for `if` / `for` on tensors; nn.EmbeddingBag traced, whose exporter
writes a Loop itself) and writes OUT/<pattern>_opset<N>/ with model.onnx and one
test_data_set_K/ per test case. The expected outputs come from the torch module itself; the test
inputs differ from the traced example ones (other sizes, trip counts and branches), and the
cases of an `if` pattern take both branches.

mini_eval.py cannot run If or Loop, so graphs with control flow are not checked by it; the
others (Unique) are, as gen_torch_models.py does. Each folder is then run through
`onnx-scatter test` (TOOL, default build/tools/onnx-scatter of this checkout): only folders that
pass are written to OUT; the others stay in PENDING for a reproduction and are listed with the
tool's message in the "Control flow" section this script writes at the end of
tests/torch/README.md. Run with Debian's interpreter:

    /usr/bin/python3 tests/torch/gen_control_models.py [--tool TOOL] [--pending PENDING] [OUT]

OUT defaults to tests/torch/control, PENDING to /tmp/onnx-scatter-torch-control.
"""
import argparse
import io
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import torch

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_torch_models as gtm  # noqa: E402  (tensor_proto, gen, randf, i64)
import graph_walk  # noqa: E402
import mini_eval  # noqa: E402

OPSETS = (11, 13, 16)
CONTROL_OPS = {"If", "Loop", "Scan"}
SECTION = "## Control flow (gen_control_models.py)"


# ---------------------------------------------------------------------------------------------
# The modules. Scripted ones keep `if` and `for` as ONNX If and Loop.

class IfShape(torch.nn.Module):
    """Data-dependent branch; the branches give different shapes ([2r, c] or [1, c])."""
    def forward(self, x):
        if bool(x.sum() > 0):
            y = torch.cat([x, x], 0)
        else:
            y = x[:1] * 2.0
        return y


class IfScatter(torch.nn.Module):
    """A 0-d bool input picks index_put_ with accumulate or a plain y[idx] = v."""
    def forward(self, x, idx, v, accumulate):
        y = x.clone()
        if bool(accumulate):
            y.index_put_((idx,), v, accumulate=True)
        else:
            y[idx] = v
        return y


class LoopCat(torch.nn.Module):
    """n iterations (n an input) each append a row: the carried tensor grows."""
    def forward(self, x, n: int):
        y = x
        for i in range(n):
            y = torch.cat([y, y[-1:] * 0.5 + i], 0)
        return y


class LoopIndexPut(torch.nn.Module):
    """y[i] = ... inside the loop (index_put_ on the carried tensor)."""
    def forward(self, x, n: int):
        y = torch.zeros(n, x.shape[1])
        for i in range(n):
            y[i] = x[i] * float(i + 1)
        return y


class LoopIndexPutAcc(torch.nn.Module):
    """One accumulating index_put_ per index: repeated indices add up across iterations."""
    def forward(self, x, idx, src):
        y = x.clone()
        for i in range(idx.shape[0]):
            y.index_put_((idx[i:i + 1],), src[i:i + 1], accumulate=True)
        return y


class EmbeddingBag(torch.nn.Module):
    def __init__(self, mode, rows, dim, seed):
        super().__init__()
        self.bag = torch.nn.EmbeddingBag(rows, dim, mode=mode)
        with torch.no_grad():  # multiples of 1/8: sums exact whatever the order
            self.bag.weight.copy_(gtm.randf(gtm.gen(seed), rows, dim))

    def forward(self, indices, offsets):
        return self.bag(indices, offsets)


class Unique(torch.nn.Module):
    def forward(self, x):
        return torch.unique(x, sorted=True, return_inverse=True, return_counts=True)


# ---------------------------------------------------------------------------------------------
# The patterns: name -> dict(module, example, tests (a list of input tuples), names, outputs,
# dynamic, expect (the op the export must contain), note).

def pattern_inputs():
    P = {}

    def add(name, module, example, tests, names, outputs=("y",), dynamic=None, expect=None,
            note=""):
        P[name] = dict(module=module, example=example, tests=tests, names=names,
                       outputs=list(outputs), dynamic=dynamic, expect=expect, note=note)

    g, f, i64 = gtm.gen(21), gtm.randf, gtm.i64
    pos, neg = f(g, 4, 2).abs() + 0.125, -f(g, 3, 2).abs() - 0.125
    add("if_shape", torch.jit.script(IfShape()), (-pos[:3],), [(pos,), (neg,)], ["x"],
        dynamic={"x": {0: "rows"}, "y": {0: "rows_out"}}, expect="If",
        note="`if x.sum() > 0: cat([x, x])` else `x[:1] * 2` (scripted); a case per branch")

    g = gtm.gen(22)
    add("if_scatter", torch.jit.script(IfScatter()),
        (f(g, 5, 3), i64(0, 2), f(g, 2, 3), torch.tensor(True)),
        [(f(g, 5, 3), i64(4, 1, -5), f(g, 3, 3), torch.tensor(True)),
         (f(g, 5, 3), i64(3, -1), f(g, 2, 3), torch.tensor(False))],
        ["x", "idx", "v", "accumulate"],
        dynamic={"idx": {0: "k"}, "v": {0: "k"}}, expect="If",
        note="`if accumulate: y.index_put_((idx,), v, accumulate=True)` else `y[idx] = v`"
             " (scripted); a case per branch")

    g = gtm.gen(23)
    add("loop_cat", torch.jit.script(LoopCat()), (f(g, 2, 3), 3),
        [(f(g, 2, 3), torch.tensor(4)), (f(g, 3, 3), torch.tensor(0))], ["x", "n"],
        dynamic={"x": {0: "rows"}, "y": {0: "rows_out"}}, expect="Loop",
        note="`for i in range(n): y = cat([y, y[-1:] * 0.5 + i])`, n a 0-d input (4, then 0)")

    g = gtm.gen(24)
    add("loop_index_put", torch.jit.script(LoopIndexPut()), (f(g, 5, 3), 3),
        [(f(g, 6, 3), torch.tensor(4)), (f(g, 2, 3), torch.tensor(0))], ["x", "n"],
        dynamic={"x": {0: "rows"}, "y": {0: "n_out"}}, expect="Loop",
        note="`y = zeros(n, c); for i in range(n): y[i] = x[i] * (i + 1)` (n 4, then 0)")

    g = gtm.gen(25)
    add("loop_index_put_acc", torch.jit.script(LoopIndexPutAcc()),
        (f(g, 5, 3), i64(0, 2, 0), f(g, 3, 3)),
        [(f(g, 5, 3), i64(1, 3, 1, -1, 1), f(g, 5, 3)),
         (f(g, 5, 3), i64(), f(g, 0, 3))], ["x", "idx", "src"],
        dynamic={"idx": {0: "k"}, "src": {0: "k"}}, expect="Loop",
        note="`for i in range(idx.shape[0]): y.index_put_((idx[i:i+1],), src[i:i+1],"
             " accumulate=True)`: repeated indices add up; a case with no index")

    bag_dynamic = {"indices": {0: "n"}, "offsets": {0: "bags"}, "y": {0: "bags"}}
    g = gtm.gen(26)
    bag_example = (torch.randint(0, 10, (8,), generator=g), i64(0, 4))
    bag_tests = [(torch.randint(0, 10, (11,), generator=g), i64(0, 3, 4, 9)),
                 (torch.randint(0, 10, (3,), generator=g), i64(0))]
    for mode in ("sum", "mean", "max"):
        tests = list(bag_tests)
        if mode == "sum":  # an empty bag: ReduceSum over nothing is torch's 0
            tests.append((i64(7, 7, 2), i64(0, 2, 2)))
        add("embedding_bag_" + mode, EmbeddingBag(mode, 10, 4, seed=27), bag_example, tests,
            ["indices", "offsets"], dynamic=bag_dynamic, expect="Loop",
            note="nn.EmbeddingBag(10, 4, mode='%s')(indices, offsets), traced: the exporter"
                 " writes a Loop over the bags%s" % (
                     mode, "; a case with an empty bag" if mode == "sum" else
                     "; no empty bag (the export reduces an empty slice, torch gives 0)"))

    add("unique", Unique(), (i64(3, 1, 2, 3, 1, 7),), [(i64(5, -2, 5, 0, 9, -2, 5, 4),)], ["x"],
        outputs=("values", "inverse", "counts"),
        dynamic={"x": {0: "n"}, "values": {0: "u"}, "inverse": {0: "n"}, "counts": {0: "u"}},
        note="torch.unique(x, sorted=True, return_inverse=True, return_counts=True), traced")
    return P


# ---------------------------------------------------------------------------------------------

def _unique(opset, a, x):
    """ONNX Unique, flattened (no axis) and sorted: what torch's export of torch.unique uses."""
    if "axis" in a or not a.get("sorted", 1):
        raise NotImplementedError("Unique with axis or sorted=0")
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True)
    return values, first.astype(np.int64), inverse.astype(np.int64), counts.astype(np.int64)


mini_eval.OPS.setdefault("Unique", _unique)


def export(p, opset):
    f = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(p["module"], p["example"], f, opset_version=opset,
                          input_names=p["names"], output_names=p["outputs"],
                          dynamic_axes=p["dynamic"], do_constant_folding=True)
    return f.getvalue()


def check_export(p, model, s, cases):
    """None when the export looks right: every input kept, the expected control-flow op there,
    and (graphs without control flow only) mini_eval computing torch's outputs."""
    unused = [n for n in p["names"] if n not in s.inputs]
    if unused:
        return "the exported graph dropped input(s) %s (the tracer made them constants)" % unused
    if p["expect"] and p["expect"] not in s.ops:
        return "the export has no %s (ops: %s)" % (p["expect"], ", ".join(sorted(s.ops)))
    if s.ops & CONTROL_OPS:
        return None
    m = mini_eval.Model(model)
    for test, outs in cases:
        try:
            got = m.run({n: t.numpy() for n, t in zip(p["names"], test)})
        except NotImplementedError as e:
            return "mini_eval cannot run it: %s" % e
        for g, (_, w) in zip(got, outs):
            w = w.numpy()
            if g.dtype != w.dtype or g.shape != w.shape or not np.array_equal(g, w):
                return "the exported graph computes something else than torch on the test" \
                       " inputs (mini_eval: %s %s, torch: %s %s)" % (g.dtype, g.shape,
                                                                     w.dtype, w.shape)
    return None


def write_folder(folder, model, s, names, cases):
    """A node-test folder; cases: [(inputs in the order of names, [(output name, tensor)])]."""
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    with open(os.path.join(folder, "model.onnx"), "wb") as fh:
        fh.write(model)
    for k, (test, outs) in enumerate(cases):
        ds = os.path.join(folder, "test_data_set_%d" % k)
        os.makedirs(ds)
        by_name = dict(zip(names, test))
        files = [("input_%d.pb" % j, n, by_name[n]) for j, n in enumerate(s.inputs)]
        files += [("output_%d.pb" % j, n, t) for j, (n, t) in enumerate(outs)]
        for leaf, n, t in files:
            with open(os.path.join(ds, leaf), "wb") as fh:
                fh.write(gtm.tensor_proto(n, t))


def run_tool(tool, folder):
    """None when `onnx-scatter test FOLDER` passes, else its message (the FAIL/SKIP line)."""
    r = subprocess.run([tool, "test", folder], capture_output=True, text=True)
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    if r.returncode == 0 and any(ln.startswith("PASS ") for ln in lines):
        return None
    bad = [ln for ln in lines if ln.startswith(("FAIL ", "SKIP "))]
    return (bad or lines or ["exit status %d, no output" % r.returncode])[0]


def classify(s, message):
    if s.non_tensors:
        return "sequence/optional value"
    if message.startswith("SKIP ") or "unsupported op" in message:
        return "missing op"
    return "runtime disagrees with torch"


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=os.path.join(HERE, "control"))
    ap.add_argument("--tool", default=os.path.join(root, "build", "tools", "onnx-scatter"))
    ap.add_argument("--pending", default="/tmp/onnx-scatter-torch-control")
    args = ap.parse_args()
    if not os.access(args.tool, os.X_OK):
        sys.exit("no onnx-scatter at %s: build it or pass --tool" % args.tool)
    torch.manual_seed(0)
    made, failed, op_use = [], [], {}
    for name, p in pattern_inputs().items():
        for opset in OPSETS:
            leaf = "%s_opset%d" % (name, opset)
            for d in (args.out, args.pending):
                if os.path.isdir(os.path.join(d, leaf)):
                    shutil.rmtree(os.path.join(d, leaf))
            try:
                model = export(p, opset)
            except Exception as e:  # the exporter's reason, first line
                failed.append((name, opset, "torch.onnx.export",
                               str(e).strip().splitlines()[0]))
                continue
            s = graph_walk.Summary(model)
            cases = []
            for test in p["tests"]:
                with torch.no_grad():
                    y = p["module"](*[t.clone() for t in test])
                ys = y if isinstance(y, tuple) else (y,)
                cases.append((test, list(zip(s.outputs, ys))))
            why = check_export(p, model, s, cases)
            if why:
                failed.append((name, opset, "export check", why))
                continue
            pending = os.path.join(args.pending, leaf)
            write_folder(pending, model, s, p["names"], cases)
            message = run_tool(args.tool, pending)
            if message:
                failed.append((name, opset, classify(s, message), message))
                continue
            shutil.move(pending, os.path.join(args.out, leaf))
            made.append((name, opset, len(model)))
            for op in s.ops:
                op_use.setdefault(op, {}).setdefault(s.opset, set()).add(name)
    write_readme(made, failed, op_use, args)
    return 0 if made else 1


def write_readme(made, failed, op_use, args):
    lines = [
        SECTION,
        "",
        "Generated by `gen_control_models.py` into `control/` and committed; regenerate with",
        "`/usr/bin/python3 tests/torch/gen_control_models.py` after building `build/` (it needs",
        "`build/tools/onnx-scatter`, or `--tool PATH`). Same folder layout and oracle as above:",
        "scripted modules (`torch.jit.script`) keep a tensor `if` and a `for i in range(n)` as",
        "ONNX If and Loop; nn.EmbeddingBag is traced and its exporter writes the Loop. Every",
        "folder has one `test_data_set_K/` per case, with other sizes, trip counts and branches",
        "than the traced example. Each export must hold the op its pattern is about (If or",
        "Loop): torch 1.13 does write nn.EmbeddingBag with offsets as a Loop with one ReduceSum,",
        "ReduceMean or ReduceMax per bag, at 11, 13 and 16. mini_eval.py cannot run If or Loop,",
        "so only graphs without them (Unique) are checked by it: for the others a wrong export",
        "would show up only as an `onnx-scatter test` failure. Each folder is run through",
        "`onnx-scatter test` before it is kept: the ones that fail are left in",
        "`%s` and listed below. `tests/torch.cmake` runs `control/` as" % args.pending,
        "ctest `torch_control_exports`. The EmbeddingBag Loop loads fused by rule",
        "`embedding_bag` (one SegmentReduce node, docs/design.md): ctest `torch_bag_fusion`",
        "(`bag_fusion.sh`) checks that `info` shows it on all nine exports and that every run",
        "(the test data, empty bags, offsets Slice clamps, no bag, no index) gives the bytes of",
        "`--no-fusion`, and that an index out of range fails both ways. `gen_bag_bench.py`",
        "writes a large EmbeddingBag sum export (100,000 bags) under /tmp, not committed, to",
        "time with `onnx-scatter bench` with and without `--no-fusion`.",
        "",
        "| pattern | what | opsets |",
        "|---|---|---|",
    ]
    for name, p in pattern_inputs().items():
        ops = [str(o) for n, o, _ in made if n == name]
        lines.append("| `%s` | %s | %s |" % (name, p["note"], ", ".join(ops) or "none"))
    lines += ["", "Not generated yet:", ""]
    lines += ["- `%s` at opset %d (%s): %s" % f for f in failed] or \
        ["- none: every pattern exports at 11, 13 and 16 and passes"]
    lines += ["", "ONNX op types used, subgraphs included (model opsets: patterns):", ""]
    for op in sorted(op_use):
        by_opset = op_use[op]
        pats = sorted(set().union(*by_opset.values()))
        lines.append("- %s (%s): %s" % (op, ", ".join(str(o) for o in sorted(by_opset)),
                                         ", ".join(pats)))
    section = "\n".join(lines) + "\n"
    readme = os.path.join(HERE, "README.md")
    with open(readme) as fh:
        text = fh.read()
    head = text.split("\n" + SECTION + "\n")[0].rstrip("\n")
    with open(readme, "w") as fh:
        fh.write(head + "\n\n" + section)
    print(section)
    print("%d folders, %d bytes of models" % (len(made), sum(s for _, _, s in made)))


if __name__ == "__main__":
    sys.exit(main())
