#!/usr/bin/python3
"""gen_bag_bench.py: a large nn.EmbeddingBag(mode='sum') export to time, kept out of git.

Writes OUT/embedding_bag_sum_<BAGS>/ (model.onnx from torch.onnx.export, whose EmbeddingBag is a
Loop over the bags, and test_data_set_0/ with the inputs and torch's output) for

    build-rel/tools/onnx-scatter bench OUT/embedding_bag_sum_100000 --threads 1 [--no-fusion]

which also prints max_abs_err against torch (the Loop loads fused into SegmentReduce, rule
embedding_bag; --no-fusion runs the Loop itself). Bag sizes are random (mean INDICES / BAGS, some
bags empty); the weights are multiples of 1/8, so the sums are exact in any order. It prints
the median time torch itself takes with one thread, for comparison.

    /usr/bin/python3 tests/torch/gen_bag_bench.py [OUT] [--opset N] [--bags B] [--indices I]
                                                  [--rows R] [--dim D]

OUT defaults to /tmp/onnx-scatter-bag-bench; the defaults are opset 16, 100,000 bags,
1,000,000 indices, 10,000 rows of 64.
"""
import argparse
import os
import sys
import time

import torch

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_control_models as gcm  # noqa: E402
import graph_walk  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="/tmp/onnx-scatter-bag-bench")
    ap.add_argument("--opset", type=int, default=16)
    ap.add_argument("--bags", type=int, default=100_000)
    ap.add_argument("--indices", type=int, default=1_000_000)
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--dim", type=int, default=64)
    a = ap.parse_args()
    g = gcm.gtm.gen(31)
    module = gcm.EmbeddingBag("sum", a.rows, a.dim, seed=32)
    indices = torch.randint(0, a.rows, (a.indices,), generator=g)
    # Bag starts: BAGS - 1 random cut points in [0, INDICES], sorted; the first bag starts at 0.
    cuts = torch.randint(0, a.indices + 1, (a.bags - 1,), generator=g).sort().values
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), cuts])
    p = dict(module=module, example=(indices[:8], gcm.gtm.i64(0, 4)),
             names=["indices", "offsets"], outputs=["y"],
             dynamic={"indices": {0: "n"}, "offsets": {0: "bags"}, "y": {0: "bags"}})
    model = gcm.export(p, a.opset)
    s = graph_walk.Summary(model)
    assert "Loop" in s.ops, sorted(s.ops)
    torch.set_num_threads(1)
    times = []
    with torch.no_grad():
        for _ in range(5):
            t0 = time.perf_counter()
            y = module(indices, offsets)
            times.append(time.perf_counter() - t0)
    folder = os.path.join(a.out, "embedding_bag_sum_%d" % a.bags)
    gcm.write_folder(folder, model, s, p["names"], [((indices, offsets), [(s.outputs[0], y)])])
    empty = int((offsets[1:] == offsets[:-1]).sum()) + int(offsets[-1] == a.indices)
    print("%s: opset %d, %d bags (%d empty), %d indices, weight [%d, %d]"
          % (folder, a.opset, a.bags, empty, a.indices, a.rows, a.dim))
    print("torch %s, 1 thread: median %.2f ms" % (torch.__version__,
                                                 sorted(times)[len(times) // 2] * 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
