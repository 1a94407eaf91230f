#!/usr/bin/python3
"""gen_models.py: exports small scatter-heavy PyTorch models to ONNX node-test folders.

The models follow PyTorch Geometric's layer code written with plain torch ops (index_select,
scatter_add_, scatter_reduce), because PyG itself is not packaged for Debian. Each model is
exported at opsets 16 and 17, and at 18 when it aggregates with a maximum (ScatterElements
reduction="max" exists from opset 18 only). For every (model, opset) the script writes
OUT/<model>_opset<N>/model.onnx and test_data_set_0/input_K.pb + output_K.pb. The expected
outputs come from running the torch module itself in eager mode (an oracle independent of
onnx-scatter), on inputs that differ from the ones the export traced with, so a value the tracer
baked into the graph shows up as a mismatch.

Debian's torch (1.13) has three export problems these models are written around:
- scatter_add_ exports correctly only at opset 16 and above (ScatterElements reduction="add"),
  and only with static shapes: its symbolic refuses an index and a source of unknown shapes. The
  *_dynamic models (dynamic axes) are exported with that symbolic minus the check, as torch 2.x
  writes it; every other model keeps its shapes static.
- index_add_ and index_put_(accumulate=True) export as a last-wins scatter plus Add, wrong when
  indices repeat: the models use scatter_add_ with an expanded index instead, but for the
  gnn_gcn*_index_add* layers, which spell their aggregation with index_add_ as users do. The
  one exported as torch 1.13 does (its symbolic minus a refusal of E > N on static shapes) holds
  as expected outputs what that graph computes, not what torch eager computes:
  index_add_last_wins, a numpy transcription of the exported graph (the last edge naming a row
  wins), the module run with exported_meaning set; the _sum one is exported with a symbolic
  writing ScatterElements(reduction="add") on the expanded index, as a corrected exporter would.
- scatter_reduce has no export at all, and torch 1.13 stops at opset 17. For the max
  aggregations the script registers a symbolic that emits what newer exporters (torch 2.x,
  opset 18) emit for scatter_reduce(..., "amax", include_self=False): the positions the index
  names are first reset to the reduction's identity (-inf) with a plain ScatterElements, then
  ScatterElements(reduction="max") runs. The graph is exported at 17 and rewritten to 18
  (opset import, and Reduce* `axes` attributes turned into the input they became at 18).

Needs Debian's python3-torch and python3-onnx (the rewrite). Run with Debian's interpreter:

    /usr/bin/python3 tests/models/gen_models.py [OUT_DIR]   # default: this script's folder
    /usr/bin/python3 tests/models/gen_models.py --bench OUT_DIR [--scale S]
    /usr/bin/python3 tests/models/gen_models.py --detection [OUT_DIR]  # OUT/detection/ only
    /usr/bin/python3 tests/models/gen_models.py --bench OUT_DIR --detection  # full size

The detection models (gen_detection.py: a PointPillars-style detector with NMS, DGCNN, a RoiAlign
head; python3-torchvision) go to OUT/detection/<model>/, names without `_opset`, so that the loops
over tests/models/*_opset* (models.cmake, tests/cli) leave them out until the Conv and
ConvTranspose kernels they need exist; with --bench --detection, full size into OUT_DIR/<model>/.

It rewrites OUT/README.md (what each model is, which opsets were made, op types used).

The gnn_* models are issue 15's benchmark layers (GCN, GraphSAGE, GAT, EdgeConv; one layer each):
small graphs here, full size with --bench (OUT/gnn_<layer>/, no opset in the name; bench/run.sh
makes them in its build folder; --scale S divides the node and edge counts for quick checks).
Their folders also hold layer/: the module's parameters and layer.txt, which bench/gnn_loops.c
(the hand-written C layer the benchmark compares with) reads.
"""
import argparse
import io
import os
import shutil
import sys
import warnings

import onnx
from onnx import helper, numpy_helper
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "torch"))
from gen_torch_models import tensor_proto  # noqa: E402  (the TensorProto encoder)
import gen_detection  # noqa: E402  (the detection models: tests/models/detection/)

MAX_OPSET = 18  # the opset the max-aggregating models are rewritten to

# ---------------------------------------------------------------------------------------------
# scatter_reduce(amax/amin, include_self=False) as torch 2.x's opset-18 symbolic spells it.


def _scatter_reduce_symbolic(g, self, dim, index, src, reduce, include_self):
    from torch.onnx import symbolic_helper as sh
    dim = sh._get_const(dim, "i", "dim")
    reduce = sh._get_const(reduce, "s", "reduce")
    include_self = sh._get_const(include_self, "b", "include_self")
    mode = {"amax": "max", "amin": "min", "sum": "add", "prod": "mul"}[reduce]
    if not include_self:
        ident = {"max": float("-inf"), "min": float("inf"), "add": 0.0, "mul": 1.0}[mode]
        fill = g.op("Expand", g.op("Constant", value_t=torch.tensor(ident)),
                    g.op("Shape", index))
        self = g.op("ScatterElements", self, index, fill, axis_i=dim)
    return g.op("osc_tmp::ScatterReduce", self, index, src, axis_i=dim, reduction_s=mode)


torch.onnx.register_custom_op_symbolic("aten::scatter_reduce", _scatter_reduce_symbolic, 17)

AXES_TO_INPUT = {"ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2",
                 "ReduceLogSumExp", "ReduceSumSquare"}  # ReduceSum moved at 13 already


