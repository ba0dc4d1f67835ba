"""The contraction-hierarchy index from Python on one graph file, timed
against scipy: one JSON line of wall times (ms).

- ``build_ms``: ``sssp_gpu.ContractionIndex(M)``;
- ``trees_ms_per_tree``: ``index.trees(<256 random sources>)`` into a fresh
  float64 array, per tree (after an untimed call of 8), with ``trees_equal``
  against scipy's ``dijkstra`` on 4 of them; ``trees_out_ms_per_tree``: the
  same into a caller's array reused from an earlier call (``out=``), median
  of 3; ``touch_ms_per_tree``: numpy's own ``np.ones`` of that shape, per
  tree (the first touch of fresh memory that a new array pays);
- ``within_ms_per_source``: ``index.within(sources, limit)`` (count and sum
  within the median distance of the first tree), per source;
- ``nearest_ms``: ``index.nearest(sources)`` for all 256, with
  ``nearest_equal`` against scipy's ``min_only``.

    python3 scripts/index_doors.py GRAPH

Run it from anywhere but python/ (see python_doors.py).
"""

import json
import sys
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import sssp_gpu


def timed(f):
    """f's result and its wall time, ms."""
    start = time.perf_counter()
    result = f()
    return result, (time.perf_counter() - start) * 1e3


M = sssp_gpu.load(sys.argv[1])
n = M.shape[0]
out = {"graph": sys.argv[1].split("/")[-1], "n": n}
idx, out["build_ms"] = timed(lambda: sssp_gpu.ContractionIndex(M))
r = np.random.default_rng(3)
src = r.integers(0, n, 256)
idx.trees(src[:8])  # warm
d, ms = timed(lambda: idx.trees(src)); out["trees_ms_per_tree"] = ms / src.size
reuse = np.empty_like(d)
idx.trees(src, out=reuse)
out["trees_out_ms_per_tree"] = float(np.median([timed(lambda: idx.trees(src, out=reuse))[1] for _ in range(3)])) / src.size
del reuse
_, ms = timed(lambda: np.ones(d.shape)); out["touch_ms_per_tree"] = ms / src.size
ref = csgraph.dijkstra(M, indices=src[:4])
out["trees_equal"] = bool(np.array_equal(d[:4], ref))
lim = float(np.median(ref[0][np.isfinite(ref[0])]))
idx.within(src[:8], lim)
(c, s), ms = timed(lambda: idx.within(src, lim)); out["within_ms_per_source"] = ms / src.size
out["within_equal"] = bool(all(c[i] == np.sum(ref[i] <= lim) for i in range(4)))
idx.nearest(src[:8])
(nd, ns), ms = timed(lambda: idx.nearest(src)); out["nearest_ms"] = ms
full = csgraph.dijkstra(M, indices=src, min_only=True)
out["nearest_equal"] = bool(np.array_equal(nd, full))
print(json.dumps(out))
