"""sssp_gpu.ContractionIndex against scipy.sparse.csgraph: trees, tables and
point-to-point distances from the index on seeded random graphs and grids
(zero weights, parallel arcs, one-way arcs, unreachable vertices), on the CPU
here and on the GPU where there is one; bad inputs and files raise. Calls in
sequence and from threads on one index (on a GPU they share the state it
keeps between calls) each give scipy's answers."""

import threading

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


def dimacs_arcs(path):
    """The arcs of a DIMACS file as 0-based numpy columns, and n."""
    arcs = [line.split()[1:] for line in open(path) if line.startswith("a ")]
    n = next(int(line.split()[2]) for line in open(path) if line.startswith("p "))
    u, v, w = (np.array(column, dtype=np.int64) for column in zip(*arcs))
    return n, u - 1, v - 1, w


def test_one_index_file_for_the_lightest_arcs_however_built(tmp_path):
    """An index of the file read by ``load`` (parallel arcs reduced to the
    lightest, as the CLI counts them) serves the matrix built by hand with the
    lightest of parallel arcs kept (docs/ROAD-INDEX.md), and the reverse; the
    matrix scipy builds from the arcs as they are (duplicates summed) is
    another graph."""
    n, u, v, w = dimacs_arcs(ROME)
    order = np.lexsort((w, v, u))
    u, v, w = u[order], v[order], w[order]
    first = np.r_[True, (u[1:] != u[:-1]) | (v[1:] != v[:-1])]
    by_hand = sp.csr_matrix((w[first].astype(np.uint32), (u[first], v[first])), shape=(n, n))
    summed = sp.csr_matrix((w.astype(np.uint32), (u, v)), shape=(n, n))
    assert summed.nnz == by_hand.nnz and (summed != by_hand).nnz > 0, "rome99 has parallel arcs"
    loaded = sssp_gpu.load(ROME)
    expected = csgraph.dijkstra(by_hand, indices=[0, 1234])
    for built, used in [(loaded, by_hand), (by_hand, loaded)]:
        path = tmp_path / "rome.ch"
        sssp_gpu.ContractionIndex(built).save(path)
        index = sssp_gpu.ContractionIndex.load(path, used)
        np.testing.assert_array_equal(index.trees([0, 1234]), expected)
    with pytest.raises(ValueError, match="the same vertices but other arcs"):
        sssp_gpu.ContractionIndex.load(path, summed)


