#!/usr/bin/env python3
"""Runs scipy's own tests of shortest paths (scipy/sparse/csgraph/tests/
test_shortest_path.py, as installed with scipy) with scipy's Dijkstra
replaced by sssp_gpu's.

    python3 scripts/scipy_suite.py [--device gpu|gpu:N|cpu|auto]
                                   [--file PATH] [PYTEST_ARGS...]

`dijkstra` is replaced where the tests reach it: the test module's own name,
`scipy.sparse.csgraph.dijkstra`, and the one that scipy's `shortest_path`
calls for `method="D"` (the other methods, `yen` and `construct_dist_matrix`
stay scipy's). Every call goes to `sssp_gpu.dijkstra(..., device=DEVICE)`;
the run fails if none did, or if any test fails. `--file` takes another copy
of the test file (from a scipy source tree, say); further arguments go to
pytest (`-k predecessors`, `-x`, `-q`).

Needs numpy, scipy, pytest and sssp_gpu installed (see docs/PYTHON.md).
"""

import argparse
import functools
import importlib.util
import pathlib
import sys

import pytest
import scipy
import scipy.sparse.csgraph
import scipy.sparse.csgraph._shortest_path as scipy_shortest_path

import sssp_gpu


def installed_test_file() -> pathlib.Path:
    """scipy's test_shortest_path.py in the installed scipy."""
    spec = importlib.util.find_spec("scipy.sparse.csgraph.tests")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("scipy was installed without its tests: pass --file PATH/test_shortest_path.py")
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / "test_shortest_path.py"
    if not path.is_file():
        sys.exit(f"{path} does not exist: pass --file PATH/test_shortest_path.py")
    return path


class Replace:
    """A pytest plugin that puts `ours` in place of scipy's dijkstra for the
    run, in the modules the tests reach it through, and counts its calls."""

    def __init__(self, device: str):
        self.calls = 0
        self.saved = []

        @functools.wraps(sssp_gpu.dijkstra)
        def ours(*args, **kwargs):
            self.calls += 1
            return sssp_gpu.dijkstra(*args, device=device, **kwargs)

        self.ours = ours
        self.patch(scipy.sparse.csgraph)
        self.patch(scipy_shortest_path)

    def patch(self, module):
        self.saved.append((module, module.dijkstra))
        module.dijkstra = self.ours

    def pytest_collection_modifyitems(self, items):
        for module in {item.module for item in items if hasattr(item, "module")}:
            if getattr(module, "dijkstra", None) is not self.ours and hasattr(module, "dijkstra"):
                self.patch(module)

    def restore(self):
        for module, original in reversed(self.saved):
            module.dijkstra = original


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="gpu", help="sssp_gpu's device (default: gpu)")
    parser.add_argument("--file", type=pathlib.Path, help="the test file (default: the installed scipy's)")
    args, pytest_args = parser.parse_known_args()
    path = args.file or installed_test_file()
    device = sssp_gpu.Solver(args.device).device
    print(f"scipy {scipy.__version__}, {path}; dijkstra is sssp_gpu's on device {device!r}")
    plugin = Replace(args.device)
    try:
        # -p no:cacheprovider: nothing written next to an installed scipy.
        code = pytest.main([str(path), "-p", "no:cacheprovider", *pytest_args], plugins=[plugin])
    finally:
        plugin.restore()
    print(f"sssp_gpu.dijkstra was called {plugin.calls} times")
    if plugin.calls == 0 and code == 0:
        print("no test reached sssp_gpu.dijkstra: the replacement did not take")
        return 1
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