def rewrite_to_18(model_bytes):
    """The opset-17 export with osc_tmp::ScatterReduce -> an opset-18 model."""
    m = onnx.load_from_string(model_bytes)
    for imp in m.opset_import:
        if imp.domain in ("", "ai.onnx"):
            imp.version = MAX_OPSET
    keep = [imp for imp in m.opset_import if imp.domain != "osc_tmp"]
    del m.opset_import[:]
    m.opset_import.extend(keep)
    nodes = []
    for n in m.graph.node:
        if n.domain == "osc_tmp":
            n.domain, n.op_type = "", "ScatterElements"
        if n.op_type in AXES_TO_INPUT:
            axes = [a for a in n.attribute if a.name == "axes"]
            if axes:
                name = n.name + "_axes" if n.name else n.output[0] + "_axes"
                m.graph.initializer.append(
                    numpy_helper.from_array(np.array(axes[0].ints, dtype=np.int64), name))
                n.attribute.remove(axes[0])
                n.input.append(name)
        if n.op_type == "Split" and len(n.input) < 2 and \
                not any(a.name == "num_outputs" for a in n.attribute):
            n.attribute.append(helper.make_attribute("num_outputs", len(n.output)))
        nodes.append(n)
    return m.SerializeToString()


# ---------------------------------------------------------------------------------------------
# Graph layers in PyG's message-passing style.

def expand_rows(index, width):
    """index [E] -> [E, width]: the exporter's element-wise spelling of a row scatter."""
    return index.unsqueeze(-1).expand(-1, width)


def scatter_sum(src, index, n):
    out = torch.zeros(n, src.shape[1], dtype=src.dtype)
    return out.scatter_add_(0, expand_rows(index, src.shape[1]), src)


def scatter_max(src, index, n):
    """PyG's scatter(..., reduce="max"): rows nobody sends to stay 0."""
    out = torch.zeros(n, src.shape[1], dtype=src.dtype)
    return out.scatter_reduce(0, expand_rows(index, src.shape[1]), src, "amax",
                              include_self=False)


def segment_softmax(e, index, n):
    """PyG's softmax(e, index): exp(e - max of its segment) / sum of its segment."""
    m = scatter_max(e, index, n)
    ex = (e - m.index_select(0, index)).exp()
    den = scatter_sum(ex, index, n)
    return ex / (den.index_select(0, index) + 1e-16)


def count(index, n):
    ones = torch.ones(index.shape[0], dtype=torch.float32)
    return torch.zeros(n).scatter_add_(0, index, ones)


