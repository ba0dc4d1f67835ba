"""sssp_gpu.dask on a LocalCluster of two CPU worker processes: accessibility,
within, nearest and trees written into a memmap agree with one process's
ContractionIndex and with scipy's dijkstra on seeded random graphs; a worker
killed in the middle of a run loses no batch and no row."""

import time

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

distributed = pytest.importorskip("distributed")

import sssp_gpu  # noqa: E402
import sssp_gpu.dask as sd  # noqa: E402
from helpers import random_graph, rng  # noqa: E402
from test_index import one_way_grid as grid  # noqa: E402

TIMEOUT = 60


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=TIMEOUT)
        yield client


def reductions(dist, limit, values):
    """scipy's rows reduced: vertices within limit and the sum of values."""
    inside = np.isfinite(dist) & (dist <= limit)
    return inside.sum(axis=1), np.where(inside, values, 0.0).sum(axis=1)


@pytest.mark.parametrize("directed", [True, False])
def test_reductions_match_one_process_and_scipy(client, tmp_path, directed):
    r = rng(("dask-reductions", directed))
    graph = grid(r, int(r.integers(8, 16)), int(r.integers(8, 16)))
    n = graph.shape[0]
    index = sssp_gpu.ContractionIndex(graph, directed=directed)
    values = r.uniform(0, 5, n)
    limit = float(r.integers(50, 400))
    dist = csgraph.dijkstra(graph, directed=directed)
    index.save(tmp_path / "grid.ch")
    # The index scattered, and read by the workers from a file.
    for shipped in (index, tmp_path / "grid.ch"):
        with sd.DistributedIndex(client, shipped, graph, directed=directed) as spread:
            counts, sums = spread.accessibility(limit, values, batch=int(r.integers(1, 40)), timeout=TIMEOUT)
            one_counts, one_sums = index.within(np.arange(n), limit, values, device="cpu")
            np.testing.assert_array_equal(counts, one_counts)
            np.testing.assert_allclose(sums, one_sums, rtol=1e-12)  # the GPU sums in another order
            want_counts, want_sums = reductions(dist, limit, values)
            np.testing.assert_array_equal(counts, want_counts)
            np.testing.assert_allclose(sums, want_sums, rtol=1e-12)

            sources = r.integers(0, n, int(r.integers(1, 60)))  # duplicates included
            counts, sums = spread.within(sources, np.inf, batch=int(r.integers(1, 9)), timeout=TIMEOUT)
            np.testing.assert_array_equal(counts, np.isfinite(dist[sources]).sum(axis=1))
            assert not sums.any()

            near, source = spread.nearest(sources, batch=int(r.integers(1, 9)), timeout=TIMEOUT)
            one_near, one_source = index.nearest(sources, device="cpu")
            np.testing.assert_array_equal(near, one_near)
            np.testing.assert_array_equal(source, one_source)
            np.testing.assert_array_equal(near, dist[sources].min(axis=0))


def test_graph_without_index_matches_scipy(client):
    r = rng("dask-graph")
    graph = random_graph(r, 150, 600, float_weights=False)
    n = graph.shape[0]
    dist = csgraph.dijkstra(graph)
    values = r.uniform(0, 5, n)
    counts, sums = sd.accessibility(client, None, graph, 40.0, values, batch=17, timeout=TIMEOUT)
    want_counts, want_sums = reductions(dist, 40.0, values)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_allclose(sums, want_sums, rtol=1e-12)
    sources = r.integers(0, n, 30)
    near, source = sd.nearest(client, None, graph, sources, batch=4, timeout=TIMEOUT)
    np.testing.assert_array_equal(near, dist[sources].min(axis=0))
    first = np.argmax(dist[sources] == near, axis=0)  # ties: the source listed first
    reached = np.isfinite(near)
    np.testing.assert_array_equal(source[reached], sources[first[reached]])
    assert (source[~reached] == sssp_gpu.NO_PREDECESSOR).all()


