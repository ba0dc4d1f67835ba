"""sssp_gpu.CustomizableIndex against scipy.sparse.csgraph: the index of a
graph's pattern, customized to fresh random weights (zeros, closed arcs,
parallel arcs, unreachable vertices) several times over, gives in every
tree, table and query scipy's distances on the re-weighted matrix, on the
CPU here and on the GPU where there is one; files round-trip; weights of
the wrong length, shape or pattern raise."""

import concurrent.futures

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import sssp_gpu
from helpers import DEVICES, ROME, random_graph, rng
from test_index import one_way_grid


def random_weights(r, nnz, closed):
    """nnz integer weights 0..1000, a fifth of them 0; with ``closed``, a
    float64 array with a tenth of the arcs closed (inf)."""
    weights = r.integers(0, 1001, nnz).astype(np.int64)
    weights[r.random(nnz) < 0.2] = 0
    if not closed:
        return weights
    weights = weights.astype(np.float64)
    weights[r.random(nnz) < 0.1] = np.inf
    return weights


def a_graph(r, case):
    """Random arcs (parallel ones, self-loops, isolated vertices) or a grid
    of one-way and two-way streets."""
    if case % 2:
        return random_graph(r, int(r.integers(1, 150)), int(r.integers(0, 400)), float_weights=False)
    return one_way_grid(r, int(r.integers(1, 20)), int(r.integers(1, 20)))


def check_index(index, expected, r, device, msg):
    """Every tree, and a table, queries, pairs, within and nearest of
    ``index``, against scipy's all-pairs ``expected``."""
    n = expected.shape[0]
    np.testing.assert_array_equal(index.trees(np.arange(n), device=device), expected, err_msg=msg)
    sources = r.integers(0, n, int(r.integers(1, 10)))
    targets = r.integers(0, n, int(r.integers(1, 10)))
    np.testing.assert_array_equal(index.table(sources, targets, device=device), expected[np.ix_(sources, targets)])
    pairs_t = r.integers(0, n, sources.size)
    np.testing.assert_array_equal(index.pair_distances(sources, pairs_t), expected[sources, pairs_t], err_msg=msg)
    for s, t in zip(sources[:3], pairs_t[:3]):
        assert index.distance(s, t) == expected[s, t], msg
    limit = float(r.integers(0, 3000))
    counts, _ = index.within(sources, limit, device=device)
    np.testing.assert_array_equal(counts, (expected[sources] <= limit).sum(axis=1), err_msg=msg)
    dist, _ = index.nearest(sources, device=device)
    np.testing.assert_array_equal(dist, expected[sources].min(axis=0), err_msg=msg)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_customizations_match_scipy_on_the_reweighted_matrix(device, directed):
    """Three customizations of one index, of 1-D weights aligned with the
    matrix's data (integers, or floats with closed arcs)."""
    for case in range(10):
        r = rng(("cch", device, directed, case))
        graph = a_graph(r, case)
        cch = sssp_gpu.CustomizableIndex(graph, directed=directed)
        assert cch.nnz == graph.nnz and cch.n == graph.shape[0]
        for round in range(3):
            msg = f"case {case}, customization {round}"
            weights = random_weights(r, graph.nnz, closed=round == 1)
            index = cch.customize(weights, device=device)
            assert cch.device == device, msg
            reweighted = sp.csr_matrix((weights, graph.indices, graph.indptr), shape=graph.shape)
            expected = csgraph.dijkstra(reweighted, directed=directed)
            check_index(index, expected, r, device, msg)


@pytest.mark.parametrize("device", DEVICES)
def test_matrices_of_a_subset_of_the_pattern(device):
    """Weights as a matrix: the pattern with some entries left out (other
    dtypes, a COO), or the transpose's entries on an undirected index."""
    for case in range(8):
        r = rng(("cch subset", device, case))
        graph = a_graph(r, case)
        directed = bool(case % 4 < 2)
        cch = sssp_gpu.CustomizableIndex(graph, directed=directed)
        coo = graph.tocoo()
        keep = r.random(coo.nnz) < 0.7
        data = random_weights(r, coo.nnz, closed=False)[keep]
        rows, cols = coo.row[keep], coo.col[keep]
        if not directed and case % 2:
            rows, cols = cols, rows
        subset = sp.coo_matrix((data.astype([np.int32, np.uint16][case % 2]), (rows, cols)), shape=graph.shape)
        if case % 3:
            subset = subset.tocsr()
        index = cch.customize(subset, device=device)
        check_index(index, csgraph.dijkstra(subset, directed=directed), r, device, f"case {case}")