class GCNConv(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.bias = nn.Parameter(torch.randn(o) * 0.1)

    def forward(self, x, row, col, norm):
        h = self.lin(x)
        msg = h.index_select(0, row) * norm.unsqueeze(-1)
        return scatter_sum(msg, col, x.shape[0]) + self.bias


def gcn_norm(edge_index, n):
    """PyG's gcn_norm: self loops appended, each edge weighted 1 / sqrt(deg(src) deg(dst))."""
    loop = torch.arange(n)
    row = torch.cat([edge_index[0], loop])
    col = torch.cat([edge_index[1], loop])
    dis = count(col, n).pow(-0.5)
    dis = dis.masked_fill(dis == float("inf"), 0.0)
    return row, col, dis.index_select(0, row) * dis.index_select(0, col)


class GCN(nn.Module):
    """Two GCN layers with self loops and symmetric normalisation, log-softmax classes."""
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = GCNConv(6, 8), GCNConv(8, 3)

    def forward(self, x, edge_index):
        row, col, norm = gcn_norm(edge_index, x.shape[0])
        h = F.relu(self.c1(x, row, col, norm))
        return F.log_softmax(self.c2(h, row, col, norm), dim=1)


class GCNLayer(GCNConv):
    """One GCNConv as PyG runs it, normalisation included (a benchmark case of issue 15)."""
    def forward(self, x, edge_index):
        return super().forward(x, *gcn_norm(edge_index, x.shape[0]))


class SAGEConv(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin_l, self.lin_r = nn.Linear(i, o), nn.Linear(i, o, bias=False)

    def forward(self, x, src, dst):
        n = x.shape[0]
        mean = scatter_sum(x.index_select(0, src), dst, n) / count(dst, n).clamp(min=1).unsqueeze(-1)
        return F.normalize(self.lin_l(mean) + self.lin_r(x), p=2.0, dim=-1)


class SAGE(nn.Module):
    """GraphSAGE, mean aggregation, L2-normalised outputs."""
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = SAGEConv(6, 8), SAGEConv(8, 4)

    def forward(self, x, edge_index):
        h = F.relu(self.c1(x, edge_index[0], edge_index[1]))
        return self.c2(h, edge_index[0], edge_index[1])


class SAGELayer(SAGEConv):
    """One SAGEConv taking edge_index (a benchmark case of issue 15)."""
    def forward(self, x, edge_index):
        return super().forward(x, edge_index[0], edge_index[1])


class GCNIndexAddLayer(GCNConv):
    """One GCNConv as GCNLayer computes it, its aggregation spelled with index_add_, as users
    write it (the degrees still by scatter_add_: torch 1.13's static export of index_add_ of a
    constant source, ones, is an invalid graph). Torch 1.13 exports index_add_ as
    Add(self, ScatterElements(zeros, Expand(Unsqueeze(index)), Expand(src))): a last-wins scatter,
    not a sum, when indices repeat (index_add_sum exports the sum). exported_meaning: forward
    computes what that graph means instead (the oracle of the test data, index_add_last_wins)."""
    exported_meaning = False

    def index_add(self, out, index, src):
        if self.exported_meaning:
            return index_add_last_wins(out, index, src)
        return out.index_add_(0, index, src)

    def forward(self, x, edge_index):
        n = x.shape[0]
        loop = torch.arange(n)
        row = torch.cat([edge_index[0], loop])
        col = torch.cat([edge_index[1], loop])
        dis = count(col, n).pow(-0.5)
        dis = dis.masked_fill(dis == float("inf"), 0.0)
        norm = dis.index_select(0, row) * dis.index_select(0, col)
        h = self.lin(x)
        msg = h.index_select(0, row) * norm.unsqueeze(-1)
        return self.index_add(torch.zeros(n, h.shape[1]), col, msg) + self.bias


def index_add_last_wins(out, index, src):
    """What torch 1.13's export of out.index_add_(0, index, src) computes, transcribed to numpy
    from the graph: out + ScatterElements(zeros like out, index expanded to src's shape, src),
    the scatter applying the updates in index order, so the last edge naming a row wins (the
    row of the largest edge number naming it; rows no edge names stay 0)."""
    o, i, s = out.numpy(), index.numpy(), src.numpy()
    last = np.full(o.shape[0], -1, dtype=np.int64)
    np.maximum.at(last, i, np.arange(i.shape[0], dtype=np.int64))
    scattered = np.zeros_like(o)
    hit = last >= 0
    scattered[hit] = s[last[hit]]
    return torch.from_numpy(o + scattered)


def _index_add_113_symbolic(g, self, dim, index, other, alpha=None):
    """torch 1.13's own index_add symbolic (symbolic_opset9.index_add: Slice of self, expand_as,
    Unsqueezes of the index, its last-wins scatter_add) without its refusal of a source longer
    than self along dim when both sizes are static (E > N: every GNN)."""
    from torch.onnx import symbolic_helper as sh
    from torch.onnx import symbolic_opset9 as s9
    dim = sh._get_const(dim, "i", "dim")
    rank = sh._get_tensor_rank(self)
    if sh._get_tensor_rank(other) != rank:
        raise RuntimeError("index_add_: the models pass a source of self's rank")
    new_shape = sh._slice_helper(g, self, axes=list(range(rank)), starts=[0] * rank,
                                 ends=[sys.maxsize if i != dim else 1 for i in range(rank)])
    other = s9.expand_as(g, other, new_shape)
    for _ in range(dim):
        index = sh._unsqueeze_helper(g, index, [0])
    for _ in range(rank - dim - 1):
        index = sh._unsqueeze_helper(g, index, [sh._get_tensor_rank(index)])
    return s9.scatter_add(g, self, dim, s9.expand_as(g, index, other), other)


def _index_add_symbolic(g, self, dim, index, other, alpha=None):
    """index_add_ as a sum: the index Unsqueezed and Expanded to the source's shape (expand_as,
    as torch 1.13 writes it), then ScatterElements(reduction="add") on self, as an exporter
    that reads index_add_ right writes it at opset 16 and above."""
    from torch.onnx import symbolic_helper as sh
    dim = sh._get_const(dim, "i", "dim")
    rank = sh._get_tensor_rank(self)
    for _ in range(dim):
        index = sh._unsqueeze_helper(g, index, [0])
    for _ in range(rank - dim - 1):
        index = sh._unsqueeze_helper(g, index, [sh._get_tensor_rank(index)])
    index = g.op("Expand", index, g.op("Shape", other))
    return g.op("ScatterElements", self, index, other, axis_i=dim, reduction_s="add")


class SAGEMaxLayer(SAGEConv):
    """One SAGEConv with max aggregation in PyG's fill form: the rows start at -inf,
    scatter_reduce "amax" (include_self=False: the -inf reset scatter, then the max scatter),
    and the rows nobody sends to, still -inf, are zeroed: Where(IsInf(y), 0, y)."""
    def forward(self, x, edge_index):
        n, c = x.shape[0], x.shape[1]
        msg = x.index_select(0, edge_index[0])
        agg = torch.full((n, c), float("-inf")).scatter_reduce(
            0, expand_rows(edge_index[1], c), msg, "amax", include_self=False)
        agg = agg.masked_fill(agg.isinf(), 0.0)
        return F.normalize(self.lin_l(agg) + self.lin_r(x), p=2.0, dim=-1)


class GINConv(nn.Module):
    def __init__(self, i, o, eps):
        super().__init__()
        self.eps = eps
        self.mlp = nn.Sequential(nn.Linear(i, o), nn.BatchNorm1d(o), nn.ReLU(), nn.Linear(o, o))

    def forward(self, x, src, dst):
        return self.mlp((1 + self.eps) * x + scatter_sum(x.index_select(0, src), dst, x.shape[0]))


class GIN(nn.Module):
    """GIN with BatchNorm in its MLPs and a per-graph sum readout (batch vector input)."""
    def __init__(self, graphs):
        super().__init__()
        self.graphs = graphs
        self.c1, self.c2 = GINConv(6, 8, 0.1), GINConv(8, 8, 0.0)
        self.head = nn.Linear(8, 3)

    def forward(self, x, edge_index, batch):
        h = F.relu(self.c1(x, edge_index[0], edge_index[1]))
        h = self.c2(h, edge_index[0], edge_index[1])
        return self.head(scatter_sum(h, batch, self.graphs))


class GATConv(nn.Module):
    """PyG's GATConv: self loops, segment softmax over incoming edges, heads concatenated."""
    def __init__(self, i, heads, ch):
        super().__init__()
        self.h, self.c = heads, ch
        self.lin = nn.Linear(i, heads * ch, bias=False)
        self.att_src = nn.Parameter(torch.randn(1, heads, ch))
        self.att_dst = nn.Parameter(torch.randn(1, heads, ch))
        self.bias = nn.Parameter(torch.randn(heads * ch) * 0.1)

    def forward(self, x, edge_index):
        n = x.shape[0]
        loop = torch.arange(n)
        src = torch.cat([edge_index[0], loop])
        dst = torch.cat([edge_index[1], loop])
        h = self.lin(x).view(n, self.h, self.c)
        a_s = (h * self.att_src).sum(-1)
        a_d = (h * self.att_dst).sum(-1)
        e = F.leaky_relu(a_s.index_select(0, src) + a_d.index_select(0, dst), 0.2)
        alpha = segment_softmax(e, dst, n)
        msg = (h.index_select(0, src) * alpha.unsqueeze(-1)).reshape(-1, self.h * self.c)
        return scatter_sum(msg, dst, n) + self.bias


class GAT(GATConv):
    """One GAT layer, two heads, then ELU and a classifier."""
    def __init__(self, heads=2, ch=4):
        super().__init__(6, heads, ch)
        self.head = nn.Linear(heads * ch, 3)

    def forward(self, x, edge_index):
        return F.log_softmax(self.head(F.elu(super().forward(x, edge_index))), dim=-1)


class EdgeConv(nn.Module):
    """DGCNN's EdgeConv: max over incoming edges of MLP([x_i, x_j - x_i])."""
    def __init__(self, i=6, o=8):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * i, o), nn.ReLU(), nn.Linear(o, o))

    def forward(self, x, edge_index):
        x_j, x_i = x.index_select(0, edge_index[0]), x.index_select(0, edge_index[1])
        msg = self.mlp(torch.cat([x_i, x_j - x_i], dim=-1))
        return scatter_max(msg, edge_index[1], x.shape[0])


