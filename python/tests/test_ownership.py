"""The package owns what it solves: a solve runs without the GIL, and another
Python thread writing into the caller's arrays meanwhile (the CSR's weights
here) must not change its answer. The arrays of ``load`` and of scipy's
canonical CSR would otherwise be read in place."""

import threading

import numpy as np
import scipy.sparse as sp

import sssp_gpu
from helpers import rng


def grid(side, r):
    """A ``side`` × ``side`` grid, both directions, uint32 weights 1..10,
    canonical CSR with int32 indices (what the package reads in place)."""
    ids = np.arange(side * side).reshape(side, side)
    tails = np.concatenate([ids[:, :-1].ravel(), ids[:, 1:].ravel(), ids[:-1, :].ravel(), ids[1:, :].ravel()])
    heads = np.concatenate([ids[:, 1:].ravel(), ids[:, :-1].ravel(), ids[1:, :].ravel(), ids[:-1, :].ravel()])
    weights = r.integers(1, 11, tails.size).astype(np.uint32)
    m = sp.csr_matrix((weights, (tails, heads)), shape=(side * side, side * side))
    m.sum_duplicates()
    m.indices = m.indices.astype(np.int32)
    m.indptr = m.indptr.astype(np.int32)
    return m


def test_a_thread_writing_into_the_weights_does_not_change_a_solve():
    r = rng("ownership")
    m = grid(300, r)
    assert m.data.dtype == np.uint32
    sources = [0, 1234, 45_000, 89_999]
    expected = sssp_gpu.dijkstra(m, indices=sources, device="cpu")
    original = m.data.copy()
    stop = threading.Event()

    def write():
        while not stop.is_set():
            m.data[:] = 1000
            m.data[:] = original

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(3):
            for algorithm in ("auto", "dijkstra"):
                ours = sssp_gpu.dijkstra(m, indices=sources, device="cpu", algorithm=algorithm)
                np.testing.assert_array_equal(ours, expected, err_msg=f"{algorithm}: the solve read weights written during it")
    finally:
        stop.set()
        writer.join()
