"""sssp_gpu.ContractionIndex.pair_distances against scipy.sparse.csgraph:
random pairs (single ones and sources with many targets, answered
one-to-many) on seeded random graphs with zero weights, parallel arcs and
unreachable vertices; integer weights exactly, float weights within float32
rounding; bad pairs raise."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import sssp_gpu
from helpers import DEVICES, random_graph, rng


def random_pairs(r, n):
    """Single pairs, then a few sources with 64 to 300 targets, shuffled."""
    sources = [r.integers(0, n, int(r.integers(0, 200)))]
    targets = [r.integers(0, n, sources[0].size)]
    for _ in range(int(r.integers(1, 4))):
        count = int(r.integers(64, 301))
        sources.append(np.full(count, r.integers(0, n)))
        targets.append(r.integers(0, n, count))
    order = r.permutation(sum(s.size for s in sources))
    return np.concatenate(sources)[order], np.concatenate(targets)[order]


@pytest.mark.parametrize("directed", [True, False])
def test_pair_distances_match_scipy(directed):
    for case in range(10):
        r = rng(("index-pairs", directed, case))
        graph = random_graph(r, int(r.integers(2, 200)), int(r.integers(0, 500)), float_weights=False)
        n = graph.shape[0]
        index = sssp_gpu.ContractionIndex(graph, directed=directed)
        sources, targets = random_pairs(r, n)
        expected = csgraph.dijkstra(graph, directed=directed)[sources, targets]
        found = index.pair_distances(sources, targets)
        assert found.dtype == np.float64 and found.shape == sources.shape
        np.testing.assert_array_equal(found, expected)


def test_float_pair_distances_are_within_float32_rounding_of_scipy():
    for case in range(6):
        r = rng(("index-pairs-float", case))
        graph = random_graph(r, int(r.integers(2, 200)), int(r.integers(0, 500)), float_weights=True)
        n = graph.shape[0]
        index = sssp_gpu.ContractionIndex(graph)
        sources, targets = random_pairs(r, n)
        # scipy in float64 on the float32 weights the index holds (rounded
        # in place: `astype` would sum the parallel arcs, which the lightest
        # of each pair stands for).
        rounded = graph.copy()
        rounded.data = rounded.data.astype(np.float32).astype(np.float64)
        exact = csgraph.dijkstra(rounded)[sources, targets]
        found = index.pair_distances(sources, targets)
        np.testing.assert_array_equal(np.isinf(found), np.isinf(exact))
        rtol = 2 * index.levels * 2.0**-24 * 1.01
        np.testing.assert_allclose(found, exact, rtol=rtol, atol=0)


def test_bad_pairs_raise():
    index = sssp_gpu.ContractionIndex(sp.csr_matrix(np.array([[0, 2], [3, 0]])))
    np.testing.assert_array_equal(index.pair_distances([0, 1], [1, 0]), [2.0, 3.0])
    assert index.pair_distances([], []).shape == (0,)
    with pytest.raises(ValueError, match="pair 1 .*out of range"):
        index.pair_distances([0, 5], [1, 0])
    with pytest.raises(ValueError, match="negative"):
        index.pair_distances([0, -1], [1, 0])
    with pytest.raises(ValueError, match="one target per source"):
        index.pair_distances([0, 1], [1])


@pytest.mark.parametrize("device", DEVICES)
def test_many_pairs_on_a_grid_match_scipy(device):
    """Enough pairs for the GPU under "auto", on a grid with one-way streets
    (some pairs unreachable)."""
    r = rng(("index-pairs-grid", device))
    side = int(r.integers(20, 40))
    n = side * side
    rows, cols = [], []
    for v in range(n):
        x, y = v % side, v // side
        for u in ([v + 1] if x + 1 < side else []) + ([v + side] if y + 1 < side else []):
            for a, b in ((v, u), (u, v)):
                if r.random() > 0.1:
                    rows.append(a)
                    cols.append(b)
    weights = r.integers(1, 100, len(rows)).astype(np.float64)
    graph = sp.csr_matrix((weights, (rows, cols)), shape=(n, n))
    index = sssp_gpu.ContractionIndex(graph)
    sources = r.integers(0, n, 30_000)
    targets = r.integers(0, n, 30_000)
    expected = csgraph.dijkstra(graph, indices=np.unique(sources))
    row = {s: i for i, s in enumerate(np.unique(sources))}
    found = index.pair_distances(sources, targets, device=device)
    np.testing.assert_array_equal(found, expected[[row[s] for s in sources], targets])