class PillarEncoder(nn.Module):
    """PointPillars: per-point features (offsets from the pillar mean), a linear + BatchNorm +
    ReLU per point, max-pool per pillar, and the pillars scattered into a bird's-eye canvas."""
    def __init__(self, pillars, ch=8, hw=(4, 5)):
        super().__init__()
        self.m, self.ch, self.hw = pillars, ch, hw
        self.lin = nn.Linear(7, ch, bias=False)
        self.bn = nn.BatchNorm1d(ch)

    def forward(self, points, point_pillar, pillar_cell):
        mean = scatter_sum(points[:, :3], point_pillar, self.m) / \
            count(point_pillar, self.m).clamp(min=1).unsqueeze(-1)
        feat = torch.cat([points, points[:, :3] - mean.index_select(0, point_pillar)], dim=-1)
        feat = F.relu(self.bn(self.lin(feat)))
        pooled = scatter_max(feat, point_pillar, self.m)
        canvas = torch.zeros(self.ch, self.hw[0] * self.hw[1])
        canvas[:, pillar_cell] = pooled.t()
        return canvas.view(1, self.ch, self.hw[0], self.hw[1])


class EmbeddingBag(nn.Module):
    """nn.EmbeddingBag's sum and mean modes with per-sample weights, bags given as a bag id
    per lookup (what offsets describe)."""
    def __init__(self, bags, vocab=12, dim=5):
        super().__init__()
        self.bags = bags
        self.weight = nn.Parameter(torch.randn(vocab, dim))

    def forward(self, ids, bag, per_sample_weights):
        emb = self.weight.index_select(0, ids) * per_sample_weights.unsqueeze(-1)
        sums = scatter_sum(emb, bag, self.bags)
        return sums, sums / count(bag, self.bags).clamp(min=1).unsqueeze(-1)


class Histogram(nn.Module):
    """torch.histc-style counts and a weighted histogram, bins by floor and clamp."""
    def __init__(self, bins=10, lo=-2.0, hi=3.0):
        super().__init__()
        self.bins, self.lo, self.hi = bins, lo, hi

    def forward(self, x, w):
        b = ((x - self.lo) * (self.bins / (self.hi - self.lo))).floor()
        b = b.clamp(0, self.bins - 1).long()
        counts = torch.zeros(self.bins).scatter_add_(0, b, torch.ones(x.shape[0]))
        return counts, torch.zeros(self.bins).scatter_add_(0, b, w)


class AttentionStep(nn.Module):
    """One decoder step: project, write the new K/V row into the static caches at cache_position
    (index_copy_), attend with a causal mask over the cache, project out."""
    def __init__(self, d=8, heads=2):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))

    def forward(self, x, k_cache, v_cache, cache_position):
        b, t = x.shape[0], k_cache.shape[2]

        def split(y):
            return y.view(b, 1, self.h, self.dh).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        k_cache = k_cache.index_copy(2, cache_position, k)
        v_cache = v_cache.index_copy(2, cache_position, v)
        scores = q @ k_cache.transpose(-1, -2) / (self.dh ** 0.5)
        future = torch.arange(t).unsqueeze(0) > cache_position.unsqueeze(-1)
        scores = scores.masked_fill(future, float("-inf"))
        out = (scores.softmax(-1) @ v_cache).transpose(1, 2).reshape(b, 1, self.h * self.dh)
        return self.o(out), k_cache, v_cache


class MoE(nn.Module):
    """Top-2 mixture of experts: softmax router, top-2 renormalised gates scattered into a dense
    [tokens, experts] matrix, experts as einsum contractions."""
    def __init__(self, d=6, hidden=8, experts=4):
        super().__init__()
        self.router = nn.Linear(d, experts, bias=False)
        self.w1 = nn.Parameter(torch.randn(experts, d, hidden) * 0.4)
        self.b1 = nn.Parameter(torch.randn(experts, hidden) * 0.1)
        self.w2 = nn.Parameter(torch.randn(experts, hidden, d) * 0.4)

    def forward(self, x):
        probs = self.router(x).softmax(-1)
        top_p, top_i = probs.topk(2, dim=-1)
        top_p = top_p / top_p.sum(-1, keepdim=True)
        gates = torch.zeros_like(probs).scatter(1, top_i, top_p)
        h = F.relu(torch.einsum("td,edh->teh", x, self.w1) + self.b1)
        y = torch.einsum("teh,ehd->ted", h, self.w2)
        return torch.einsum("te,ted->td", gates, y), top_i


class SparseEmbeddingUpdate(nn.Module):
    """A sparse optimizer step on an embedding table: row-wise Adagrad with repeated ids."""
    def __init__(self, lr=0.1, eps=1e-6):
        super().__init__()
        self.lr, self.eps = lr, eps

    def forward(self, weight, accum, ids, grads):
        accum = accum.scatter_add(0, ids, (grads * grads).mean(-1))
        step = grads / (accum.index_select(0, ids) + self.eps).sqrt().unsqueeze(-1)
        return weight.scatter_add(0, expand_rows(ids, weight.shape[1]), -self.lr * step), accum


class SegmentSoftmax(nn.Module):
    """PyG's softmax(src, index) on its own: edge scores normalised per destination."""
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, src, index):
        return segment_softmax(src, index, self.n)


# ---------------------------------------------------------------------------------------------
# Inputs: each model gets trace inputs and different test inputs of the same shapes.

def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def edges(g, n, e):
    """[2, e] int64 without self loops (the layers that want them add them)."""
    src = torch.randint(0, n, (e,), generator=g)
    dst = (src + torch.randint(1, n, (e,), generator=g)) % n
    return torch.stack([src, dst])