def test_files_round_trip_and_serve_the_cli(tmp_path):
    graph = sssp_gpu.load(ROME)
    cch = sssp_gpu.CustomizableIndex(graph)
    assert cch.levels > 1 and cch.arcs >= graph.nnz // 2 and cch.triangles > 0
    path = tmp_path / "rome.cch"
    cch.save(path)
    loaded = sssp_gpu.CustomizableIndex.load(path, graph)
    assert (loaded.n, loaded.nnz, loaded.levels, loaded.arcs) == (cch.n, cch.nnz, cch.levels, cch.arcs)
    r = rng("cch rome")
    for weights in [graph.data, random_weights(r, graph.nnz, closed=True)]:
        reweighted = sp.csr_matrix((weights, graph.indices, graph.indptr), shape=graph.shape)
        sources = r.integers(0, graph.shape[0], 20)
        expected = csgraph.dijkstra(reweighted, indices=sources)
        for index in [cch.customize(weights), loaded.customize(weights)]:
            np.testing.assert_array_equal(index.trees(sources), expected)
    # The index of the graph's own weights is the graph's index.
    index_path = tmp_path / "rome.ch"
    loaded.customize(graph.data).save(index_path)
    ch = sssp_gpu.ContractionIndex.load(index_path, graph)
    np.testing.assert_array_equal(ch.trees([0, 77]), csgraph.dijkstra(graph, indices=[0, 77]))
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(ValueError, match="truncated"):
        sssp_gpu.CustomizableIndex.load(path, graph)


def test_a_file_refuses_another_graph(tmp_path):
    r = rng("cch other graph")
    graph = one_way_grid(r, 10, 10)
    path = tmp_path / "grid.cch"
    sssp_gpu.CustomizableIndex(graph).save(path)
    with pytest.raises(ValueError, match="vertices"):
        sssp_gpu.CustomizableIndex.load(path, one_way_grid(r, 10, 11))
    far = graph.tolil()
    far[0, 99] = 1
    with pytest.raises(ValueError, match="not in the customizable hierarchy"):
        sssp_gpu.CustomizableIndex.load(path, far.tocsr())


def test_wrong_weights_raise():
    r = rng("cch wrong")
    graph = one_way_grid(r, 6, 5)
    cch = sssp_gpu.CustomizableIndex(graph)
    nnz, n = graph.nnz, graph.shape[0]
    for bad in [np.ones(nnz + 1), np.ones(nnz - 1), np.ones(0)]:
        with pytest.raises(ValueError, match=f"weights for a pattern of {nnz} entries"):
            cch.customize(bad)
    with pytest.raises(ValueError, match="1-D array"):
        cch.customize(np.ones((nnz, 1, 1)))
    with pytest.raises(ValueError, match="shape"):
        cch.customize(sp.csr_matrix((n + 1, n + 1)))
    outside = sp.csr_matrix(([5], ([0], [n - 1])), shape=(n, n))
    with pytest.raises(ValueError, match=r"entry \(0, 29\) that is not in the index's pattern"):
        cch.customize(outside)
    with pytest.raises(ValueError, match="not in the index's pattern"):
        cch.customize(graph.T.tocsr() + graph)
    for bad, words in [(-1, ">= 0"), (0.5, "integer"), (np.nan, "NaN"), (2.0**33, "integer"), (2**33, "2\\*\\*32")]:
        weights = np.ones(nnz, dtype=np.asarray(bad).dtype)
        weights[3] = bad
        with pytest.raises(ValueError, match=words):
            cch.customize(weights)
    with pytest.raises(ValueError, match="device"):
        cch.customize(graph.data, device="tpu")
    # A refused customization leaves the index usable.
    np.testing.assert_array_equal(cch.customize(graph.data).trees([0]), csgraph.dijkstra(graph, indices=[0]))


def test_graphs_without_arcs():
    for n in [0, 1, 5]:
        cch = sssp_gpu.CustomizableIndex(sp.csr_matrix((n, n)))
        index = cch.customize(np.zeros(0))
        expected = np.where(np.eye(n) == 1, 0.0, np.inf)
        np.testing.assert_array_equal(index.trees(np.arange(n)), expected.reshape(n, n))


def test_long_paths_overflow():
    """Distances beyond 32 bits raise OverflowError, not a wrong distance."""
    path = sp.csr_matrix(([2**31, 2**31], ([0, 1], [1, 2])), shape=(3, 3))
    cch = sssp_gpu.CustomizableIndex(path)
    with pytest.raises(OverflowError):
        cch.customize(path).trees([0])


@pytest.mark.parametrize("device", DEVICES)
def test_customizations_from_several_threads(device):
    """Customizations from threads at once (on a GPU: one customizer, taken
    in turn), alternating with the CPU's: each equal to scipy's."""
    r = rng(("cch threads", device))
    graph = one_way_grid(r, 15, 12)
    cch = sssp_gpu.CustomizableIndex(graph)
    all_weights = [random_weights(r, graph.nnz, closed=k % 2 == 1) for k in range(8)]

    def one(k):
        index = cch.customize(all_weights[k], device=device if k % 3 else "cpu")
        return index.trees(np.arange(graph.shape[0]), device="cpu")

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        trees = list(pool.map(one, range(len(all_weights))))
    for k, (weights, tree) in enumerate(zip(all_weights, trees)):
        reweighted = sp.csr_matrix((weights, graph.indices, graph.indptr), shape=graph.shape)
        np.testing.assert_array_equal(tree, csgraph.dijkstra(reweighted), err_msg=f"customization {k}")
