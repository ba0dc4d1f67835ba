"""Mesh-like test graphs the CLI's generator does not make, written as g.csr
(graphs/README.md), for checking the solvers beyond roads and 2-D grids:

    python3 scripts/mesh_graphs.py delaunay N SEED out.csr   # needs scipy
    python3 scripts/mesh_graphs.py grid3d L SEED out.csr

`delaunay`: the Delaunay triangulation of N uniform random points in the unit
square (an unstructured planar mesh, mean degree about 6), every edge in both
directions weighted by its length (integer, mean about 1000); vertices
numbered row by row of a coarse cell grid, as mesh generators tend to leave
them. `grid3d`: an L x L x L grid, 6 neighbours, each direction with its own
weight uniform in 1..=100 (the CLI's 2-D grids' range); ids x-fastest.
"""
import sys

import numpy as np


def write_csr(path, n, tails, heads, weights):
    order = np.lexsort((heads, tails))
    tails, heads, weights = tails[order], heads[order], weights[order]
    offsets = np.zeros(n + 1, dtype=np.uint32)
    np.cumsum(np.bincount(tails, minlength=n), out=offsets[1:])
    header = b"SSSPCSR\0" + np.array([1, 1, 1, 0], dtype="<u4").tobytes()
    header += np.array([n, len(heads)], dtype="<u8").tobytes()
    with open(path, "wb") as f:
        f.write(header)
        for array in (offsets, heads, weights):
            f.write(array.astype("<u4").tobytes())
    print(f"{path}: {n} vertices, {len(heads)} arcs, mean weight {weights.mean():.1f}")


def delaunay(n, rng):
    from scipy.spatial import Delaunay

    points = rng.random((n, 2))
    cells = int(np.sqrt(n) / 8) + 1
    cell = np.floor(points * cells).astype(np.int64).clip(0, cells - 1)
    points = points[np.lexsort((points[:, 0], cell[:, 0], cell[:, 1]))]
    simplices = Delaunay(points).simplices
    pairs = np.concatenate([simplices[:, [0, 1]], simplices[:, [1, 2]], simplices[:, [2, 0]]])
    pairs = np.unique(np.sort(pairs, axis=1), axis=0)
    length = np.linalg.norm(points[pairs[:, 0]] - points[pairs[:, 1]], axis=1)
    weight = np.maximum(1, np.rint(length * 1000 / length.mean())).astype(np.uint32)
    tails = np.concatenate([pairs[:, 0], pairs[:, 1]])
    heads = np.concatenate([pairs[:, 1], pairs[:, 0]])
    return n, tails, heads, np.concatenate([weight, weight])


def grid3d(side, rng):
    n = side**3
    ids = np.arange(n).reshape(side, side, side)  # [z, y, x]
    tails, heads = [], []
    for axis in range(3):
        a = np.delete(ids, -1, axis=axis).ravel()
        b = np.delete(ids, 0, axis=axis).ravel()
        tails += [a, b]
        heads += [b, a]
    tails, heads = np.concatenate(tails), np.concatenate(heads)
    return n, tails, heads, rng.integers(1, 101, size=len(heads)).astype(np.uint32)


if __name__ == "__main__":
    kind, size, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = np.random.default_rng(seed)
    make = {"delaunay": delaunay, "grid3d": grid3d}[kind]
    write_csr(out, *make(size, rng))