def normal(g, *shape):
    return torch.randn(*shape, generator=g)


def knn_edges(pos, k):
    """[2, n k] int64: each point i receives edges j -> i from its k nearest neighbours other than
    itself (PyG's knn_graph), grouped by i."""
    n, nbr = pos.shape[0], []
    for s in range(0, n, 2048):  # in blocks: 20,000 points make a 1.6 GB distance matrix
        d = torch.cdist(pos[s:s + 2048], pos)
        d[torch.arange(d.shape[0]), torch.arange(s, s + d.shape[0])] = float("inf")
        nbr.append(d.topk(k, dim=1, largest=False).indices)
    return torch.stack([torch.cat(nbr).reshape(-1), torch.arange(n).repeat_interleave(k)])


def random_graph(n, e, ch):
    return lambda g: (normal(g, n, ch), edges(g, n, e))


def random_graph_gaps(n, e, ch):
    """random_graph whose nodes 0, 10, 20, ... receive no edge (edges to them go to the next)."""
    def make(g):
        ei = edges(g, n, e)
        ei[1] = torch.where(ei[1] % 10 == 0, (ei[1] + 1) % n, ei[1])
        return normal(g, n, ch), ei
    return make


def point_cloud(n, k):
    def make(g):
        pos = normal(g, n, 3)
        return pos, knn_edges(pos, k)
    return make


def bn_stats(module, g):
    """Give every BatchNorm non-trivial running statistics and affine parameters."""
    for m in module.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.running_mean.copy_(normal(g, m.num_features) * 0.5)
            m.running_var.copy_(normal(g, m.num_features).abs() + 0.5)
            m.weight.data.copy_(normal(g, m.num_features) * 0.3 + 1)
            m.bias.data.copy_(normal(g, m.num_features) * 0.2)
    return module


def add_model(M, name, module, names, outs, make, opsets, note, layer=None, dynamic=None,
              index_add_sum=False):
    """M[name] = dict(module, names, outs, make(generator) -> inputs, opsets, note, layer,
    dynamic, index_add_sum); layer names the C loop of bench/gnn_loops.c that computes the same
    thing (issue 15's cases); dynamic is torch.onnx.export's dynamic_axes (None: static shapes);
    index_add_sum: index_add_ exported as a sum (_index_add_symbolic), else as torch 1.13 does."""
    torch.manual_seed(len(M) + 100)
    module = module()
    bn_stats(module, gen(len(M) + 200))
    M[name] = dict(module=module.eval(), names=names, outs=outs, make=make, opsets=opsets,
                   note=note, layer=layer, dynamic=dynamic, index_add_sum=index_add_sum)


# The node and edge counts symbolic, as GNNs are normally exported.
GNN_DYNAMIC = {"x": {0: "N"}, "edge_index": {1: "E"}, "y": {0: "N"}}


# Issue 15's benchmark: (nodes, edges) per layer; for EdgeConv (points, k nearest neighbours).
GNN_BENCH = {"gcn": (100000, 1000000), "sage": (100000, 1000000), "gat": (50000, 500000),
             "edgeconv": (20000, 20)}
GNN_SMALL = {"gcn": (300, 2000), "sage": (300, 2000), "gat": (300, 2000), "edgeconv": (100, 20)}


def gnn_layers(M, sizes, suffix, dynamic=False):
    """The four one-layer cases of issue 15 on graphs of the given sizes, named gnn_<layer>;
    dynamic: exported with symbolic node and edge counts (GNN_DYNAMIC), named
    gnn_<layer><suffix>_dynamic, without the benchmark's layer/ folder."""
    def add(layer, module, make, opset, note):
        if dynamic:
            add_model(M, "gnn_" + layer + suffix + "_dynamic", module, ["x", "edge_index"], ["y"],
                      make, (opset,), note + "; dynamic axes N, E", None, GNN_DYNAMIC)
            return
        add_model(M, "gnn_" + layer + suffix, module, ["x", "edge_index"], ["y"], make, (opset,),
                  note, layer)
    n, e = sizes["gcn"]
    add("gcn", lambda: GCNLayer(64, 64), random_graph(n, e, 64), 17,
        "one GCNConv 64 -> 64 (self loops, symmetric normalisation), %d nodes, %d edges" % (n, e))
    n, e = sizes["sage"]
    add("sage", lambda: SAGELayer(64, 64), random_graph(n, e, 64), 17,
        "one SAGEConv 64 -> 64 (mean aggregation, L2-normalised), %d nodes, %d edges" % (n, e))
    n, e = sizes["gat"]
    add("gat", lambda: GATConv(64, 2, 32), random_graph(n, e, 64), MAX_OPSET,
        "one GATConv 64 -> 2 heads x 32 (segment softmax with scatter max), %d nodes, %d edges"
        % (n, e))
    n, k = sizes["edgeconv"]
    add("edgeconv", lambda: EdgeConv(3, 64), point_cloud(n, k), MAX_OPSET,
        "one EdgeConv 3 -> 64, max aggregation, %d points, k = %d nearest neighbours" % (n, k))


