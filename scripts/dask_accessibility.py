"""All-pairs accessibility (``within`` from every vertex) of one graph file,
timed in one process and on a local Dask cluster of k worker processes; the
counts and sums are checked to agree. Prints one JSON line of wall times (s):

- ``build_s``: ``ContractionIndex(M)``, in this process;
- ``one_process_s``: ``index.accessibility(limit)`` on one device (GPU 0, or
  the CPU with ``--cpu``), and with ``--gpus`` also ``all_gpus_s``:
  ``index.accessibility(limit, gpus="all")`` (one process, every GPU);
- ``cluster_start_s``: starting k workers (one per GPU with ``--gpus``:
  ``CUDA_VISIBLE_DEVICES`` set per worker; else k CPU workers, each with
  ``RAYON_NUM_THREADS`` its share of the cores);
- ``scatter_s``: ``DistributedIndex(client, index_path, M)`` (scatters M,
  loads the index on one worker);
- ``cluster_first_s`` and ``cluster_s``: ``within`` from the sources on
  them, the first call (which loads the index on every other worker) and
  a second one on the same ``DistributedIndex``; ``batch`` is the
  sources per task (``--batch``, else ``sssp_gpu.dask.default_batch``).

Needs dask: ``pip install 'sssp-gpu[dask]'`` (on a machine without network,
carry the wheels of dask, distributed and their dependencies and install
them with ``pip install --no-index --find-links WHEELS 'dask[distributed]'``).

    python3 scripts/dask_accessibility.py GRAPH [--limit D] [--workers K | --gpus] [--cpu] [--batch B] [--sources S]

Run it from anywhere but python/ (there ``import sssp_gpu`` finds the source
folder, which has no compiled extension).
"""

import argparse
import json
import os
import tempfile
import time

import numpy as np

import sssp_gpu
import sssp_gpu.dask as sd
from distributed import Client, Nanny, Scheduler, SpecCluster


def timed(f):
    start = time.perf_counter()
    result = f()
    return result, round(time.perf_counter() - start, 3)


def gpu_count() -> int:
    """Visible GPUs (from nvidia-smi; 0 without one)."""
    try:
        import subprocess

        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return 0
    return sum(line.startswith("GPU ") for line in out.splitlines())


def cluster(workers: int, gpus: bool) -> SpecCluster:
    """k worker processes of one thread each (a Nanny each, so that a dead
    worker is restarted); with ``gpus`` worker i sees only GPU i."""
    # CPU workers share the cores: each its share of them for its trees
    # (RAYON_NUM_THREADS), so that k workers do not run k times the cores'
    # threads.
    share = str(max(1, (os.cpu_count() or 1) // workers))
    spec = {
        f"w{i}": {
            "cls": Nanny,
            "options": {
                "nthreads": 1,
                "env": {"CUDA_VISIBLE_DEVICES": str(i)} if gpus else {"RAYON_NUM_THREADS": share},
            },
        }
        for i in range(workers)
    }
    return SpecCluster(workers=spec, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph")
    parser.add_argument("--limit", type=float, default=1000.0, help="distance limit (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="CPU workers (default 2)")
    parser.add_argument("--gpus", action="store_true", help="one worker per visible GPU")
    parser.add_argument("--cpu", action="store_true", help="solve on the CPU everywhere")
    parser.add_argument("--batch", type=int, default=None, help="sources per task")
    parser.add_argument("--sources", type=int, default=None, help="the first S vertices only (default: all)")
    args = parser.parse_args()
    device = "cpu" if args.cpu else "auto"
    workers = gpu_count() if args.gpus else args.workers
    if workers < 1:
        parser.error("no GPU found for --gpus" if args.gpus else "--workers must be at least 1")

    graph = sssp_gpu.load(args.graph)
    n = graph.shape[0]
    sources = np.arange(n if args.sources is None else min(n, args.sources))
    index, build_s = timed(lambda: sssp_gpu.ContractionIndex(graph))
    report = {"graph": os.path.basename(args.graph), "n": n, "sources": len(sources), "limit": args.limit}
    report["build_s"] = build_s
    (counts, sums), report["one_process_s"] = timed(lambda: index.within(sources, args.limit, device=device))
    if args.gpus and not args.cpu:
        (all_counts, _), report["all_gpus_s"] = timed(lambda: index.accessibility(args.limit, gpus="all"))
        assert (all_counts[sources] == counts).all(), "all GPUs disagree with one"

    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "index.ch")
        index.save(path)
        local, report["cluster_start_s"] = timed(lambda: cluster(workers, args.gpus and not args.cpu))
        with local, Client(local) as client:
            client.wait_for_workers(workers)
            report["workers"] = workers
            spread, report["scatter_s"] = timed(lambda: sd.DistributedIndex(client, path, graph, device=device))
            with spread:
                batch = args.batch or sd.default_batch(spread.n, spread.arcs, len(sources), workers)
                report["batch"] = batch
                first, report["cluster_first_s"] = timed(lambda: spread.within(sources, args.limit, batch=batch))
                second, report["cluster_s"] = timed(lambda: spread.within(sources, args.limit, batch=batch))
    for c, s in (first, second):
        assert (c == counts).all() and np.allclose(s, sums), "the cluster disagrees with one process"
    print(json.dumps(report))


if __name__ == "__main__":
    main()
