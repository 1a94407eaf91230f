"""test_backend_node: onnx's own BackendTest runs the official node tests of python3-onnx (ONNX
1.12) through onnx_scatter.backend. A test that needs an op without a kernel is excluded through
the runner's exclude mechanism, the op named in the pattern's (?#...) comment, which the skip
message shows; so is each test listed below or in tests/cli/known-fail-debian-1.12.txt, with
its reason. Every other test runs and must pass. The counts are printed at the end of the run."""
import os
import re

import numpy as np
import onnx
import onnx.backend.test
from onnx.backend.test.loader import load_model_tests

import onnx_scatter
from onnx_scatter import backend

HERE = os.path.dirname(os.path.abspath(__file__))
KNOWN_FAIL = os.path.join(HERE, "..", "..", "tests", "cli", "known-fail-debian-1.12.txt")

# Tests whose ops all have kernels but which use a feature onnx-scatter does not implement.
UNSUPPORTED_FEATURE = {
    "test_cast_FLOAT_to_STRING": "Cast between strings and numbers is not implemented",
    "test_cast_STRING_to_FLOAT": "Cast between strings and numbers is not implemented",
    "test_castlike_FLOAT_to_STRING": "Cast between strings and numbers is not implemented",
    "test_castlike_STRING_to_FLOAT": "Cast between strings and numbers is not implemented",
    "test_castlike_FLOAT_to_STRING_expanded": "Cast between strings and numbers is not implemented",
    "test_castlike_STRING_to_FLOAT_expanded": "Cast between strings and numbers is not implemented",
}


def known_failures(path):
    """{test: reason} from the known-fail file: each name's reason is the comment block above it."""
    out, reason, in_comment = {}, [], False
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                reason = reason if in_comment else []
                reason.append(line[1:].strip())
                in_comment = True
            elif line:
                out[line] = " ".join(reason)
                in_comment = False
    return out


def nodes(graph):
    """The nodes of graph and of its subgraphs (If's branches, Loop's and Scan's bodies)."""
    for node in graph.node:
        yield node
        for a in node.attribute:
            if a.HasField("g"):
                yield from nodes(a.g)


def unsupported_ops(model, registry):
    """'Op-opset' of each node of the graph (subgraphs too) without a kernel for the model's
    opset."""
    opsets = {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}
    missing = []
    for node in nodes(model.graph):
        domain = "" if node.domain == "ai.onnx" else node.domain
        version = opsets.get(domain, -1)
        rows = registry.get((domain, node.op_type), [])
        if not any(lo <= version <= hi for lo, hi in rows):
            missing.append(f"{node.op_type}-{version}")
    return sorted(set(missing))


class Runner(onnx.backend.test.BackendTest):
    if "object" not in vars(np):
        @classmethod
        def assert_similar_outputs(cls, ref_outputs, outputs, rtol, atol):
            """onnx 1.12's comparison, whose `np.object` numpy 1.24 removed (np.object_ here)."""
            np.testing.assert_equal(len(outputs), len(ref_outputs))
            for ref, out in zip(ref_outputs, outputs):
                if isinstance(ref, list) or ref is None:  # a sequence, an empty optional
                    assert isinstance(out, list) if ref is not None else out is None
                    if ref:
                        cls.assert_similar_outputs(ref, out, rtol, atol)
                    continue
                np.testing.assert_equal(out.dtype, ref.dtype)
                if ref.dtype == np.object_:
                    np.testing.assert_array_equal(out, ref)
                else:
                    np.testing.assert_allclose(out, ref, rtol=rtol, atol=atol)


def _comment(text):
    return text.replace(")", "]").replace("(", "[")


REGISTRY = onnx_scatter.supported_ops()
KNOWN = known_failures(KNOWN_FAIL)
CASES = load_model_tests(kind="node")
runner = Runner(backend, __name__)
COUNTS = {"official node tests (ONNX %s)" % onnx.__version__: len(CASES), "run": 0,
          "excluded: op without a kernel": 0, "excluded: unsupported feature": 0,
          "excluded: data predates the spec": 0}
for case in CASES:
    model = onnx.load(os.path.join(case.model_dir, "model.onnx"))
    ops = unsupported_ops(model, REGISTRY)
    if ops:
        reason, key = "unsupported op " + ", ".join(ops), "excluded: op without a kernel"
    elif case.name in UNSUPPORTED_FEATURE:
        reason, key = UNSUPPORTED_FEATURE[case.name], "excluded: unsupported feature"
    elif case.name in KNOWN:
        reason, key = KNOWN[case.name], "excluded: data predates the spec"
    else:
        COUNTS["run"] += 1
        continue
    COUNTS[key] += 1
    runner.exclude(f"^{re.escape(case.name)}_cpu$(?#{_comment(reason)})")

OnnxBackendNodeModelTest = runner.test_cases["OnnxBackendNodeModelTest"]
for _name in list(vars(OnnxBackendNodeModelTest)):
    if _name.endswith("_cuda"):  # supports_device("CUDA") is False: nothing to run
        delattr(OnnxBackendNodeModelTest, _name)


def test_exclusions_are_current():
    """Each listed exclusion names a test of the data whose ops all have kernels (a test that
    gained an unsupported op or left the data would make the list stale)."""
    by_name = {c.name: c for c in CASES}
    for name in list(UNSUPPORTED_FEATURE) + list(KNOWN):
        assert name in by_name, name
        model = onnx.load(os.path.join(by_name[name].model_dir, "model.onnx"))
        assert unsupported_ops(model, REGISTRY) == [], name


def test_most_node_tests_run():
    """The supported ops cover the 542 tests the CLI passes on the same data (README, "Command
    line"): fewer would mean kernels went missing from the registry."""
    assert COUNTS["run"] >= 542, COUNTS
