#!/usr/bin/python3
"""torch_bench.py: PyTorch contenders of the GNN benchmark (bench/gnn_harness.c), one thread.

    /usr/bin/python3 bench/torch_bench.py serve        line protocol on stdin/stdout:
      hello                 -> ok torch VERSION
      case DIR              -> ok MODE...  (the modes this case has: eager, and csr for the GCN
                               and SAGE layers) | error REASON
      run MODE              -> ok MS CPU_MS  (one forward pass: wall and process CPU time, ms)
      check MODE RTOL ATOL  -> ok bit-identical to output_0.pb | ok within tolerance ... |
                               ok MISMATCH ...  (the last run's output)
      quit
    /usr/bin/python3 bench/torch_bench.py rss DIR MODE  -> "rss BASE_KB PEAK_KB" (peak RSS of
                               setting MODE up and running it 3 times, inputs loaded at base)

A case is a folder of tests/models/gen_models.py --bench (model.onnx, test_data_set_0/, layer/).
eager: the torch module of gen_models.py the case was exported from (its class picked by
layer/layer.txt, its parameters from layer/*.pb), called under no_grad. csr: the same layer with
its aggregation as one CSR sparse-dense product, `adj @ h` (torch.sparse_csr_tensor): the
normalised adjacency (GCN: 1 / sqrt(deg(src) deg(dst)) with self loops; SAGE: 1 / in-degree) is
built once in `case`, outside the timing; the dense linears, bias and normalisation are timed
with the product. torch.set_num_threads(1).
"""
import os
import sys
import time
import warnings

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "models"))
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import gen_models as gm  # noqa: E402  (the modules the cases were exported from)

torch.set_num_threads(1)
torch.set_grad_enabled(False)
warnings.simplefilter("ignore")  # "Sparse CSR tensor support is in beta state"


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as fh:
        t.ParseFromString(fh.read())
    return torch.from_numpy(np.array(numpy_helper.to_array(t)))


def load_inputs(d):
    ds, xs, k = os.path.join(d, "test_data_set_0"), [], 0
    while os.path.exists(os.path.join(ds, "input_%d.pb" % k)):
        xs.append(read_pb(os.path.join(ds, "input_%d.pb" % k)))
        k += 1
    return xs