def test_trees_into_memmap_and_dask_array_match_scipy(client, tmp_path):
    r = rng("dask-trees")
    graph = grid(r, 12, 9)
    n = graph.shape[0]
    index = sssp_gpu.ContractionIndex(graph)
    sources = r.integers(0, n, 45)
    expected = csgraph.dijkstra(graph, indices=sources)
    with sd.DistributedIndex(client, index, graph) as spread:
        rows = spread.trees_into(sources, tmp_path / "trees.npy", batch=7, timeout=TIMEOUT)
        np.testing.assert_array_equal(rows, expected)
        np.testing.assert_array_equal(np.load(tmp_path / "trees.npy"), expected)
        # A raw memmap after a header of 24 bytes, filled with garbage first.
        (tmp_path / "raw").write_bytes(b"x" * (24 + expected.nbytes))
        raw = np.memmap(tmp_path / "raw", dtype=np.float64, mode="r+", offset=24, shape=expected.shape)
        assert spread.trees_into(sources, raw, batch=10, timeout=TIMEOUT) is raw
        np.testing.assert_array_equal(raw, expected)
        with pytest.raises(ValueError, match="slice"):
            spread.trees_into(sources[:5], raw[1:6])
        with pytest.raises(ValueError, match="shape"):
            spread.trees_into(sources[:5], tmp_path / "trees.npy")
        lazy = spread.trees_into(sources, batch=8)
        np.testing.assert_array_equal(client.compute(lazy).result(timeout=TIMEOUT), expected)


def test_default_batch_pays_for_its_setup_and_reaches_every_worker():
    assert sd.default_batch(10**6, 3 * 10**6, 10**6, 8) == 31250
    assert sd.default_batch(10**6, 3 * 10**6, 10**7, 8) == 50000
    assert sd.default_batch(100, 300, 1000, 2) == 125
    assert sd.default_batch(10**6, 3 * 10**6, 10**6, 8, index=False) == 63
    assert sd.default_batch(5, 5, 0, 3) == 1


def test_bad_input_raises(client):
    graph = sp.csr_matrix(np.array([[0, 2], [3, 0]]))
    with sd.DistributedIndex(client, sssp_gpu.ContractionIndex(graph), graph) as spread:
        with pytest.raises(ValueError, match="values"):
            spread.accessibility(1.0, [1.0, 2.0, 3.0])
        with pytest.raises(ValueError, match="out of range"):
            spread.within([0, 7], 1.0)
        with pytest.raises(ValueError, match="batch"):
            spread.within([0, 1], 1.0, batch=0)
        with pytest.raises(ValueError, match="limit"):
            spread.within([0, 1], -1.0)
    with pytest.raises(ValueError, match="another graph"):
        other = sssp_gpu.ContractionIndex(sp.csr_matrix(np.array([[0, 5], [3, 0]])))
        sd.DistributedIndex(client, other, graph)


def kill_one_worker(client, killed):
    """Kills a worker that has a batch in hand (once) and waits until the
    scheduler has noticed: its batches run again elsewhere."""

    def exit_soon():  # a closure: pickled by value, the workers need not import this module
        import os
        import threading

        threading.Timer(0.01, os._exit, (1,)).start()

    def progress(done, total):
        if killed:
            return
        busy = sorted(client.processing().items(), key=lambda item: -len(item[1]))
        address = busy[0][0]
        killed.append((address, len(busy[0][1]), done, total))
        client.run(exit_soon, workers=[address])
        deadline = time.monotonic() + TIMEOUT
        while address in client.nthreads() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert address not in client.nthreads()

    return progress


def test_a_lost_worker_loses_no_batch_and_no_row(client, tmp_path):
    r = rng("dask-lost-worker")
    graph = grid(r, 50, 40)
    n = graph.shape[0]
    index = sssp_gpu.ContractionIndex(graph)
    values = r.uniform(0, 5, n)
    one_counts, one_sums = index.within(np.arange(n), 1000.0, values, device="cpu")
    sources = r.integers(0, n, 600)
    expected = index.trees(sources, device="cpu")
    with sd.DistributedIndex(client, index, graph) as spread:
        killed = []
        start = time.monotonic()
        counts, sums = spread.accessibility(
            1000.0, values, batch=40, progress=kill_one_worker(client, killed), timeout=TIMEOUT
        )
        print("killed", killed, "in", time.monotonic() - start, "s")
        assert killed and killed[0][2] < killed[0][3]
        np.testing.assert_array_equal(counts, one_counts)
        np.testing.assert_allclose(sums, one_sums, rtol=1e-12)  # the GPU sums in another order

        client.wait_for_workers(2, timeout=TIMEOUT)  # the nanny restarts it
        killed = []
        rows = spread.trees_into(
            sources, tmp_path / "rows.npy", batch=20, progress=kill_one_worker(client, killed), timeout=TIMEOUT
        )
        print("killed", killed)
        assert killed and killed[0][2] < killed[0][3]
        np.testing.assert_array_equal(rows, expected)
        np.testing.assert_array_equal(rows[:50], csgraph.dijkstra(graph, indices=sources[:50]))
