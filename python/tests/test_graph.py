"""sssp_gpu.Graph, a graph prepared once, against scipy.sparse.csgraph on
seeded random graphs (directed and undirected; indices scalar, list, array
and None; limit; min_only; predecessors), from several threads at once, on
the CPU here and on the GPU where there is one."""

import threading

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import sssp_gpu
from helpers import DEVICES, HAS_GPU, ROME, assert_close, assert_tree, random_graph, seed_of


def rng_and_msg(case):
    seed, msg = seed_of(case)
    return np.random.default_rng(seed), msg


def check_rows(graph, g, indices, directed, float_weights, msg, limit=np.inf):
    """``g.dijkstra`` against scipy's for ``indices``: distances, shapes and
    tight predecessors."""
    kwargs = dict(directed=directed, indices=indices, limit=limit)
    expected = csgraph.dijkstra(graph, **kwargs)
    ours, preds = g.dijkstra(indices=indices, limit=limit, return_predecessors=True)
    plain = g.dijkstra(indices=indices, limit=limit)
    n = graph.shape[0]
    assert ours.shape == preds.shape == plain.shape == expected.shape, msg
    assert preds.dtype == np.int32, msg
    if float_weights:
        assert_close(ours, expected, n, True, msg)
    else:
        np.testing.assert_array_equal(ours, expected, err_msg=msg)
    np.testing.assert_array_equal(plain, ours, err_msg=msg)
    flat = np.arange(n) if indices is None else np.asarray(indices).ravel() % max(n, 1)
    sources = [[s] for s in flat.tolist()]
    assert_tree(ours.reshape(-1, n), preds.reshape(-1, n), sources, graph, directed, float_weights, msg=msg)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("float_weights", [False, True])
def test_graph_matches_scipy(device, directed, float_weights):
    r, msg = rng_and_msg(("graph", directed, float_weights))
    for n in [1, 2, 9, 60, 150]:
        graph = random_graph(r, n, int(r.integers(0, 4 * n + 1)), float_weights)
        g = sssp_gpu.Graph(graph, directed=directed, device=device)
        assert g.n == n and g.directed == directed and g.device == device, msg
        indices_cases = [None, 0, -1, [0], r.integers(-n, n, 5).tolist(), r.integers(0, n, (2, 3)), np.int64(n - 1)]
        for indices in indices_cases:
            check_rows(graph, g, indices, directed, float_weights, f"{msg}, n {n}, indices {indices!r}")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_graph_limit_and_unweighted_match_scipy(device, directed):
    r, msg = rng_and_msg(("graph limit", directed))
    for trial in range(8):
        n = int(r.integers(2, 120))
        graph = random_graph(r, n, int(r.integers(n, 5 * n)), False)
        unweighted = bool(trial % 2)
        g = sssp_gpu.Graph(graph, directed=directed, unweighted=unweighted, device=device)
        indices = r.integers(0, n, 4).tolist()
        for limit in [float(r.integers(0, 150)), 0.0, np.inf]:
            kwargs = dict(directed=directed, unweighted=unweighted, indices=indices, limit=limit)
            expected = csgraph.dijkstra(graph, **kwargs)
            ours, preds = g.dijkstra(indices=indices, limit=limit, return_predecessors=True)
            case = f"{msg}, trial {trial}, limit {limit}"
            np.testing.assert_array_equal(ours, expected, err_msg=case)
            sources = [[s] for s in indices]
            assert_tree(ours, preds, sources, graph, directed, False, unweighted, msg=case)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_graph_min_only_matches_scipy(device, directed):
    r, msg = rng_and_msg(("graph min_only", directed))
    for trial in range(10):
        n = int(r.integers(2, 100))
        graph = random_graph(r, n, int(r.integers(0, 4 * n)), False)
        g = sssp_gpu.Graph(graph, directed=directed, device=device)
        indices = r.integers(0, n, int(r.integers(1, 5)))
        limit = float(r.integers(0, 100)) if trial % 2 else np.inf
        case = f"{msg}, trial {trial}"
        dist, preds, sources = g.dijkstra(indices=indices, min_only=True, return_predecessors=True, limit=limit)
        kwargs = dict(directed=directed, indices=indices, limit=limit)
        expected = csgraph.dijkstra(graph, min_only=True, **kwargs)
        np.testing.assert_array_equal(dist, expected, err_msg=case)
        np.testing.assert_array_equal(g.dijkstra(indices=indices, min_only=True, limit=limit), expected, err_msg=case)
        assert dist.shape == preds.shape == sources.shape == (n,), case
        assert sources.dtype == np.int32, case
        assert_tree(dist, preds, [set(indices.tolist())], graph, directed, False, msg=case)
        per_source = csgraph.dijkstra(graph, **kwargs)
        for v in range(n):
            if np.isinf(dist[v]):
                assert sources[v] == sssp_gpu.NO_PREDECESSOR, (case, v)
            else:
                assert sources[v] in indices, (case, v)
                row = list(indices).index(sources[v])
                assert per_source[row, v] == dist[v], (case, v)
        for s in indices:
            assert sources[s] == s and preds[s] == sssp_gpu.NO_PREDECESSOR, (case, s)


