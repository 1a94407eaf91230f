"""conftest: prints the BackendTest counts of test_backend_node at the end of the run."""
import sys


def pytest_terminal_summary(terminalreporter):
    mod = sys.modules.get("test_backend_node")
    if mod is None:
        return
    terminalreporter.section("onnx BackendTest, official node tests")
    for key, value in mod.COUNTS.items():
        terminalreporter.write_line(f"{key}: {value}")
    stats = terminalreporter.stats
    node = [r for k in ("passed", "failed", "skipped") for r in stats.get(k, [])
            if "OnnxBackendNodeModelTest" in r.nodeid]
    for k in ("passed", "failed", "skipped"):
        n = sum(1 for r in node if r.outcome == k)
        terminalreporter.write_line(f"pytest {k}: {n}")
