"""sssp_gpu against scipy.sparse.csgraph on seeded random graphs of awkward
shapes (parallel edges, self-loops, zero weights, unreachable vertices), on
the CPU here and on the GPU where there is one."""

import threading

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import sssp_gpu
from helpers import DEVICES, HAS_GPU, ROME, assert_close, assert_tree, random_graph, rng, tolerance


def test_public_names_are_the_api():
    """The module's helpers (numpy, scipy.sparse, typing, ...) are private."""
    # The optional submodule sssp_gpu.dask is bound on the package once imported.
    public = sorted(name for name in dir(sssp_gpu) if not name.startswith("_") and name != "dask")
    assert public == sorted(sssp_gpu.__all__)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("float_weights", [False, True])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_all_sources_match_scipy(device, float_weights, fmt):
    r = rng(("all", fmt, float_weights))
    for n in [1, 2, 7, 40, 150]:
        graph = random_graph(r, n, int(r.integers(0, 4 * n + 1)), float_weights, fmt)
        ours, preds = sssp_gpu.dijkstra(graph, return_predecessors=True, device=device)
        expected = csgraph.dijkstra(graph)
        assert_close(ours, expected, n, float_weights)
        assert_tree(ours, preds, [[s] for s in range(n)], graph, True, float_weights)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("float_weights", [False, True])
def test_options_match_scipy(device, float_weights):
    r = rng(("options", float_weights))
    for trial in range(12):
        n = int(r.integers(2, 120))
        graph = random_graph(r, n, int(r.integers(n, 5 * n)), float_weights)
        indices = r.integers(-n, n, int(r.integers(1, 6))).tolist()
        directed = bool(r.integers(0, 2))
        unweighted = bool(r.integers(0, 2))
        # Integer limits: the f32 distances of float weights rarely sit on them.
        limit = float(r.integers(0, 150)) if trial % 3 else np.inf
        kwargs = dict(directed=directed, indices=indices, unweighted=unweighted, limit=limit)
        ours, preds = sssp_gpu.dijkstra(graph, return_predecessors=True, device=device, **kwargs)
        expected = csgraph.dijkstra(graph, **kwargs)
        exact = unweighted or not float_weights
        if exact:
            np.testing.assert_array_equal(ours, expected)
        else:
            near_limit = np.abs(expected - limit) <= limit * tolerance(n, True)
            assert_close(np.where(near_limit, 0, ours), np.where(near_limit, 0, expected), n, True)
        sources = [[s % n] for s in indices]
        assert_tree(ours, preds, sources, graph, directed, not exact, unweighted)


@pytest.mark.parametrize("device", DEVICES)
def test_min_only_matches_scipy(device):
    r = rng("min_only")
    for _ in range(10):
        n = int(r.integers(2, 100))
        graph = random_graph(r, n, int(r.integers(0, 4 * n)), False)
        indices = r.integers(0, n, int(r.integers(1, 5)))
        dist, preds, sources = sssp_gpu.dijkstra(
            graph, indices=indices, min_only=True, return_predecessors=True, device=device
        )
        expected = csgraph.dijkstra(graph, indices=indices, min_only=True)
        np.testing.assert_array_equal(dist, expected)
        assert dist.shape == preds.shape == sources.shape == (n,)
        assert sources.dtype == np.int32
        assert_tree(dist, preds, [set(indices.tolist())], graph, True, False)
        per_source = csgraph.dijkstra(graph, indices=indices)
        for v in range(n):
            if np.isinf(dist[v]):
                assert sources[v] == sssp_gpu.NO_PREDECESSOR
            else:
                row = list(indices).index(sources[v])
                assert per_source[row, v] == dist[v]


def test_min_only_without_indices_is_all_zero():
    graph = random_graph(rng("min_only_all"), 20, 50, True)
    dist, preds, sources = sssp_gpu.dijkstra(graph, min_only=True, return_predecessors=True, device="cpu")
    np.testing.assert_array_equal(dist, np.zeros(20))
    np.testing.assert_array_equal(preds, np.full(20, -9999))
    np.testing.assert_array_equal(sources, np.arange(20))


def test_shapes_like_scipy():
    graph = random_graph(rng("shapes"), 9, 30, False)
    for indices in [None, 3, -2, [3], [1, 2], np.array([[0, 1], [2, 3]]), [], np.int64(4)]:
        ours = sssp_gpu.dijkstra(graph, indices=indices, device="cpu")
        expected = csgraph.dijkstra(graph, indices=indices)
        assert ours.shape == expected.shape, indices
        np.testing.assert_array_equal(ours, expected)
        d, p = sssp_gpu.dijkstra(graph, indices=indices, return_predecessors=True, device="cpu")
        assert p.shape == expected.shape and p.dtype == np.int32


def test_dense_input_like_scipy():
    r = rng("dense")
    dense = r.integers(0, 5, (30, 30)).astype(np.float64)  # zeros: non-edges
    dense[r.random((30, 30)) < 0.1] = np.inf  # non-edges too
    dense[r.random((30, 30)) < 0.1] = np.nan  # and these
    np.testing.assert_array_equal(sssp_gpu.dijkstra(dense, device="cpu"), csgraph.dijkstra(dense))
    ints = r.integers(0, 3, (12, 12))
    np.testing.assert_array_equal(sssp_gpu.dijkstra(ints.tolist(), device="cpu"), csgraph.dijkstra(ints))
    np.testing.assert_array_equal(sssp_gpu.dijkstra(ints > 1, device="cpu"), csgraph.dijkstra(ints > 1))


