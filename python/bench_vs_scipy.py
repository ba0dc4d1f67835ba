"""scipy.sparse.csgraph.dijkstra against sssp_gpu on the shared graphs: the
same call (a CSR from sssp_gpu.load, source 0), wall time of the whole call
(median of 5 after one warm-up), the GPU's own solve time, and a check that
the distances agree."""
import sys, time
import numpy as np
import scipy.sparse.csgraph as csgraph
import sssp_gpu

def wall(f, runs=5):
    f()
    times = []
    for _ in range(runs):
        t = time.perf_counter(); f(); times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))

solver = sssp_gpu.Solver("gpu")
print("graph | n | m | scipy ms | sssp_gpu call ms | GPU solve ms (algorithm) | call speed-up | solve speed-up | equal")
for path in sys.argv[1:]:
    g = sssp_gpu.load(path)
    n = g.shape[0]
    ref = csgraph.dijkstra(g, indices=0)
    t_scipy = wall(lambda: csgraph.dijkstra(g, indices=0))
    t_call = wall(lambda: sssp_gpu.dijkstra(g, indices=0, device="gpu"))
    r = solver.solve(g, indices=0)
    equal = np.array_equal(r.dist, ref)
    print(f"{path.split('/')[-1]} | {n} | {g.nnz} | {t_scipy:.1f} | {t_call:.2f} | {r.solve_ms[0]:.3f} ({r.algorithm}) | "
          f"{t_scipy / t_call:.1f}x | {t_scipy / r.solve_ms[0]:.0f}x | {equal}")
