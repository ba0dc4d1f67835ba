"""sssp_gpu.ContractionIndex against scipy.sparse.csgraph: trees, tables and
point-to-point distances from the index on seeded random graphs and grids
(zero weights, parallel arcs, one-way arcs, unreachable vertices), on the CPU
here and on the GPU where there is one; bad inputs and files raise."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import sssp_gpu
from helpers import DEVICES, ROME, rng


def random_int_graph(r, n, m):
    """n vertices, m arcs with repetition, integer weights 0..20."""
    rows = r.integers(0, n, m)
    cols = r.integers(0, n, m)
    data = r.integers(0, 21, m).astype(np.int64)
    return sp.csr_matrix((data, (rows, cols)), shape=(n, n))


def one_way_grid(r, w, h):
    """A w×h grid, each street kept one way or both at random, weights 1..100."""
    rows, cols = [], []
    for y in range(h):
        for x in range(w):
            v = y * w + x
            for dx, dy in ((1, 0), (0, 1)):
                if x + dx < w and y + dy < h:
                    u = (y + dy) * w + x + dx
                    kind = r.integers(0, 4)
                    if kind != 0:
                        rows.append(v), cols.append(u)
                    if kind != 1:
                        rows.append(u), cols.append(v)
    data = r.integers(1, 101, len(rows)).astype(np.int64)
    return sp.csr_matrix((data, (rows, cols)), shape=(w * h, w * h))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_trees_tables_and_distances_match_scipy(device, directed):
    for case in range(12):
        r = rng(("index", device, directed, case))
        graph = random_int_graph(r, int(r.integers(2, 120)), int(r.integers(0, 300))) if case % 2 else one_way_grid(
            r, int(r.integers(2, 30)), int(r.integers(2, 30))
        )
        n = graph.shape[0]
        index = sssp_gpu.ContractionIndex(graph, directed=directed)
        sources = r.integers(0, n, int(r.integers(1, 40)))
        targets = r.integers(0, n, int(r.integers(1, 30)))
        expected = csgraph.dijkstra(graph, directed=directed, indices=sources)
        np.testing.assert_array_equal(index.trees(sources, device=device), expected)
        np.testing.assert_array_equal(index.table(sources, targets, device=device), expected[:, targets])
        for s, t in zip(sources[:5], targets[:5]):
            assert index.distance(s, t) == expected[list(sources).index(s), t]


def test_index_files_round_trip_and_refuse_another_graph(tmp_path):
    graph = sssp_gpu.load(ROME)
    index = sssp_gpu.ContractionIndex(graph)
    assert index.levels > 1 and index.shortcuts > 0
    path = tmp_path / "rome.ch"
    index.save(path)
    loaded = sssp_gpu.ContractionIndex.load(path, graph)
    np.testing.assert_array_equal(loaded.trees([0, 77]), csgraph.dijkstra(graph, indices=[0, 77]))
    other = graph.copy()
    other.data = other.data + np.uint32(1)
    with pytest.raises(ValueError, match="another graph"):
        sssp_gpu.ContractionIndex.load(path, other)
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(ValueError, match="truncated"):
        sssp_gpu.ContractionIndex.load(path, graph)


def random_float_grid(r, w, h):
    """A one-way grid with float weights in 0.1..10 whose sums round."""
    graph = one_way_grid(r, w, h).astype(np.float64)
    graph.data = r.uniform(0.1, 10.0, graph.nnz)
    return graph


@pytest.mark.parametrize("device", DEVICES)
def test_float_weights_are_within_float32_rounding_of_scipy(device):
    for case in range(6):
        r = rng(("index-float", device, case))
        graph = random_float_grid(r, int(r.integers(2, 30)), int(r.integers(2, 30)))
        n = graph.shape[0]
        index = sssp_gpu.ContractionIndex(graph)
        sources = r.integers(0, n, int(r.integers(1, 20)))
        targets = r.integers(0, n, int(r.integers(1, 20)))
        # scipy in float64 on the float32 weights the index holds.
        exact = csgraph.dijkstra(graph.astype(np.float32).astype(np.float64), indices=sources)
        # Relative bound: 2 (levels - 1) roundings of 2^-24 each.
        rtol = 2 * index.levels * 2.0**-24 * 1.01
        trees = index.trees(sources, device=device)
        np.testing.assert_array_equal(np.isinf(trees), np.isinf(exact))
        np.testing.assert_allclose(trees, exact, rtol=rtol, atol=0)
        np.testing.assert_allclose(index.table(sources, targets, device=device), exact[:, targets], rtol=rtol, atol=0)
        assert trees[trees != np.inf].max() > 0 and not np.array_equal(trees, np.round(trees))


def test_bad_vertices_raise():
    index = sssp_gpu.ContractionIndex(sp.csr_matrix(np.array([[0, 2], [3, 0]])))
    with pytest.raises(ValueError, match="out of range"):
        index.trees([2])
    with pytest.raises(ValueError):
        index.distance(0, 5)
