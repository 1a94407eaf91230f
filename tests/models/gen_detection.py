"""gen_detection.py: the detection models of gen_models.py (imported by it; not run alone).

Three torch modules, each exported at opset 17 (torch 1.13's newest) into a node-test folder with
torch eager's outputs as the expected ones:

- pointpillars_det: a PointPillars-style detector. Pillar feature net (Linear + BatchNorm + ReLU
  over the points of each pillar, max over the points), the pillars scattered onto a BEV canvas
  (ScatterElements), a three-stage 2-D conv backbone whose stages are brought back to one
  resolution by ConvTranspose and concatenated, an SSD head (class and box convolutions over A
  anchors per cell), box decoding against fixed anchors, and torchvision.ops.nms (torchvision's
  own symbolic: NonMaxSuppression with max_output_boxes_per_class = 2^63 - 1).
- dgcnn: DGCNN classification. EdgeConv blocks (k nearest neighbours by topk on the pairwise
  distances, Gather of the neighbours, 1x1 Conv2d + BatchNorm + LeakyReLU, max over the
  neighbours), Conv1d over the concatenated blocks, a global max pool and an MLP.
- roi_head: a small two-stage head. A conv backbone, torchvision.ops.roi_align of given
  proposals (aligned=True; exported with a symbolic of ours that writes
  coordinate_transformation_mode, which torchvision 0.14's omits: from opset 16 its absence
  means half_pixel whatever `aligned` says), then a two-layer MLP with class and box outputs.

Small sizes for tests/models/detection/ (committed: their names hold no `_opset`, so the loops
over tests/models/*_opset* never see them); full sizes (a 432 x 496 canvas, 1,024 points) only
with gen_models.py --bench DIR.
"""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    import torchvision
    from torchvision.ops import nms as tv_nms, roi_align as tv_roi_align
except ImportError:  # python3-torchvision is needed
    torchvision = None

OPSET = 17


def _roi_align_symbolic(g, input, rois, spatial_scale, pooled_height, pooled_width,
                        sampling_ratio, aligned):
    from torch.onnx import symbolic_helper as sh
    spatial_scale = sh._get_const(spatial_scale, "f", "spatial_scale")
    pooled_height = sh._get_const(pooled_height, "i", "pooled_height")
    pooled_width = sh._get_const(pooled_width, "i", "pooled_width")
    sampling_ratio = max(sh._get_const(sampling_ratio, "i", "sampling_ratio"), 0)
    aligned = sh._get_const(aligned, "b", "aligned")
    col0 = g.op("Gather", rois, g.op("Constant", value_t=torch.tensor(0)), axis_i=1)
    batch_indices = g.op("Cast", col0, to_i=7)  # int64
    boxes = g.op("Gather", rois, g.op("Constant", value_t=torch.tensor([1, 2, 3, 4])), axis_i=1)
    return g.op("RoiAlign", input, boxes, batch_indices, spatial_scale_f=spatial_scale,
                output_height_i=pooled_height, output_width_i=pooled_width,
                sampling_ratio_i=sampling_ratio,
                coordinate_transformation_mode_s="half_pixel" if aligned else
                "output_half_pixel")


def register_symbolics():
    torch.onnx.register_custom_op_symbolic("torchvision::roi_align", _roi_align_symbolic, 16)


# ---------------------------------------------------------------------------------------------

