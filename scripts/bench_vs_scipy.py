"""scipy.sparse.csgraph.dijkstra against sssp_gpu on graph files: the same
call (a CSR from sssp_gpu.load, source 0), the wall time of the whole call
(median of 5 after one warm-up), the solver's own solve time, and a check
that the distances agree.

    pip install ./python
    python3 scripts/bench_vs_scipy.py [--device auto|gpu|gpu:N|cpu] GRAPH...

Run it from anywhere but python/: there, ``import sssp_gpu`` would find the
source folder python/sssp_gpu, which has no compiled extension.
"""

import argparse
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import sssp_gpu


def wall(f, runs=5):
    """Median wall time of `runs` calls of f, in ms, after one warm-up call."""
    f()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="+", help="graph files in any format the host CLI reads")
    parser.add_argument("--device", default="auto", help='"auto" (default), "gpu", "gpu:N" or "cpu"')
    args = parser.parse_args()

    solver = sssp_gpu.Solver(args.device)
    print(f"device: {solver.device}")
    print("graph | n | m | scipy ms | sssp_gpu call ms | solve ms (algorithm) | call speed-up | solve speed-up | equal")
    for path in args.graphs:
        g = sssp_gpu.load(path)
        n = g.shape[0]
        ref = csgraph.dijkstra(g, indices=0)
        t_scipy = wall(lambda: csgraph.dijkstra(g, indices=0))
        t_call = wall(lambda: sssp_gpu.dijkstra(g, indices=0, device=args.device))
        r = solver.solve(g, indices=0)
        equal = np.array_equal(r.dist, ref)
        print(
            f"{path.split('/')[-1]} | {n} | {g.nnz} | {t_scipy:.1f} | {t_call:.2f} | "
            f"{r.solve_ms[0]:.3f} ({r.algorithm}) | {t_scipy / t_call:.1f}x | "
            f"{t_scipy / r.solve_ms[0]:.0f}x | {equal}"
        )


if __name__ == "__main__":
    main()
