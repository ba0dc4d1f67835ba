"""Joins road networks into one larger graph: the graphs side by side
(renumbered one after another), each joined to the next by a few arcs in
both directions between random vertices, weighted as the heaviest arc of
the two. The result is a DIMACS .gr file: a road network of a million
vertices or more made of real ones, for measuring what grows with the
graph's size (trees copied to the host, an index's trees per second)
where no single road network of that size is at hand.

    python3 scripts/join_graphs.py OUT.gr A.gr B.gr.gz [C.gr ...] [--bridges 8] [--seed 1]

Needs numpy, scipy and sssp_gpu (its ``load`` reads every format the CLI
reads).
"""

import argparse

import numpy as np
import scipy.sparse as sp

import sssp_gpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("graphs", nargs="+")
    parser.add_argument("--bridges", type=int, default=8, help="arcs each way between neighbours")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = np.random.default_rng(args.seed)
    parts = [sssp_gpu.load(g).tocoo() for g in args.graphs]
    if any(np.issubdtype(p.dtype, np.floating) for p in parts):
        raise SystemExit("join_graphs.py joins graphs of integer weights only")
    rows, cols, weights, base = [], [], [], 0
    starts = []
    for p in parts:
        starts.append(base)
        rows.append(p.row.astype(np.int64) + base)
        cols.append(p.col.astype(np.int64) + base)
        weights.append(p.data.astype(np.int64))
        base += p.shape[0]
    for i in range(len(parts) - 1):
        a = starts[i] + r.integers(0, parts[i].shape[0], args.bridges)
        b = starts[i + 1] + r.integers(0, parts[i + 1].shape[0], args.bridges)
        w = np.full(args.bridges, max(int(parts[i].data.max()), int(parts[i + 1].data.max())))
        rows += [a, b]
        cols += [b, a]
        weights += [w, w]
    u, v, w = (np.concatenate(x) for x in (rows, cols, weights))
    with open(args.output, "w") as f:
        f.write(f"c {len(parts)} road networks joined by scripts/join_graphs.py\n")
        f.write(f"p sp {base} {u.size}\n")
        f.writelines(f"a {a} {b} {c}\n" for a, b, c in zip((u + 1).tolist(), (v + 1).tolist(), w.tolist()))
    print(f"{args.output}: {base} vertices, {u.size} arcs from {len(parts)} graphs")


if __name__ == "__main__":
    main()