class PointPillarsDet(nn.Module):
    """points [P, T, 4] (T points per pillar), pillar_cell [P] (row * W + column of the canvas)
    -> keep [K] (anchor indices NMS kept, by score), boxes [K, 4] (x1, y1, x2, y2), scores [K]."""

    def __init__(self, hw=(16, 16), ch=8, anchors=2, classes=3, iou=0.5):
        super().__init__()
        self.h, self.w, self.ch, self.a, self.iou = hw[0], hw[1], ch, anchors, iou
        self.pfn = nn.Linear(4, ch)
        self.pfn_bn = nn.BatchNorm1d(ch)

        def block(i, o, stride):
            return nn.Sequential(nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU())
        self.stage1 = block(ch, ch, 2)
        self.stage2 = block(ch, 2 * ch, 2)
        self.stage3 = block(2 * ch, 4 * ch, 2)
        self.up1 = nn.ConvTranspose2d(ch, ch, 1, 1)
        self.up2 = nn.ConvTranspose2d(2 * ch, ch, 2, 2)
        self.up3 = nn.ConvTranspose2d(4 * ch, ch, 4, 4)
        self.cls = nn.Conv2d(3 * ch, anchors * classes, 1)
        self.box = nn.Conv2d(3 * ch, anchors * 4, 1)
        # anchors: one per cell of the head's grid and anchor size, (cx, cy, w, h)
        hh, ww = self.h // 2, self.w // 2
        ys, xs = torch.meshgrid(torch.arange(hh) + 0.5, torch.arange(ww) + 0.5, indexing="ij")
        sizes = torch.tensor([[1.5, 1.5], [3.0, 1.5]])[:anchors]
        cx = xs.reshape(1, -1).expand(anchors, -1)
        cy = ys.reshape(1, -1).expand(anchors, -1)
        self.register_buffer("anchors", torch.stack(
            [cx, cy, sizes[:, :1].expand(-1, hh * ww), sizes[:, 1:].expand(-1, hh * ww)],
            -1).reshape(-1, 4))
        self.classes = classes

    def forward(self, points, pillar_cell):
        p, t, _ = points.shape
        x = F.relu(self.pfn_bn(self.pfn(points.reshape(p * t, 4))))
        feat = x.reshape(p, t, self.ch).max(dim=1)[0]                     # [P, C]
        canvas = torch.zeros(self.ch, self.h * self.w)
        canvas = canvas.scatter(1, pillar_cell.reshape(1, p).expand(self.ch, p), feat.t())
        bev = canvas.reshape(1, self.ch, self.h, self.w)
        s1 = self.stage1(bev)
        s2 = self.stage2(s1)
        s3 = self.stage3(s2)
        y = torch.cat([self.up1(s1), self.up2(s2), self.up3(s3)], 1)      # [1, 3C, H/2, W/2]
        cls = self.cls(y).reshape(self.a, self.classes, -1).permute(0, 2, 1)
        scores = torch.sigmoid(cls).reshape(-1, self.classes).max(dim=1)[0]
        d = self.box(y).reshape(self.a, 4, -1).permute(0, 2, 1).reshape(-1, 4)
        an = self.anchors
        c = an[:, :2] + d[:, :2] * an[:, 2:]
        wh = an[:, 2:] * torch.exp(d[:, 2:].clamp(max=4.0))
        boxes = torch.cat([c - wh / 2, c + wh / 2], 1)
        keep = tv_nms(boxes, scores, self.iou)
        return keep, boxes[keep], scores[keep]


def pointpillars_inputs(g, hw, pillars, per_pillar):
    cells = torch.randperm(hw[0] * hw[1], generator=g)[:pillars]
    return torch.randn(pillars, per_pillar, 4, generator=g), cells


# ---------------------------------------------------------------------------------------------

def knn(x, k):
    """x [B, C, N] -> [B, N, k] indices of the k nearest points (the point itself first)."""
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x ** 2, dim=1, keepdim=True)
    pairwise = -xx - inner - xx.transpose(2, 1)
    return pairwise.topk(k=k, dim=-1)[1]


def graph_feature(x, k):
    """x [B, C, N] -> [B, 2C, N, k]: (neighbour - point, point) per edge, as DGCNN's code."""
    b, c, n = x.shape
    idx = knn(x, k) + torch.arange(b).reshape(-1, 1, 1) * n
    xt = x.transpose(2, 1).contiguous()
    nb = xt.reshape(b * n, c)[idx.reshape(-1)].reshape(b, n, k, c)
    xc = xt.reshape(b, n, 1, c).expand(b, n, k, c)
    return torch.cat([nb - xc, xc], 3).permute(0, 3, 1, 2)


