"""The Python doors to the solver on one graph file, timed against scipy:
one JSON line of wall times (ms) for the same CSR (from sssp_gpu.load).

- ``scipy_one_ms``: ``scipy.sparse.csgraph.dijkstra(M, indices=0)``, median
  of 5;
- ``oneoff_ms``: ``sssp_gpu.dijkstra(M.copy(), indices=0)``, median of 5
  (a fresh copy each time so that nothing of M is cached; the copy is not
  timed), after one warm-up call on another, small matrix (the CUDA context
  and the kernels are loaded once per process);
- ``graph_build_ms``: ``sssp_gpu.Graph(M)``, with its ``prepare_ms`` and
  ``algorithm``;
- ``graph_one_ms``: ``g.dijkstra(indices=s)`` for 20 random sources, median,
  with the solver's own time of those solves (``graph_one_solve_ms``, median
  of ``g.solve``'s ``solve_ms``) and the time to copy one float64 row
  (``row_copy_ms``);
- ``graph_many_ms_per_source``: ``g.dijkstra(indices=<256 random sources>)``
  per source; ``scipy_many_ms_per_source``: scipy's for 16 sources, per
  source.

    pip install ./python
    python3 scripts/python_doors.py [--device auto|gpu|gpu:N|cpu] GRAPH

Run it from anywhere but python/: there, ``import sssp_gpu`` would find the
source folder python/sssp_gpu, which has no compiled extension.
"""

import argparse
import json
import pathlib
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import sssp_gpu


def timed(f):
    """f's result and its wall time, ms."""
    start = time.perf_counter()
    result = f()
    return result, (time.perf_counter() - start) * 1e3


def median_ms(f, runs=5, setup=lambda: None):
    """The median wall time of `runs` calls of f(setup()), ms (setup untimed)."""
    times = []
    for _ in range(runs):
        arg = setup()
        times.append(timed(lambda: f(arg))[1])
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", help="a graph file in any format the host CLI reads")
    parser.add_argument("--device", default="auto", help='"auto" (default), "gpu", "gpu:N" or "cpu"')
    parser.add_argument("--seed", type=int, default=1, help="of the random sources")
    args = parser.parse_args()
    device = args.device

    M = sssp_gpu.load(args.graph)
    n = M.shape[0]
    r = np.random.default_rng(args.seed)
    out = {"graph": pathlib.Path(args.graph).name, "n": n, "m": int(M.nnz), "device": device}

    # The first call of a process opens the device: not part of a one-off call's time.
    warm = sp.random(100, 100, density=0.05, format="csr", random_state=0)
    sssp_gpu.dijkstra(warm, indices=0, device=device)

    reference = csgraph.dijkstra(M, indices=0)
    out["scipy_one_ms"] = median_ms(lambda m: csgraph.dijkstra(m, indices=0), setup=M.copy)
    out["oneoff_ms"] = median_ms(lambda m: sssp_gpu.dijkstra(m, indices=0, device=device), setup=M.copy)
    out["oneoff_equal"] = bool(np.array_equal(sssp_gpu.dijkstra(M, indices=0, device=device), reference))

    g, out["graph_build_ms"] = timed(lambda: sssp_gpu.Graph(M, device=device))
    out["graph_prepare_ms"] = g.prepare_ms
    out["graph_algorithm"] = g.algorithm
    out["graph_device"] = g.device
    sources = r.integers(0, n, 20)
    g.dijkstra(indices=int(sources[0]))  # one untimed call
    out["graph_one_ms"] = float(np.median([timed(lambda: g.dijkstra(indices=int(s)))[1] for s in sources]))
    solves = [g.solve(indices=int(s)) for s in sources]
    out["graph_one_solve_ms"] = float(np.median([s.solve_ms[0] for s in solves]))
    row = solves[-1].dist
    out["row_copy_ms"] = median_ms(lambda _: row.copy(), runs=20)
    out["graph_one_equal"] = bool(np.array_equal(g.dijkstra(indices=0), reference))

    many = r.integers(0, n, 256)
    _, many_ms = timed(lambda: g.dijkstra(indices=many))
    out["graph_many_ms_per_source"] = many_ms / many.size
    few = many[:16]
    _, scipy_ms = timed(lambda: csgraph.dijkstra(M, indices=few))
    out["scipy_many_ms_per_source"] = scipy_ms / few.size
    print(json.dumps(out))


if __name__ == "__main__":
    main()