def build_module(d):
    """The case's torch module with its parameters from layer/."""
    with open(os.path.join(d, "layer", "layer.txt")) as fh:
        layer = fh.read().split()[1]
    names = [f[:-3] for f in os.listdir(os.path.join(d, "layer")) if f.endswith(".pb")]
    sd = {n: read_pb(os.path.join(d, "layer", n + ".pb")) for n in names}
    if layer == "gcn":
        o, i = sd["lin.weight"].shape
        m = gm.GCNLayer(i, o)
    elif layer == "gcn2":
        h, i = sd["c1.lin.weight"].shape
        m = gm.GCN2Layers(i, h, sd["c2.lin.weight"].shape[0])
    elif layer in ("sage", "sage_max"):
        o, i = sd["lin_l.weight"].shape
        m = (gm.SAGELayer if layer == "sage" else gm.SAGEMaxLayer)(i, o)
    elif layer == "gcn_last":  # (its output_0.pb is what the exported graph computes)
        raise ValueError("torch computes the sum index_add_ means, not the last-wins scatter "
                         "torch 1.13 exports")
    elif layer == "gat":
        _, heads, ch = sd["att_src"].shape
        m = gm.GATConv(sd["lin.weight"].shape[1], heads, ch)
    elif layer == "edgeconv":
        o, i2 = sd["mlp.0.weight"].shape
        m = gm.EdgeConv(i2 // 2, o)
    else:
        raise ValueError("no torch module for layer '%s'" % layer)
    m.load_state_dict(sd)
    return layer, m.eval()


def csr(rows, cols, vals, n):
    """The n x n matrix with vals at (rows, cols), duplicates summed, as CSR."""
    a = torch.sparse_coo_tensor(torch.stack([rows, cols]), vals, (n, n)).coalesce()
    return a.to_sparse_csr()


def setup(d, mode, x, edge_index):
    """A function of no arguments running the case's layer in this mode."""
    layer, m = build_module(d)
    if mode == "eager":
        return lambda: m(x, edge_index)
    if mode != "csr" or layer not in ("gcn", "gcn2", "sage"):
        raise ValueError("no %s form for layer '%s'" % (mode, layer))
    n = x.shape[0]
    if layer == "sage":  # mean over incoming edges: row dst, column src, 1 / in-degree
        src, dst = edge_index[0], edge_index[1]
        deg = gm.count(dst, n).clamp(min=1)
        adj = csr(dst, src, 1 / deg.index_select(0, dst), n)
        return lambda: F.normalize(m.lin_l(adj @ x) + m.lin_r(x), p=2.0, dim=-1)
    row, col, norm = gm.gcn_norm(edge_index, n)  # messages row -> col, self loops included
    adj = csr(col, row, norm, n)
    if layer == "gcn":
        return lambda: adj @ m.lin(x) + m.bias
    return lambda: adj @ m.c2.lin(F.relu(adj @ m.c1.lin(x) + m.c1.bias)) + m.c2.bias


def modes_of(d):
    with open(os.path.join(d, "layer", "layer.txt")) as fh:
        layer = fh.read().split()[1]
    return ["eager"] + (["csr"] if layer in ("gcn", "gcn2", "sage") else [])


def compare(got, want, rtol, atol):
    g, w = got.numpy().astype(np.float64), want.numpy().astype(np.float64)
    if g.shape != w.shape:
        return "MISMATCH: shape %s, output_0.pb %s" % (list(g.shape), list(w.shape))
    if np.array_equal(got.numpy(), want.numpy()):
        return "bit-identical to output_0.pb"
    d = np.abs(g - w)
    bad = ~(d <= atol + rtol * np.abs(w))
    if not bad.any():
        return "within tolerance of output_0.pb (max abs diff %.3g)" % d.max()
    return "MISMATCH vs output_0.pb: %d of %d elements beyond rtol %g atol %g; max abs diff %.3g" \
        % (bad.sum(), bad.size, rtol, atol, np.nanmax(d))


def serve():
    runs, outs, want = {}, {}, None
    for line in sys.stdin:
        cmd, _, arg = line.strip().partition(" ")
        try:
            if cmd == "hello":
                ans = "ok torch %s" % torch.__version__
            elif cmd == "case":
                runs, outs = {}, {}
                x, ei = load_inputs(arg)
                want = read_pb(os.path.join(arg, "test_data_set_0", "output_0.pb"))
                ms = modes_of(arg)
                for mode in ms:
                    runs[mode] = setup(arg, mode, x, ei)
                ans = "ok " + " ".join(ms)
            elif cmd == "run":
                f = runs[arg]
                c0, t0 = time.process_time(), time.perf_counter()
                outs[arg] = f()
                t1, c1 = time.perf_counter(), time.process_time()
                ans = "ok %.6f %.6f" % ((t1 - t0) * 1e3, (c1 - c0) * 1e3)
            elif cmd == "check":
                mode, rtol, atol = arg.split()
                ans = "ok " + compare(outs[mode], want, float(rtol), float(atol))
            elif cmd == "quit":
                return 0
            else:
                ans = "error unknown command '%s'" % cmd
        except Exception as e:  # the harness reports it
            ans = "error %s: %s" % (type(e).__name__, str(e).replace("\n", " ")[:300])
        sys.stdout.write(ans + "\n")
        sys.stdout.flush()
    return 0


def status_kb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def rss(d, mode):
    x, ei = load_inputs(d)
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    base = status_kb("VmRSS")
    f = setup(d, mode, x, ei)
    for _ in range(3):
        f()
    print("rss %d %d" % (base, status_kb("VmHWM")))
    return 0


def main(argv):
    if argv[:1] == ["serve"]:
        return serve()
    if len(argv) == 3 and argv[0] == "rss":
        return rss(argv[1], argv[2])
    sys.stderr.write("usage: torch_bench.py serve | rss DIR MODE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