def gnn_spellings(M, sizes, suffix, dynamic=False):
    """The same layers as other exporters' users spell them, named gnn_<layer><suffix>_<spelling>
    (so that gnn_*_small_opset* still names issue 15's four), with _dynamic as gnn_layers:
    GCN with index_add_ as torch 1.13 exports it (a last-wins scatter: the test data hold what the
    graph computes, index_add_last_wins), the same with index_add_ exported as a sum, and SAGE
    with max aggregation in PyG's fill form (layer names: the C loops of bench/gnn_loops.c)."""
    def add(name, module, make, opset, note, layer, **kw):
        name = "gnn_" + name.replace("_", suffix + "_", 1)
        if dynamic:
            add_model(M, name + "_dynamic", module, ["x", "edge_index"], ["y"], make, (opset,),
                      note + "; dynamic axes N, E", None, GNN_DYNAMIC, **kw)
            return
        add_model(M, name, module, ["x", "edge_index"], ["y"], make, (opset,), note, layer, **kw)
    n, e = sizes["gcn"]
    add("gcn_index_add", lambda: GCNIndexAddLayer(64, 64), random_graph(n, e, 64), 17,
        "one GCNConv 64 -> 64 spelled with index_add_, exported by torch 1.13 as a last-wins "
        "scatter into zeros plus Add (outputs: what that graph computes), %d nodes, %d edges"
        % (n, e), "gcn_last")
    add("gcn_index_add_sum", lambda: GCNIndexAddLayer(64, 64), random_graph(n, e, 64), 17,
        "one GCNConv 64 -> 64 spelled with index_add_, exported as a sum (ScatterElements "
        "reduction=add on the expanded index), %d nodes, %d edges" % (n, e), "gcn",
        index_add_sum=True)
    n, e = sizes["sage"]
    add("sage_max", lambda: SAGEMaxLayer(64, 64), random_graph_gaps(n, e, 64), MAX_OPSET,
        "one SAGEConv 64 -> 64, max aggregation from -inf, empty rows zeroed (Where(IsInf)), "
        "every tenth node receives nothing, %d nodes, %d edges" % (n, e), "sage_max")


def models():
    """name -> dict(module, names, outs, make(generator) -> inputs, opsets, note, layer)."""
    M = {}

    def add(*args):
        add_model(M, *args)

    n, e = 8, 20
    gnn = (lambda g: (normal(g, n, 6), edges(g, n, e)))
    add("gcn", GCN, ["x", "edge_index"], ["y"], gnn, (16, 17),
        "two-layer GCN, self loops, symmetric normalisation, log-softmax")
    add("graphsage", SAGE, ["x", "edge_index"], ["y"], gnn, (16, 17),
        "GraphSAGE, mean aggregation, L2-normalised outputs")
    add("gin", lambda: GIN(2), ["x", "edge_index", "batch"], ["y"],
        lambda g: (normal(g, n, 6), edges(g, n, e), torch.tensor([0, 0, 0, 1, 1, 1, 1, 1])),
        (16, 17), "GIN with BatchNorm MLPs and a per-graph sum readout")
    add("gat", GAT, ["x", "edge_index"], ["y"], gnn, (MAX_OPSET,),
        "GAT, two heads, segment softmax (scatter max + scatter sum)")
    add("edgeconv", EdgeConv, ["x", "edge_index"], ["y"], gnn, (MAX_OPSET,),
        "EdgeConv, max aggregation")
    add("segment_softmax", lambda: SegmentSoftmax(6), ["src", "index"], ["y"],
        lambda g: (normal(g, 15, 2), torch.randint(0, 6, (15,), generator=g)), (MAX_OPSET,),
        "softmax of edge scores per destination (some destinations receive nothing)")

    def pillars(g):
        p, m = 24, 6
        pid = torch.cat([torch.arange(m), torch.randint(0, m, (p - m,), generator=g)])
        cells = torch.randperm(20, generator=g)[:m]
        return normal(g, p, 4), pid, cells
    add("pointpillars", lambda: PillarEncoder(6), ["points", "point_pillar", "pillar_cell"],
        ["canvas"], pillars, (MAX_OPSET,),
        "pillar encoder: per-point linear + BatchNorm + ReLU, pillar max-pool, canvas scatter")

    def bag(g):
        ids = torch.randint(0, 12, (14,), generator=g)
        bags = torch.sort(torch.randint(0, 4, (14,), generator=g)).values
        return ids, bags, normal(g, 14).abs() + 0.1
    add("embedding_bag", lambda: EmbeddingBag(5), ["ids", "bag", "per_sample_weights"],
        ["sums", "means"], bag, (16, 17), "embedding bag, sum and mean, per-sample weights")

    def hist(g):  # bin centres plus jitter, so no value sits on a bin edge
        b = torch.randint(-1, 11, (40,), generator=g).to(torch.float32)
        return -2.0 + (b + 0.5 + (torch.rand(40, generator=g) - 0.5) * 0.8) * 0.5, \
            torch.rand(40, generator=g)
    add("histogram", Histogram, ["x", "w"], ["counts", "weighted"], hist, (16, 17),
        "histogram counts and weighted histogram (floor, clamp, scatter_add_)")

    def attn(g):
        return (normal(g, 2, 1, 8), normal(g, 2, 2, 6, 4), normal(g, 2, 2, 6, 4),
                torch.randint(0, 6, (1,), generator=g))
    add("attention_step", AttentionStep, ["x", "k_cache", "v_cache", "cache_position"],
        ["y", "k_out", "v_out"], attn, (16, 17),
        "one decoder attention step: index_copy_ into the KV caches, causal mask, softmax")
    add("moe_top2", MoE, ["x"], ["y", "experts"], lambda g: (normal(g, 5, 6),), (16, 17),
        "top-2 mixture-of-experts router and einsum experts")

    def sparse(g):
        ids = torch.randint(0, 10, (12,), generator=g)
        ids[1] = ids[0]  # repeated ids must accumulate
        return normal(g, 10, 4), normal(g, 10).abs(), ids, normal(g, 12, 4)
    add("sparse_embedding_update", SparseEmbeddingUpdate, ["weight", "accum", "ids", "grads"],
        ["weight_out", "accum_out"], sparse, (16, 17),
        "row-wise Adagrad step on an embedding table, repeated ids accumulate")
    gnn_layers(M, GNN_SMALL, "_small")
    gnn_layers(M, GNN_SMALL, "_small", dynamic=True)
    gnn_spellings(M, GNN_SMALL, "_small")
    gnn_spellings(M, GNN_SMALL, "_small", dynamic=True)
    return M


# ---------------------------------------------------------------------------------------------

def _scatter_add_symbolic(g, self, dim, index, src):
    """scatter_add as torch's own opset-16 symbolic writes it, without its check that index and
    src have the same static shape (which fails on dynamic axes; torch 2.x dropped it)."""
    from torch.onnx import symbolic_helper as sh
    return g.op("ScatterElements", self, index, src, axis_i=sh._get_const(dim, "i", "dim"),
                reduction_s="add")


