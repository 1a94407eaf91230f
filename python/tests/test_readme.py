"""test_readme: the Python snippets of README.md and docs/python.md, each run as written from the
repository's root in a scope of its own: every ```python block after `<!-- test: run -->`
(tests/check_doc_snippets.sh says how blocks are marked; a block with no mark fails here).
pytest runs them on the package it imports (the build tree's); as a script,
`python3 python/tests/test_readme.py [PREFIX]` runs them on the onnx_scatter PYTHONPATH finds,
checking it lies under PREFIX (tests/check_doc_snippets.sh, on an installed one)."""
import os
import re
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOCS = ("README.md", os.path.join("docs", "python.md"))
BLOCK = re.compile(r"^(?:<!-- test: (\w+)[^\n]*-->\n)?```python\n(.*?)^```$", re.S | re.M)


def snippets():
    """(FILE:LINE, mark or None, code) of every python block of DOCS."""
    found = []
    for doc in DOCS:
        with open(os.path.join(ROOT, doc)) as f:
            text = f.read()
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start(2))
            found.append((f"{doc}:{line}", m.group(1), m.group(2)))
    return found


def check_gcn(code, scope):  # the README's example: five lines, a float32 [8, 3] result
    assert len(code.strip().splitlines()) == 5
    y = scope["y"]
    assert isinstance(y, np.ndarray) and y.dtype == np.float32 and y.shape == (8, 3)
    assert np.isfinite(y).all() and np.abs(y).sum() > 0


def run(where, mark, code):
    assert mark in ("run", "skip"), f"{where}: a python block without <!-- test: run|skip -->"
    if mark == "skip":
        return False
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        scope = {"__name__": "__main__"}
        exec(compile(code, where, "exec"), scope)
    finally:
        os.chdir(cwd)
    if "tests/models/gcn_opset17" in code:
        check_gcn(code, scope)
    return True


def test_readme_has_a_snippet():
    assert any("gcn_opset17" in code and mark == "run" for _, mark, code in snippets())


def test_snippets():
    for where, mark, code in snippets():
        run(where, mark, code)


if __name__ == "__main__":
    import onnx_scatter
    if len(sys.argv) > 1:
        here = os.path.abspath(onnx_scatter.__file__)
        assert here.startswith(os.path.abspath(sys.argv[1]) + os.sep), here
    test_readme_has_a_snippet()
    n = sum(run(*s) for s in snippets())
    print(f"python snippets: {n} run, from {os.path.dirname(onnx_scatter.__file__)}")