class DGCNN(nn.Module):
    """x [B, 3, N] -> logits [B, classes]."""

    def __init__(self, k=20, ch=(16, 16, 32), emb=64, classes=10):
        super().__init__()
        self.k = k
        convs, i = [], 3
        for o in ch:
            convs.append(nn.Sequential(nn.Conv2d(2 * i, o, 1, bias=False), nn.BatchNorm2d(o),
                                       nn.LeakyReLU(0.2)))
            i = o
        self.edge = nn.ModuleList(convs)
        self.conv = nn.Sequential(nn.Conv1d(sum(ch), emb, 1, bias=False), nn.BatchNorm1d(emb),
                                  nn.LeakyReLU(0.2))
        self.mlp = nn.Sequential(nn.Linear(emb, emb // 2, bias=False), nn.BatchNorm1d(emb // 2),
                                 nn.LeakyReLU(0.2), nn.Linear(emb // 2, classes))

    def forward(self, x):
        outs = []
        for conv in self.edge:
            x = conv(graph_feature(x, self.k)).max(dim=-1)[0]
            outs.append(x)
        x = self.conv(torch.cat(outs, 1)).max(dim=-1)[0]
        return self.mlp(x)


# ---------------------------------------------------------------------------------------------

class RoiHead(nn.Module):
    """image [1, 3, H, W], rois [R, 5] (batch index, x1, y1, x2, y2 in image pixels) ->
    class logits [R, classes], box deltas [R, 4]."""

    def __init__(self, ch=8, pool=4, hidden=32, classes=5):
        super().__init__()
        self.pool = pool
        self.backbone = nn.Sequential(nn.Conv2d(3, ch, 3, 2, 1), nn.BatchNorm2d(ch), nn.ReLU(),
                                      nn.Conv2d(ch, ch, 3, 1, 1), nn.ReLU())
        self.fc = nn.Sequential(nn.Linear(ch * pool * pool, hidden), nn.ReLU())
        self.cls = nn.Linear(hidden, classes)
        self.box = nn.Linear(hidden, 4)

    def forward(self, image, rois):
        f = self.backbone(image)
        r = tv_roi_align(f, rois, (self.pool, self.pool), spatial_scale=0.5, sampling_ratio=0,
                         aligned=True)
        h = self.fc(r.flatten(1))
        return self.cls(h), self.box(h)


def roi_inputs(g, hw, r):
    lo = torch.rand(r, 2, generator=g) * torch.tensor([hw[1], hw[0]]) * 0.7
    size = torch.rand(r, 2, generator=g) * torch.tensor([hw[1], hw[0]]) * 0.3 + 2
    rois = torch.cat([torch.zeros(r, 1), lo, lo + size], 1)
    return torch.randn(1, 3, hw[0], hw[1], generator=g), rois


# ---------------------------------------------------------------------------------------------

def detection_models(add_model, full=False):
    """Adds the three models to a dict through gen_models.py's add_model(name, module, names,
    outs, make, opsets, note); small sizes, or full ones."""
    M = {}
    hw, pil, per = ((496, 432), 12000, 32) if full else ((16, 16), 40, 6)
    pts, k = (1024, 20) if full else (48, 20)
    rhw, nr = ((256, 256), 64) if full else ((24, 32), 6)

    def pp(g):
        return pointpillars_inputs(g, hw, pil, per)
    add_model(M, "pointpillars_det", lambda: PointPillarsDet(hw, 64 if full else 8),
              ["points", "pillar_cell"], ["keep", "boxes", "scores"], pp, (OPSET,),
              "PointPillars-style detector: pillar net, BEV scatter (%d x %d), three-stage conv "
              "backbone with ConvTranspose, SSD head, box decode, torchvision nms"
              % (hw[0], hw[1]))
    add_model(M, "dgcnn", lambda: DGCNN(k), ["x"], ["logits"],
              lambda g: (torch.randn(1, 3, pts, generator=g),), (OPSET,),
              "DGCNN classification: three EdgeConv blocks (k = %d by topk), Conv1d, global "
              "max pool, MLP; %d points" % (k, pts))
    add_model(M, "roi_head", RoiHead, ["image", "rois"], ["cls", "box"],
              lambda g: roi_inputs(g, rhw, nr), (OPSET,),
              "two-stage head: conv backbone, torchvision roi_align (aligned, adaptive "
              "sampling) of %d proposals, MLP class and box outputs" % nr)
    return M


# ---------------------------------------------------------------------------------------------
# The parts that run before the conv family exists: subgraphs of the exported models (ONNX's
# Extractor), fed with torch eager's values at their cut and checked against eager's outputs.

def _eager_with_cuts(p, test):
    """Runs p's module on test; returns (outputs, cuts): the first convolution's input and
    the (boxes, scores) nms received."""
    mod, cuts = p["module"], {}
    conv0 = next(m for m in mod.modules() if isinstance(m, (nn.Conv1d, nn.Conv2d)))
    hook = conv0.register_forward_pre_hook(lambda m, a: cuts.setdefault("conv0", a[0].clone()))
    global tv_nms
    nms = tv_nms

    def nms_cut(b, s, iou):
        cuts["nms"] = (b.clone(), s.clone())
        return nms(b, s, iou)
    tv_nms = nms_cut
    try:
        with torch.no_grad():
            y = mod(*[t.clone() for t in test])
    finally:
        tv_nms = nms
        hook.remove()
    return (y if isinstance(y, tuple) else (y,)), cuts


def parts(M, model_dir, out_dir, test, write):
    """For each model of M exported into model_dir/<name>/model.onnx, writes the node-test
    folders out_dir/<name>_<part>/ (write(folder, model bytes, [(name, tensor)] inputs, outputs))
    of its conv-free parts: `head` (the graph inputs up to the first Conv: pillar net and BEV
    scatter; knn by TopK and the neighbour Gather), `nms` (box decode's output through
    NonMaxSuppression to the kept boxes) and `tail` (RoiAlign on the backbone's features through
    the MLP). Returns the folder names."""
    import onnx
    made = []
    for name, p in M.items():
        x = test(p)
        y, cuts = _eager_with_cuts(p, x)
        model = onnx.load(os.path.join(model_dir, name, "model.onnx"))
        g = model.graph
        made_by = {o: n for n in g.node for o in n.output}
        cut = []
        conv0 = next(n for n in g.node if n.op_type == "Conv")
        if conv0.input[0] not in p["names"]:
            cut.append(("head", p["names"], x, [conv0.input[0]], [cuts["conv0"]]))
        nms = [n for n in g.node if n.op_type == "NonMaxSuppression"]
        if nms:
            b = made_by[nms[0].input[0]].input[0]
            s = made_by[made_by[nms[0].input[1]].input[0]].input[0]
            cut.append(("nms", [b, s], list(cuts["nms"]), p["outs"], list(y)))
        ra = [n for n in g.node if n.op_type == "RoiAlign"]
        if ra:
            with torch.no_grad():
                f = p["module"].backbone(x[0])
            cut.append(("tail", [ra[0].input[0], "rois"], [f, x[1]], p["outs"], list(y)))
        for part, ins, vals, outs, want in cut:
            sub = onnx.utils.Extractor(model).extract_model(ins, outs)
            folder = "%s_%s" % (name, part)
            write(os.path.join(out_dir, folder), sub.SerializeToString(), list(zip(ins, vals)),
                  list(zip(outs, want)))
            made.append(folder)
    return made