def export(p, opset):
    f = io.BytesIO()
    if p["dynamic"]:
        torch.onnx.register_custom_op_symbolic("aten::scatter_add", _scatter_add_symbolic, 16)
    index_add = hasattr(p["module"], "exported_meaning")  # (GCNIndexAddLayer)
    if index_add:
        torch.onnx.register_custom_op_symbolic(
            "aten::index_add", _index_add_symbolic if p["index_add_sum"] else
            _index_add_113_symbolic, 16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(p["module"], p["make"](gen(1)), f,
                          opset_version=min(opset, 17), input_names=p["names"],
                          output_names=p["outs"], do_constant_folding=True,
                          dynamic_axes=p["dynamic"],
                          custom_opsets={"osc_tmp": 1} if opset == MAX_OPSET else None)
    if p["dynamic"]:
        torch.onnx.unregister_custom_op_symbolic("aten::scatter_add", 16)
    if index_add:
        torch.onnx.unregister_custom_op_symbolic("aten::index_add", 16)
    model = f.getvalue()
    if opset == MAX_OPSET:
        model = rewrite_to_18(model)
    elif b"osc_tmp" in model:
        raise RuntimeError("uses scatter_reduce, which exists in ONNX from opset 18 only")
    return model


def write_folder(folder, model, test, outputs):
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    ds = os.path.join(folder, "test_data_set_0")
    os.makedirs(ds)
    with open(os.path.join(folder, "model.onnx"), "wb") as fh:
        fh.write(model)
    m = onnx.load_from_string(model)
    inits = {i.name for i in m.graph.initializer}
    graph_inputs = [i.name for i in m.graph.input if i.name not in inits]
    for k, (name, t) in enumerate(test):
        if name not in graph_inputs:
            raise RuntimeError("the exported graph dropped input %s" % name)
        with open(os.path.join(ds, "input_%d.pb" % graph_inputs.index(name)), "wb") as fh:
            fh.write(tensor_proto(name, t))
    for k, (name, t) in enumerate(outputs):
        with open(os.path.join(ds, "output_%d.pb" % k), "wb") as fh:
            fh.write(tensor_proto(name, t))
    return sorted({(n.domain + "." if n.domain else "") + n.op_type for n in m.graph.node})


def write_layer(folder, p, model):
    """folder/layer/, what bench/gnn_loops.c reads: the module's parameters (one .pb each, named
    as in its state_dict) and layer.txt: the layer's name and the bytes of the model's constants
    (initializers and Constant nodes), for the benchmark's peak RSS over model bytes."""
    d = os.path.join(folder, "layer")
    os.makedirs(d)
    g = onnx.load_from_string(model).graph
    consts = list(g.initializer) + [a.t for n in g.node if n.op_type == "Constant"
                                    for a in n.attribute if a.name == "value"]
    with open(os.path.join(d, "layer.txt"), "w") as fh:
        fh.write("layer %s\nconstant_bytes %d\n"
                 % (p["layer"], sum(numpy_helper.to_array(t).nbytes for t in consts)))
    for name, t in p["module"].state_dict().items():
        with open(os.path.join(d, name + ".pb"), "wb") as fh:
            fh.write(tensor_proto(name, t))


def make_folder(folder, p, opset):
    """Exports p at opset into the node-test folder; returns (op types used, model bytes)."""
    model = export(p, opset)
    test = p["make"](gen(2))
    # the oracle: the module in eager mode, what the graph computes where the export differs
    meaning = hasattr(p["module"], "exported_meaning") and not p["index_add_sum"]
    p["module"].exported_meaning = meaning
    with torch.no_grad():
        y = p["module"](*[t.clone() for t in test])
    if meaning:
        p["module"].exported_meaning = False
    y = y if isinstance(y, tuple) else (y,)
    ops = write_folder(folder, model, list(zip(p["names"], test)), list(zip(p["outs"], y)))
    if p["layer"]:
        write_layer(folder, p, model)
    if p["dynamic"]:  # the CLI's pins for its test data (tests/cli/fusion_exact.sh)
        sizes = {}
        for name, t in zip(p["names"], test):
            for axis, sym in p["dynamic"].get(name, {}).items():
                sizes[sym] = t.shape[axis]
        with open(os.path.join(folder, "dims"), "w") as fh:
            fh.write(" ".join("--dim %s=%d" % kv for kv in sorted(sizes.items())) + "\n")
    return ops, len(model)


class GCN2Layers(nn.Module):
    """Two GCNConv layers with ReLU between, one normalised edge index shared (--bench only)."""
    def __init__(self, i, h, o):
        super().__init__()
        self.c1, self.c2 = GCNConv(i, h), GCNConv(h, o)

    def forward(self, x, edge_index):
        row, col, norm = gcn_norm(edge_index, x.shape[0])
        return self.c2(F.relu(self.c1(x, row, col, norm)), row, col, norm)


def bench(out_dir, scale):
    """Issue 15's cases as OUT/gnn_<layer>/, node and edge counts divided by scale (EdgeConv
    keeps k), the same four exported with dynamic axes N, E as OUT/gnn_<layer>_dynamic/ (the
    static case's weights and data, a dims file of the pins, layer/ for the C loop), a
    two-layer GCN as OUT/gnn_gcn2/, and gnn_spellings' layers, static and dynamic, as
    OUT/gnn_<layer>_<spelling>[_dynamic]/. Built in bench/run.sh's build folder, never
    committed."""
    sizes = {k: (a // scale, b if k == "edgeconv" else b // scale) for k, (a, b) in
             GNN_BENCH.items()}
    M, D = {}, {}
    gnn_layers(M, sizes, "")
    gnn_layers(D, sizes, "", dynamic=True)  # seeded as M: the same modules
    for name, p in D.items():
        p["layer"] = M[name[:-len("_dynamic")]]["layer"]
        M[name] = p
    n, e = sizes["gcn"]
    add_model(M, "gnn_gcn2", lambda: GCN2Layers(64, 64, 64), ["x", "edge_index"], ["y"],
              random_graph(n, e, 64), (17,), "two GCNConv 64 -> 64 -> 64, ReLU between, one "
              "shared normalisation, %d nodes, %d edges" % (n, e), "gcn2")
    S, SD = {}, {}
    gnn_spellings(S, sizes, "")
    gnn_spellings(SD, sizes, "", dynamic=True)  # seeded as S: the same modules
    for name, p in SD.items():
        p["layer"] = S[name[:-len("_dynamic")]]["layer"]
    M.update(S)
    M.update(SD)
    for name, p in M.items():
        _, size = make_folder(os.path.join(out_dir, name), p, p["opsets"][0])
        print("%s: %s; model %d bytes" % (name, p["note"], size), flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description="Exports the models of tests/models (see the "
                                 "docstring), or with --bench issue 15's benchmark cases.")
    ap.add_argument("out_dir", nargs="?", default=HERE, help="default: this script's folder")
    ap.add_argument("--bench", metavar="OUT_DIR", help="write the GNN benchmark cases there")
    ap.add_argument("--scale", type=int, default=1, help="--bench: divide node and edge counts")
    ap.add_argument("--detection", action="store_true", help="only the detection models "
                    "(OUT_DIR/detection/; with --bench: full size into the --bench folder)")
    a = ap.parse_args()
    if a.detection:
        return detection(a.bench or os.path.join(a.out_dir, "detection"), bool(a.bench))
    if a.bench:
        return bench(a.bench, max(a.scale, 1))
    made, op_use = [], {}
    for name, p in models().items():
        for opset in p["opsets"]:
            ops, size = make_folder(os.path.join(a.out_dir, "%s_opset%d" % (name, opset)), p,
                                    opset)
            made.append((name, opset, size))
            for op in ops:
                op_use.setdefault(op, set()).add(name)
    write_readme(a.out_dir, made, op_use)
    print("%d folders, %d bytes of models" % (len(made), sum(s for _, _, s in made)))
    return detection(os.path.join(a.out_dir, "detection"), False)


def detection(out_dir, full):
    """gen_detection.py's models into out_dir/<model>/ (small) or full size (--bench), with a
    README.md listing them and their op types when small."""
    if gen_detection.torchvision is None:
        print("detection models skipped: python3-torchvision is not installed", file=sys.stderr)
        return 1
    gen_detection.register_symbolics()
    M = gen_detection.detection_models(add_model, full)
    lines = [
        "# tests/models/detection: detection models exported from PyTorch and torchvision",
        "",
        "Generated by `gen_models.py` (`--detection` for these alone); see `gen_detection.py`.",
        "Node-test folders as `tests/models/*_opset*`, at opset %d, expected outputs from torch"
        % gen_detection.OPSET,
        "eager. They need Conv and ConvTranspose kernels (family conv), so they sit in a folder",
        "of their own, their names without `_opset`: the ctest and tests/cli loops over",
        "`tests/models/*_opset*` leave them out.",
        "",
        "torch `%s`, torchvision `%s`" % (torch.__version__, gen_detection.torchvision.__version__),
        "",
        "| model | what | op types |",
        "|---|---|---|",
    ]
    os.makedirs(out_dir, exist_ok=True)
    for name, p in M.items():
        ops, size = make_folder(os.path.join(out_dir, name), p, gen_detection.OPSET)
        lines.append("| `%s` | %s | %s |" % (name, p["note"], ", ".join(ops)))
        print("%s: %s; model %d bytes" % (name, p["note"], size), flush=True)
    if not full:
        made = gen_detection.parts(M, out_dir, os.path.join(out_dir, "parts"),
                                   lambda p: p["make"](gen(2)), write_folder)
        lines += ["", "`parts/` holds the conv-free parts of these graphs (ONNX's Extractor), fed "
                  "with torch eager's values at the cut, with eager's outputs: %s. ctest "
                  "`model_detection_parts` runs them now." % ", ".join(made)]
        with open(os.path.join(out_dir, "README.md"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
    return 0


def write_readme(out_dir, made, op_use):
    M = models()
    lines = [
        "# tests/models: whole scatter-heavy models exported from PyTorch",
        "",
        "Generated by `gen_models.py` and committed; regenerate with",
        "`/usr/bin/python3 tests/models/gen_models.py` (Debian's `python3-torch` and `python3-onnx`).",
        "Each `<model>_opset<N>/` is a node-test folder: `model.onnx` from `torch.onnx.export`, and",
        "`test_data_set_0/` with inputs other than the traced ones and the outputs of the torch module",
        "itself in eager mode. `tests/models.cmake` runs every folder through `onnx-scatter test`.",
        "The script's docstring says which torch 1.13 export bugs the models are written around and",
        "how the opset-18 ScatterElements max form is produced.",
        "The `gnn_*_small` folders are issue 15's benchmark layers on small graphs; their `layer/`",
        "holds the module's parameters for `bench/gnn_loops.c` (ctest `bench_gnn_smoke` runs them",
        "through `osc-bench-gnn`; `bench/run.sh --gnn` times them at full size).",
        "The `gnn_<layer>_small_<spelling>` folders are two of them as users also spell them",
        "(index_add_, max aggregation): `gnn_gcn_small_index_add` holds what its graph computes",
        "(torch 1.13 exports index_add_ as a last-wins scatter), not torch eager's sums.",
        "`detection/` holds detection models (gen_detection.py), outside the `*_opset*` loops",
        "until the conv family exists: see its README.md.",
        "",
        "torch version: `%s`" % torch.__version__,
        "",
        "| model | what | opsets |",
        "|---|---|---|",
    ]
    for name, p in M.items():
        ops = ", ".join(str(o) for (n, o, _) in made if n == name)
        lines.append("| `%s` | %s | %s |" % (name, p["note"], ops))
    lines += ["", "ONNX op types used:", ""]
    for op in sorted(op_use):
        lines.append("- %s: %s" % (op, ", ".join(sorted(op_use[op]))))
    with open(os.path.join(out_dir, "README.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
