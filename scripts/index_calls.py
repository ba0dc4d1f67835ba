"""What a call of ``ContractionIndex.within`` costs besides its trees: ten
calls of ``B`` sources against one call of ``10 B`` on one index (the first
sources of the graph), twice each, after a warm-up call. Prints one JSON line
of wall and CPU seconds and minor page faults per case.

    python3 scripts/index_calls.py GRAPH [--device auto|gpu|cpu] [--batch B] [--limit D]

On a GPU the index keeps its state there between calls, so the ten calls
should cost about the one; ``--release`` frees it before every call, as every
call set it up before the index kept it. Run it from anywhere but python/.
"""

import argparse
import json
import resource
import time

import numpy as np

import sssp_gpu


def measure(f):
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    wall, cpu = time.perf_counter(), time.process_time()
    f()
    return {
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "faults": resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--batch", type=int, default=1317, help="sources per call of ten (default 1317)")
    parser.add_argument("--limit", type=float, default=20000.0, help="distance limit (default 20000)")
    parser.add_argument("--release", action="store_true", help="free the kept GPU state before every call")
    args = parser.parse_args()
    graph = sssp_gpu.load(args.graph)
    index = sssp_gpu.ContractionIndex(graph)
    sources = np.arange(min(graph.shape[0], 10 * args.batch))
    parts = np.array_split(sources, 10)

    def call(part):
        if args.release:
            index.release()
        return index.within(part, args.limit, device=args.device)

    call(sources[:64])
    report = {"graph": args.graph, "device": args.device, "sources": len(sources), "release": args.release}
    for rep in range(2):
        report[f"one_call_{rep}"] = measure(lambda: call(sources))
        report[f"ten_calls_{rep}"] = measure(lambda: [call(part) for part in parts])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