@pytest.mark.parametrize("device", DEVICES)
def test_graph_from_threads(device):
    """Four threads call one graph at once; each gets scipy's rows."""
    r, msg = rng_and_msg("graph threads")
    graph = random_graph(r, 400, 2000, True)
    g = sssp_gpu.Graph(graph, device=device)
    work = [r.integers(0, 400, int(r.integers(1, 6))) for _ in range(4)]
    expected = [csgraph.dijkstra(graph, indices=indices) for indices in work]
    results = [[] for _ in work]
    errors = []
    start = threading.Barrier(len(work))

    def run(i):
        try:
            start.wait()
            for _ in range(5):
                results[i].append(g.dijkstra(indices=work[i]))
        except Exception as e:  # reported below, with the thread
            errors.append((i, e))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, (msg, errors)
    for i, rows in enumerate(results):
        assert len(rows) == 5, msg
        for got in rows:
            assert_close(got, expected[i], 400, True, f"{msg}, thread {i}")


def test_graph_is_a_copy_and_reports():
    r, msg = rng_and_msg("graph copy")
    graph = random_graph(r, 50, 200, False)
    expected = csgraph.dijkstra(graph, indices=[0, 1])
    g = sssp_gpu.Graph(graph, device="cpu")
    graph.data[:] = 1  # the prepared graph keeps the weights it was given
    np.testing.assert_array_equal(g.dijkstra(indices=[0, 1]), expected, err_msg=msg)
    assert g.device == "cpu" and g.prepare_ms is None and g.algorithm == "delta-cpu"
    result = g.solve(indices=[0, 1, 2], return_predecessors=True)
    assert result.device == "cpu" and result.algorithm == "delta-cpu"
    assert len(result.solve_ms) == len(result.iterations) == 3
    assert result.dist.shape == result.predecessors.shape == (3, 50)
    assert "n=50" in repr(g)


def test_graph_without_vertices_or_sources():
    g = sssp_gpu.Graph(sp.csr_matrix((0, 0)), device="cpu")
    assert g.n == 0 and g.dijkstra().shape == (0, 0)
    small = sssp_gpu.Graph(sp.csr_matrix(np.array([[0, 1.0], [0, 0]])), device="cpu")
    assert small.dijkstra(indices=[]).shape == (0, 2)
    d, p, s = small.dijkstra(indices=[], min_only=True, return_predecessors=True)
    np.testing.assert_array_equal(d, [np.inf, np.inf])
    np.testing.assert_array_equal(s, [-9999, -9999])


@pytest.mark.parametrize("device", DEVICES)
def test_graph_rome99(device):
    graph = sssp_gpu.load(ROME)
    g = sssp_gpu.Graph(graph, device=device)
    expected = csgraph.dijkstra(graph.astype(np.float64), indices=[0, 41, 99])
    np.testing.assert_array_equal(g.dijkstra(indices=[0, 41, 99]), expected)
    np.testing.assert_array_equal(g.dijkstra(indices=41), expected[1])
    if device == "gpu":
        assert g.device == "gpu" and g.prepare_ms is not None


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")
def test_graph_many_sources_on_gpu_streams():
    """Enough sources for several GPU streams (rows come back together)."""
    graph = sssp_gpu.load(ROME)
    g = sssp_gpu.Graph(graph, device="gpu")
    sources = np.random.default_rng(7).integers(0, graph.shape[0], 64)
    ours, preds = g.dijkstra(indices=sources, return_predecessors=True)
    np.testing.assert_array_equal(ours, csgraph.dijkstra(graph.astype(np.float64), indices=sources))
    assert preds.shape == ours.shape


SMALL = sp.csr_matrix(np.array([[0, 1.0], [0, 0]]))


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"indices": 2}, ValueError),
        ({"indices": [-3]}, ValueError),
        ({"indices": 0.5}, ValueError),
        ({"limit": -1}, ValueError),
        ({"limit": np.nan}, ValueError),
    ],
)
def test_graph_bad_calls_raise(kwargs, error):
    g = sssp_gpu.Graph(SMALL, device="cpu")
    with pytest.raises(error):
        g.dijkstra(**kwargs)


@pytest.mark.parametrize(
    "kwargs, error",
    [({"device": "tpu"}, ValueError), ({"device": 3}, ValueError), ({"algorithm": "nonsense"}, ValueError)],
)
def test_graph_bad_construction_raises(kwargs, error):
    with pytest.raises(error):
        sssp_gpu.Graph(SMALL, **kwargs)


@pytest.mark.parametrize("device", DEVICES)
def test_graph_planned_for_solves_matches_scipy(device):
    """``solves``: a count, "many" and None prepare the same distances
    (the plan changes only how much ``auto`` tries); bad values are refused."""
    r, msg = rng_and_msg("graph solves")
    graph = random_graph(r, 400, 1600, False)
    expected = csgraph.dijkstra(graph, indices=[0, 7, 399])
    for solves in [None, 1, 3, 5000, "many"]:
        g = sssp_gpu.Graph(graph, device=device, solves=solves)
        np.testing.assert_array_equal(g.dijkstra(indices=[0, 7, 399]), expected, err_msg=f"{msg}, solves {solves!r}")
        # auto's reason on the GPU; on the CPU, delta-cpu without a choice.
        assert (isinstance(g.reason, str) and g.reason) if g.device == "gpu" else g.reason is None, msg
    for bad in [0, -2, "some", 2.5, True]:
        with pytest.raises(ValueError, match="solves"):
            sssp_gpu.Graph(graph, device=device, solves=bad)
