"""A grid-plan road network, written as DIMACS .gr (1-based `a U V W` lines):

    python3 scripts/road_grid.py W H SEED out.gr [--gaps P] [--one-way P]

Vertex (x, y) sits at (x, y) plus a uniform jitter of up to 0.35 in each
coordinate; each pair of grid neighbours is a street unless it is a gap
(probability `--gaps`, default 0.1); a street is one-way (a random direction)
with probability `--one-way` (default 0.2), else two-way. An arc's weight is
the Euclidean length of its street times 100, rounded (at least 1). No
package beyond the standard library; the same arguments give the same file.
"""
import argparse
import math
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("output")
    parser.add_argument("--gaps", type=float, default=0.1)
    parser.add_argument("--one-way", type=float, default=0.2)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    w, h = args.width, args.height
    points = [(x + rng.uniform(-0.35, 0.35), y + rng.uniform(-0.35, 0.35))
              for y in range(h) for x in range(w)]
    arcs = []
    for y in range(h):
        for x in range(w):
            u = y * w + x
            for v in ([u + 1] if x + 1 < w else []) + ([u + w] if y + 1 < h else []):
                if rng.random() < args.gaps:
                    continue
                length = max(1, round(100 * math.dist(points[u], points[v])))
                if rng.random() < args.one_way:
                    arcs.append((u, v, length) if rng.random() < 0.5 else (v, u, length))
                else:
                    arcs += [(u, v, length), (v, u, length)]
    with open(args.output, "w") as f:
        f.write(f"c grid-plan road network {w} x {h}, seed {args.seed}\n")
        f.write(f"p sp {w * h} {len(arcs)}\n")
        f.writelines(f"a {u + 1} {v + 1} {length}\n" for u, v, length in arcs)
    print(f"{args.output}: {w * h} vertices, {len(arcs)} arcs")


if __name__ == "__main__":
    main()