def test_an_edited_index_file_is_refused(tmp_path):
    """An index with one weight lowered and its trailer checksum recomputed
    reads as a sound file, and is refused against the graph."""
    graph = sssp_gpu.load(ROME)
    path = tmp_path / "rome.ch"
    sssp_gpu.ContractionIndex(graph).save(path)
    data = bytearray(path.read_bytes())
    n = graph.shape[0]
    levels = int.from_bytes(data[28:32], "little")
    up = int.from_bytes(data[32:36], "little")
    # The up weights follow the header (44 bytes), the vertex order, the
    # level starts, the up offsets and the up ends.
    weights = 44 + 4 * (n + levels + 1 + n + 1 + up)
    words = np.frombuffer(bytes(data[weights : weights + 4 * up]), dtype=np.uint32)
    e = int(np.flatnonzero(words > 0)[0])
    at = weights + 4 * e
    data[at : at + 4] = (int(words[e]) - 1).to_bytes(4, "little")
    trailer = 0xCBF29CE484222325
    for byte in data[:-8]:
        trailer = ((trailer ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    data[-8:] = trailer.to_bytes(8, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="arc"):
        sssp_gpu.ContractionIndex.load(path, graph)


@pytest.mark.parametrize("device", DEVICES)
def test_trees_into_a_callers_array(device, tmp_path):
    """``out``: the trees land in the caller's array (reused across calls,
    or a memmap), equal to scipy's; a wrong shape, type, order or a
    read-only array raises."""
    r = rng(("index out", device))
    graph = one_way_grid(r, 25, 20)
    n = graph.shape[0]
    index = sssp_gpu.ContractionIndex(graph)
    out = np.full((7, n), -1.0)
    for call in range(3):
        sources = r.integers(0, n, 7)
        result = index.trees(sources, device=device, out=out)
        assert result is out or np.shares_memory(result, out), call
        np.testing.assert_array_equal(out, csgraph.dijkstra(graph, indices=sources), err_msg=f"call {call}")
    mapped = np.lib.format.open_memmap(tmp_path / "trees.npy", mode="w+", dtype=np.float64, shape=(3, n))
    index.trees([0, 5, n - 1], device=device, out=mapped)
    mapped.flush()
    np.testing.assert_array_equal(np.load(tmp_path / "trees.npy"), csgraph.dijkstra(graph, indices=[0, 5, n - 1]))
    for bad in [np.zeros((7, n + 1)), np.zeros((6, n)), np.zeros((7, n), dtype=np.float32), np.zeros((n, 7)).T]:
        with pytest.raises(ValueError, match="out"):
            index.trees(r.integers(0, n, 7), device=device, out=bad)
    frozen = np.zeros((7, n))
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        index.trees(r.integers(0, n, 7), device=device, out=frozen)


def reduced(dist, limit, values):
    """scipy's rows reduced: the vertices within ``limit`` and the sum of
    ``values`` (None: 0) over them."""
    inside = np.isfinite(dist) & (dist <= limit)
    sums = np.zeros(len(dist)) if values is None else np.where(inside, values, 0.0).sum(axis=1)
    return inside.sum(axis=1), sums


def check_call(index, dist, r, device, kind):
    """One call of ``kind`` on ``index`` with fresh random arguments, checked
    against scipy's ``dist`` (all pairs)."""
    n = index.n
    sources = r.integers(0, n, int(r.integers(1, 600)))  # below and above a GPU batch (256)
    if kind == "within":
        limit = float(r.integers(0, 3000)) if r.integers(0, 3) else np.inf
        values = r.uniform(0, 5, n) if r.integers(0, 2) else None
        counts, sums = index.within(sources, limit, values, device=device)
        want_counts, want_sums = reduced(dist[sources], limit, values)
        np.testing.assert_array_equal(counts, want_counts)
        np.testing.assert_allclose(sums, want_sums, rtol=1e-12)
    elif kind == "trees":
        np.testing.assert_array_equal(index.trees(sources, device=device), dist[sources])
    elif kind == "table":
        targets = r.integers(0, n, int(r.integers(1, 50)))
        np.testing.assert_array_equal(index.table(sources, targets, device=device), dist[np.ix_(sources, targets)])
    else:
        near, source = index.nearest(sources, device=device)
        np.testing.assert_array_equal(near, dist[sources].min(axis=0))
        reached = np.isfinite(near)
        np.testing.assert_array_equal(dist[source[reached], np.flatnonzero(reached)], near[reached])


@pytest.mark.parametrize("device", DEVICES)
def test_calls_in_sequence_on_one_index_match_scipy(device):
    """Many calls on one index, each with its own sources, limit and values
    (none after some, a limit after inf), of every kind, some on another
    device in between, one after ``release``: each gives scipy's answers. A
    GPU keeps the index's state between calls; none of a call's arguments
    may outlive it there."""
    r = rng(("index calls in sequence", device))
    graph = one_way_grid(r, 30, 25)
    index = sssp_gpu.ContractionIndex(graph)
    dist = csgraph.dijkstra(graph)
    devices = [device, device, "cpu"] + (["gpu:0"] if device == "gpu" else [])
    kinds = ["within", "within", "trees", "within", "table", "nearest"]
    for call in range(30):
        on = devices[call % len(devices)]
        kind = kinds[call % len(kinds)]
        print(f"call {call}: {kind} on {on}")
        check_call(index, dist, r, on, kind)
        if call == 20:
            index.release()
    if device == "gpu":
        index.within([0], 100.0, device="gpu")
        assert index._index.gpu_state_kept
        index.release()
        assert not index._index.gpu_state_kept
    else:
        assert not index._index.gpu_state_kept  # the CPU keeps nothing


@pytest.mark.parametrize("device", DEVICES)
def test_calls_from_threads_on_one_index_match_scipy(device):
    """Calls from several threads at once on one index (on a GPU one of them
    uses the kept state, the others their own): each gives scipy's answers."""
    r = rng(("index calls from threads", device))
    graph = one_way_grid(r, 25, 20)
    index = sssp_gpu.ContractionIndex(graph)
    dist = csgraph.dijkstra(graph)
    seeds = r.integers(0, 2**32, 4)
    errors = []

    def work(seed):
        try:
            own = np.random.default_rng(seed)
            for call in range(6):
                check_call(index, dist, own, device, ["within", "trees", "nearest"][call % 3])
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(int(seed),)) for seed in seeds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


@pytest.mark.parametrize("device", DEVICES)
def test_a_failed_call_leaves_later_calls_right(device):
    """A call whose distances overflow 32 bits raises OverflowError (on a
    GPU the state it used is dropped); the calls after it answer right."""
    path = sp.csr_matrix(([2**31, 2**31, 5], ([0, 1, 2], [1, 2, 3])), shape=(4, 4))
    index = sssp_gpu.ContractionIndex(path)
    dist = csgraph.dijkstra(path)
    for _ in range(2):
        np.testing.assert_array_equal(index.within([1, 2], np.inf, device=device)[0], [3, 2])
        with pytest.raises(OverflowError):
            index.within([0, 1], np.inf, device=device)
        with pytest.raises(OverflowError):
            index.trees([1, 0], device=device)
        np.testing.assert_array_equal(index.trees([2, 1, 3], device=device), dist[[2, 1, 3]])
        np.testing.assert_array_equal(index.within([1, 2], 2.0**31, device=device)[0], [2, 2])