def test_parallel_arcs_explicit_zeros_and_infinite_entries_like_scipy():
    # CSR keeps parallel entries (the lightest counts); COO sums them.
    csr = sp.csr_matrix((np.array([5.0, 2.0, 0.0, np.inf]), np.array([1, 1, 2, 3]), np.array([0, 3, 4, 4, 4])), shape=(4, 4))
    np.testing.assert_array_equal(sssp_gpu.dijkstra(csr, indices=0, device="cpu"), [0, 2, 0, np.inf])
    np.testing.assert_array_equal(sssp_gpu.dijkstra(csr, indices=0, device="cpu"), csgraph.dijkstra(csr, indices=0))
    coo = sp.coo_matrix((np.array([5, 2]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    np.testing.assert_array_equal(sssp_gpu.dijkstra(coo, indices=0, device="cpu"), [0, 7])


def test_solver_reports_and_borrows():
    graph = random_graph(rng("solver"), 50, 200, True).astype(np.float32)
    graph.indices = graph.indices.astype(np.int32)
    graph.indptr = graph.indptr.astype(np.int32)
    prepared = sssp_gpu._prepare(graph, False)
    assert np.shares_memory(prepared.indices, graph.indices)
    assert np.shares_memory(prepared.indptr, graph.indptr)
    assert np.shares_memory(prepared.words, graph.data)
    solver = sssp_gpu.Solver("cpu")
    assert solver.device == "cpu" and solver.no_gpu_reason
    result = solver.solve(graph, indices=[0, 1], return_predecessors=True)
    assert result.device == "cpu" and result.algorithm == "delta-cpu"
    assert len(result.solve_ms) == 2 and all(t >= 0 for t in result.solve_ms)
    assert len(result.iterations) == 2
    assert result.dist.shape == result.predecessors.shape == (2, 50)


def test_solves_in_threads():
    """The GIL is released while solving: threads of one Solver agree."""
    graph = random_graph(rng("threads"), 300, 1500, False)
    solver = sssp_gpu.Solver("cpu")
    expected = csgraph.dijkstra(graph, indices=[0, 5])
    results = [None] * 4

    def work(i):
        results[i] = solver.solve(graph, indices=[0, 5]).dist

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in results:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("device", DEVICES)
def test_load_rome99(device):
    graph = sssp_gpu.load(ROME)
    # 8870 arcs in the file, 11 of them parallel to a lighter or equal one.
    assert graph.shape == (3353, 3353) and graph.nnz == 8859 and graph.has_canonical_format
    assert graph.indices.dtype == np.int32
    ours = sssp_gpu.dijkstra(graph, indices=[0, 41], device=device)
    np.testing.assert_array_equal(ours, csgraph.dijkstra(graph.astype(np.float64), indices=[0, 41]))
    assert sssp_gpu.shortest_path(graph, indices=0, device=device)[9] == ours[0, 9]


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")
def test_gpu_solver_runs_on_the_gpu():
    graph = sssp_gpu.load(ROME)
    result = sssp_gpu.Solver("gpu").solve(graph, indices=[0, 7, 99])
    assert result.device == "gpu"
    np.testing.assert_array_equal(result.dist, csgraph.dijkstra(graph.astype(np.float64), indices=[0, 7, 99]))


@pytest.mark.skipif(HAS_GPU, reason="a GPU is present")
def test_gpu_device_without_a_gpu_raises():
    with pytest.raises(RuntimeError):
        sssp_gpu.Solver("gpu")


# One bad input per parameter.
SMALL = sp.csr_matrix(np.array([[0, 1.0], [0, 0]]))


@pytest.mark.parametrize(
    "graph, kwargs, error",
    [
        (np.ones((2, 3)), {}, ValueError),
        (sp.csr_matrix(np.ones((2, 3))), {}, ValueError),
        (np.ones((2, 2, 2)), {}, ValueError),
        (np.array([[0, 1j], [0, 0]]), {}, TypeError),
        (np.array([["a", "b"], ["c", "d"]]), {}, TypeError),
        (sp.csr_matrix(np.array([[0, -1.0], [0, 0]])), {}, ValueError),
        (np.array([[0, -1], [0, 0]]), {}, ValueError),
        (sp.csr_matrix((np.array([np.nan]), np.array([1]), np.array([0, 1, 1])), shape=(2, 2)), {}, ValueError),
        (SMALL, {"indices": 2}, ValueError),
        (SMALL, {"indices": [-3]}, ValueError),
        (SMALL, {"indices": 0.5}, ValueError),
        (SMALL, {"indices": [True]}, ValueError),
        (SMALL, {"limit": -1}, ValueError),
        (SMALL, {"limit": np.nan}, ValueError),
        (SMALL, {"limit": "far"}, ValueError),
        (SMALL, {"device": "tpu"}, ValueError),
        (SMALL, {"device": 3}, ValueError),
        (SMALL, {"algorithm": "nonsense"}, ValueError),
    ],
)
def test_bad_input_raises(graph, kwargs, error):
    with pytest.raises(error):
        sssp_gpu.dijkstra(graph, **kwargs)


def test_bad_method_and_path_raise():
    with pytest.raises(ValueError):
        sssp_gpu.shortest_path(SMALL, method="FW")
    with pytest.raises(OSError):
        sssp_gpu.load("/nonexistent/graph.gr")


def test_integer_weights_beyond_32_bits():
    """Integer weights above uint32 run as float32; integer distances that do
    not fit 32 bits raise OverflowError instead of wrapping."""
    wide = sp.csr_matrix((np.array([2**33, 1]), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
    assert_close(sssp_gpu.dijkstra(wide, indices=0, device="cpu"), csgraph.dijkstra(wide, indices=0), 3, True)
    long = sp.csr_matrix((np.array([2**32 - 5] * 2, dtype=np.uint32), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
    with pytest.raises(OverflowError):
        sssp_gpu.dijkstra(long, indices=0, device="cpu")
