"""test_readme: the Python example of the README's "Python" section, run as written from the
repository's root."""
import os
import re

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def python_example():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("\n## Python\n"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_example(monkeypatch):
    code = python_example()
    assert len(code.strip().splitlines()) == 5
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(compile(code, "README.md (Python)", "exec"), scope)
    y = scope["y"]
    assert isinstance(y, np.ndarray) and y.dtype == np.float32 and y.shape == (8, 3)
    assert np.isfinite(y).all() and np.abs(y).sum() > 0
