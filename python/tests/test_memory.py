"""Results that memory cannot hold raise MemoryError (numpy allocates the
rows × n result before anything is solved) rather than ending the process."""

import numpy as np
import pytest
import scipy.sparse as sp

import sssp_gpu


def test_rows_that_cannot_fit_raise_memory_error():
    n = 1 << 23
    empty = sp.csr_matrix((np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int32), np.zeros(n + 1, dtype=np.int32)), shape=(n, n))
    # 2**23 rows of 2**23 float64 distances: 512 TiB.
    with pytest.raises(MemoryError):
        sssp_gpu.dijkstra(empty, indices=np.zeros(n, dtype=np.int64), device="cpu")
