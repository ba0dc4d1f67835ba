"""The package owns what it solves: a solve runs without the GIL, and another
Python thread writing into the caller's arrays meanwhile (the CSR's weights
here) must not change its answer. The arrays of ``load`` and of scipy's
canonical CSR would otherwise be read in place."""

import sys
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


def solve_while_another_thread_writes(m, sources, algorithm):
    """``dijkstra`` on ``m`` while another thread sets every weight to 1000
    once the native solve has started: a profile hook wakes the writer as
    the native ``solve`` is called, and with a long switch interval the
    writer can take the GIL only where the solve releases it."""
    started = threading.Event()

    def write():
        started.wait()
        m.data[:] = 1000

    def hook(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", "") == "solve":
            started.set()

    writer = threading.Thread(target=write)
    writer.start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    sys.setprofile(hook)
    try:
        return sssp_gpu.dijkstra(m, indices=sources, device="cpu", algorithm=algorithm)
    finally:
        sys.setprofile(None)
        sys.setswitchinterval(interval)
        started.set()
        writer.join()


def test_a_thread_writing_into_the_weights_does_not_change_a_solve():
    r = rng("ownership")
    m = grid(300, r)
    assert m.data.dtype == np.uint32
    sources = [0, 1234, 45_000, 89_999]
    expected = sssp_gpu.dijkstra(m, indices=sources, device="cpu")
    original = m.data.copy()
    for algorithm in ("auto", "dijkstra"):
        m.data[:] = original
        ours = solve_while_another_thread_writes(m, sources, algorithm)
        assert (m.data == 1000).all(), "the writer did not write"
        np.testing.assert_array_equal(ours, expected, err_msg=f"{algorithm}: the solve read weights written during it")
