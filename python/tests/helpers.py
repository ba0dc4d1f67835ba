"""What the tests share: seeded random graphs of awkward shapes and checks
against scipy.sparse.csgraph."""

import os
import pathlib
import zlib

import numpy as np
import pytest
import scipy.sparse as sp

import sssp_gpu

ROME = pathlib.Path(__file__).resolve().parents[2] / "graphs" / "rome99.gr"
SEED = int(os.environ.get("SSSP_TEST_SEED", "20261124"))
HAS_GPU = sssp_gpu.Solver("auto").device == "gpu"

DEVICES = [
    "cpu",
    pytest.param("gpu", marks=[pytest.mark.gpu, pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")]),
]


def seed_of(case):
    """The seed of a test case, and words that name it for a failure."""
    seed = [SEED, zlib.crc32(repr(case).encode())]
    return seed, f"seed {seed} of case {case!r} (set SSSP_TEST_SEED to change the base)"


def rng(case):
    """A generator per test case; the seed is printed for a failing case."""
    seed, words = seed_of(case)
    print(words)
    return np.random.default_rng(seed)


def random_graph(r, n, m, float_weights, fmt="csr"):
    """n vertices, m arcs drawn with repetition (parallel arcs, self-loops),
    a quarter of the weights 0 (explicit zeros), the last vertices isolated."""
    reach = max(1, n - n // 5)
    rows = r.integers(0, reach, m)
    cols = r.integers(0, reach, m)
    if float_weights:
        weights = r.uniform(0.0, 10.0, m)
    else:
        weights = r.integers(0, 100, m).astype(np.int64)
    weights[r.random(m) < 0.25] = 0
    coo = sp.coo_matrix((weights, (rows, cols)), shape=(n, n))
    if fmt == "coo":
        return coo
    # Built directly so that parallel arcs and explicit zeros stay in the CSR.
    order = np.argsort(rows, kind="stable")
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=n))))
    csr = sp.csr_matrix((weights[order], cols[order], indptr), shape=(n, n))
    return csr if fmt == "csr" else csr.tocsc()


def tolerance(n, float_weights):
    """f32 rounding (of the weights and of each addition) relative to f64:
    at most (hops + 1) * 2**-24 per distance, hops < n; doubled for margin."""
    return (n + 1) * 2.0**-23 if float_weights else 0.0


def assert_close(ours, expected, n, float_weights, msg=""):
    assert ours.shape == expected.shape, msg
    assert ours.dtype == np.float64, msg
    np.testing.assert_array_equal(np.isinf(ours), np.isinf(expected), err_msg=msg)
    finite = np.isfinite(expected)
    np.testing.assert_allclose(ours[finite], expected[finite], rtol=tolerance(n, float_weights), atol=0, err_msg=msg)


def arc_weights(graph, directed):
    """The lightest weight of each arc u -> v as a dict (both ways when
    undirected), after scipy's conversion (which sums the duplicates of
    weights other than float64)."""
    csr = graph.tocsr().astype(np.float64, copy=False)
    coo = csr.tocoo()
    lightest = {}
    pairs = zip(coo.row, coo.col, coo.data)
    for u, v, w in pairs:
        for a, b in [(u, v)] if directed else [(u, v), (v, u)]:
            lightest[(a, b)] = min(lightest.get((a, b), np.inf), float(w))
    return lightest


def assert_tree(dist, preds, sources, graph, directed, float_weights, unweighted=False, msg=""):
    """Each reached non-source vertex's predecessor is a vertex with an arc to
    it on which its distance is tight; the others have none."""
    arcs = arc_weights(graph, directed)
    n = dist.shape[-1]
    for row, (d, p) in enumerate(zip(np.atleast_2d(dist), np.atleast_2d(preds))):
        assert p.dtype == np.int32, msg
        for v in range(n):
            if np.isinf(d[v]) or v in sources[row]:
                assert p[v] == sssp_gpu.NO_PREDECESSOR, (row, v, msg)
                continue
            u = int(p[v])
            assert (u, v) in arcs, (row, v, u, msg)
            w = 1.0 if unweighted else arcs[(u, v)]
            assert d[u] + w == pytest.approx(d[v], rel=tolerance(n, float_weights), abs=1e-12), (row, v, msg)
