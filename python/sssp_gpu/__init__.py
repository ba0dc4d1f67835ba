"""Single-source shortest paths on NVIDIA GPUs, with scipy's interface.

``sssp_gpu.dijkstra`` takes the arguments of ``scipy.sparse.csgraph.dijkstra``
and returns arrays of the same shapes and dtypes; it runs on the GPU when
there is one (``device="auto"``), else on the CPU. ``Graph`` prepares a
graph once for many calls (``Graph(M).dijkstra(indices=...)``); ``Solver``
keeps the device open across solves and reports iterations and times; ``load`` reads
any graph file the ``host`` CLI reads. ``ContractionIndex`` preprocesses a
road network once (a contraction hierarchy, the file of ``host preprocess``)
and then gives trees, tables and point-to-point distances from it;
``CustomizableIndex`` preprocesses its arcs once and makes a
``ContractionIndex`` of any new weights of them in a fraction of the time.

Differences from scipy, all documented in docs/PYTHON.md:

* real weights are solved in float32 (scipy: float64), so distances differ by
  float32 rounding (relative error at most about ``(hops + 1) * 2**-24``);
  integer and boolean weights are exact (uint32; integer weights above
  ``2**32 - 1`` run as float32);
* negative and NaN weights raise ``ValueError`` (scipy warns and solves);
* ``indices`` must be integers (scipy truncates floats);
* predecessors are a shortest-path tree, possibly another one than scipy's
  where several shortest paths tie.
"""

from __future__ import annotations

import threading as _threading
from dataclasses import dataclass as _dataclass
from dataclasses import field as _field
from typing import Optional as _Optional

import numpy as _np
import scipy.sparse as _sp

from . import _native

# The future import above binds the name `annotations`, which is no part of the API.
del annotations

__all__ = [
    "Graph",
    "Solver",
    "SolveResult",
    "ContractionIndex",
    "CustomizableIndex",
    "dijkstra",
    "shortest_path",
    "load",
    "NO_PREDECESSOR",
]

#: scipy's predecessor (and ``min_only`` source) of "none".
NO_PREDECESSOR = -9999

_U32_MAX = _np.iinfo(_np.uint32).max
_F32_MAX = float(_np.finfo(_np.float32).max)


@_dataclass
class SolveResult:
    """What ``Solver.solve`` returns.

    ``dist`` and ``predecessors`` have scipy's shapes: ``indices.shape + (n,)``
    (``(n,)`` for a scalar index or ``min_only``). ``sources`` is set with
    ``min_only`` and ``return_predecessors``. ``iterations`` and ``solve_ms``
    have one entry per solve (one per source; one in all for ``min_only``).
    """

    dist: _np.ndarray
    predecessors: _Optional[_np.ndarray] = None
    sources: _Optional[_np.ndarray] = None
    iterations: list = _field(default_factory=list)
    solve_ms: list = _field(default_factory=list)
    prepare_ms: _Optional[float] = None
    algorithm: _Optional[str] = None
    device: _Optional[str] = None


@_dataclass
class _Csr:
    """A graph ready for the native solver: uint32 arrays, weight words."""

    n: int
    indptr: _np.ndarray
    indices: _np.ndarray
    words: _np.ndarray
    float_weights: bool


def _as_u32_index(array: _np.ndarray, what: str) -> _np.ndarray:
    """``array`` as contiguous uint32; a view (no copy) of int32/uint32 input."""
    array = _np.ascontiguousarray(array)
    if array.dtype == _np.uint32:
        return array
    if array.dtype == _np.int32:
        return array.view(_np.uint32)  # valid CSR indices are non-negative
    if array.size and (array.min() < 0 or array.max() > _U32_MAX):
        raise ValueError(f"graph {what} do not fit 32 bits")
    return array.astype(_np.uint32)


def _dense_to_csr(dense) -> _sp.csr_matrix:
    """scipy's dense rule: zeros, infinities and NaNs are non-edges."""
    dense = _np.asarray(dense)
    if dense.ndim != 2 or dense.shape[0] != dense.shape[1]:
        raise ValueError(f"graph must be a square 2-D array (N, N), not of shape {dense.shape}")
    if not (_np.issubdtype(dense.dtype, _np.number) or dense.dtype == _np.bool_) or _np.iscomplexobj(dense):
        raise TypeError(f"graph weights must be real numbers, not {dense.dtype}")
    edge = dense != 0
    if _np.issubdtype(dense.dtype, _np.floating):
        edge &= _np.isfinite(dense)
    rows, cols = _np.nonzero(edge)
    indptr = _np.zeros(dense.shape[0] + 1, dtype=_np.int64)
    _np.cumsum(_np.bincount(rows, minlength=dense.shape[0]), out=indptr[1:])
    return _sp.csr_matrix((dense[rows, cols], cols, indptr), shape=dense.shape)


def _masked_to_csr(masked) -> _sp.csr_matrix:
    """scipy's masked rule: every unmasked entry is an edge, zeros included."""
    if masked.ndim != 2 or masked.shape[0] != masked.shape[1]:
        raise ValueError(f"graph must be a square 2-D array (N, N), not of shape {masked.shape}")
    rows, cols = _np.nonzero(~_np.ma.getmaskarray(masked))
    indptr = _np.zeros(masked.shape[0] + 1, dtype=_np.int64)
    _np.cumsum(_np.bincount(rows, minlength=masked.shape[0]), out=indptr[1:])
    return _sp.csr_matrix((_np.ma.getdata(masked)[rows, cols], cols, indptr), shape=masked.shape)


def _weights(data: _np.ndarray, unweighted: bool) -> tuple[_np.ndarray, bool, _Optional[_np.ndarray]]:
    """Weight words, whether they are float32, and a mask of the edges to keep
    (None: all; +inf edges of sparse input are dropped: scipy never uses them)."""
    if unweighted:
        return _np.ones(data.size, dtype=_np.uint32), False, None
    if data.dtype == _np.bool_ or _np.issubdtype(data.dtype, _np.integer):
        if data.size and data.min() < 0:
            raise ValueError("Graph has negative weights: this solver needs weights >= 0")
        if data.size == 0 or data.max() <= _U32_MAX:
            return _np.ascontiguousarray(data.astype(_np.uint32, copy=False)), False, None
        data = data.astype(_np.float64)
    if not _np.issubdtype(data.dtype, _np.floating):
        raise TypeError(f"graph weights must be real numbers, not {data.dtype}")
    # Two passes over the weights for every check (a NaN is the minimum and
    # the maximum; -inf the minimum).
    low, high = (data.min(), data.max()) if data.size else (0.0, 0.0)
    if _np.isnan(low) or _np.isnan(high):
        raise ValueError("Graph has NaN weights")
    if low < 0:
        raise ValueError("Graph has negative weights: this solver needs weights >= 0")
    keep = None
    if _np.isinf(high):
        keep = ~_np.isinf(data)
        data = data[keep]
        high = data.max() if data.size else 0.0
    if high > _F32_MAX:
        raise ValueError("graph weights beyond float32's range (3.4e38) are not supported")
    data = _np.ascontiguousarray(data.astype(_np.float32, copy=False))
    if low == 0 and _np.signbit(data).any():  # -0.0 is a weight of 0
        data = data + _np.float32(0.0)
    return data.view(_np.uint32), True, keep


def _as_csr(csgraph) -> _sp.csr_matrix:
    """Any graph scipy's dijkstra accepts (or ``load``'s) as the CSR matrix
    scipy solves, by scipy's rules (the matrix itself where it is CSR)."""
    if _sp.issparse(csgraph):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError(f"compressed-sparse graph must be shape (N, N), not {csgraph.shape}")
        # As scipy: CSR keeps parallel entries (the lightest counts), other
        # formats are converted, which sums COO duplicates.
        csr = csgraph if csgraph.format == "csr" else csgraph.tocsr()
        # scipy converts other weights to float64 with `astype`, which sums
        # duplicate entries; only a float64 CSR keeps them (the lightest counts).
        if csr.dtype != _np.float64 and not csr.has_canonical_format:
            wide = _np.float64 if _np.issubdtype(csr.dtype, _np.floating) else _np.int64
            csr = csr.astype(wide)
            csr.sum_duplicates()
    elif _np.ma.isMaskedArray(csgraph):
        csr = _masked_to_csr(csgraph)
    else:
        csr = _dense_to_csr(csgraph)
    return csr


def _prepare(csgraph, unweighted: bool) -> _Csr:
    """Any graph scipy's dijkstra accepts (or ``load``'s) as uint32 CSR
    arrays, borrowing them where they are CSR with 32-bit dtypes."""
    csr = _as_csr(csgraph)
    n = csr.shape[0]
    if n >= _U32_MAX or csr.indices.size > _U32_MAX:
        raise ValueError("graphs need fewer than 2**32 - 1 vertices and 2**32 edges")
    indptr, indices = csr.indptr, csr.indices
    words, float_weights, keep = _weights(_np.asarray(csr.data), unweighted)
    if keep is not None:
        indptr, indices = _kept(indptr, indices, keep)
    return _Csr(n, _as_u32_index(indptr, "offsets"), _as_u32_index(indices, "indices"), words, float_weights)


def _kept(indptr: _np.ndarray, indices: _np.ndarray, keep: _np.ndarray) -> tuple[_np.ndarray, _np.ndarray]:
    """The CSR arrays of the entries where ``keep`` (a mask of them) holds."""
    return _np.concatenate(([0], _np.cumsum(keep)))[indptr], indices[keep]


def _sources(indices, n: int) -> _np.ndarray:
    """``indices`` as an int array of their shape, negative ones wrapped."""
    if indices is None:
        return _np.arange(n, dtype=_np.int64)
    array = _np.asarray(indices)
    if array.dtype == _np.bool_ or not (array.size == 0 or _np.issubdtype(array.dtype, _np.integer)):
        raise ValueError(f"indices must be integers, not {array.dtype}")
    array = array.astype(_np.int64)
    if array.size and (array.min() < -n or array.max() >= n):
        raise ValueError(f"indices out of range 0...{n}")
    return _np.where(array < 0, array + n, array)


def _check_limit(limit) -> float:
    try:
        limit = float(limit)
    except (TypeError, ValueError):
        raise ValueError(f"limit must be a number, not {limit!r}") from None
    if not limit >= 0:  # NaN included
        raise ValueError("limit must be >= 0")
    return limit


class Solver:
    """A solver on one device, kept open across solves.

    ``device``: ``"auto"`` (the first GPU if there is one, else the CPU),
    ``"gpu"`` or ``"gpu:N"`` (``RuntimeError`` without one) or ``"cpu"``.
    """

    def __init__(self, device: str = "auto"):
        if not isinstance(device, str):
            raise ValueError(f"device must be a string, not {device!r}")
        self._native = _native.Solver(device)

    @property
    def device(self) -> str:
        """``"gpu"`` or ``"cpu"``: where solves run."""
        return self._native.device

    @property
    def no_gpu_reason(self) -> _Optional[str]:
        """Why the solver has no GPU (None when it has one)."""
        return self._native.no_gpu_reason

    def solve(
        self,
        csgraph,
        indices=None,
        directed: bool = True,
        return_predecessors: bool = False,
        unweighted: bool = False,
        limit=_np.inf,
        min_only: bool = False,
        algorithm: str = "auto",
    ) -> SolveResult:
        """Shortest paths with ``scipy.sparse.csgraph.dijkstra``'s arguments,
        plus ``algorithm`` (a name of ``host --list-algorithms``; ``"auto"``
        picks one). The GIL is released while solving."""
        limit = _check_limit(limit)
        if not isinstance(algorithm, str):
            raise ValueError(f"algorithm must be a string, not {algorithm!r}")
        graph = _prepare(csgraph, bool(unweighted))
        n = graph.n
        sources = _sources(indices, n)
        flat = _np.unique(sources) if min_only else sources.ravel()
        if flat.size == 0:
            return _empty(sources.shape, n, min_only, return_predecessors, self.device)
        out = self._native.solve(
            graph.indptr,
            graph.indices,
            graph.words,
            graph.float_weights,
            flat.tolist(),
            limit=limit,
            predecessors=bool(return_predecessors),
            undirected=not directed,
            min_only=bool(min_only),
            algorithm=algorithm,
        )
        return _result(out, (n,) if min_only else sources.shape + (n,))


def _result(out: dict, shape: tuple) -> SolveResult:
    """A native solve's dict as a ``SolveResult`` of scipy's ``shape``."""
    preds = out["predecessors"]
    return SolveResult(
        dist=out["dist"].reshape(shape),
        predecessors=None if preds is None else preds.reshape(shape),
        sources=out.get("sources"),
        iterations=out["iterations"],
        solve_ms=out["solve_ms"],
        prepare_ms=out["prepare_ms"],
        algorithm=out["algorithm"],
        device=out["device"],
    )


def _empty(shape: tuple, n: int, min_only: bool, return_predecessors: bool, device: str) -> SolveResult:
    """No sources: nothing reached (scipy's shapes)."""
    shape = (n,) if min_only else shape + (n,)
    none = _np.full(shape, NO_PREDECESSOR, dtype=_np.int32)
    return SolveResult(
        dist=_np.full(shape, _np.inf),
        predecessors=none if return_predecessors else None,
        sources=none.copy() if (min_only and return_predecessors) else None,
        device=device,
    )


def _scipy_return(result: SolveResult, return_predecessors: bool, min_only: bool):
    """What scipy's ``dijkstra`` returns for these options."""
    if not return_predecessors:
        return result.dist
    if min_only:
        return result.dist, result.predecessors, result.sources
    return result.dist, result.predecessors


_solvers: dict = {}
_solvers_lock = _threading.Lock()


def _solver(device: str) -> Solver:
    """One ``Solver`` per device string for the module-level functions."""
    with _solvers_lock:
        if device not in _solvers:
            _solvers[device] = Solver(device)
        return _solvers[device]


def dijkstra(
    csgraph,
    directed=True,
    indices=None,
    return_predecessors=False,
    unweighted=False,
    limit=_np.inf,
    min_only=False,
    *,
    device="auto",
    algorithm="auto",
):
    """``scipy.sparse.csgraph.dijkstra`` on the GPU (or the CPU).

    Returns ``dist``, or ``(dist, predecessors)`` with ``return_predecessors``,
    or ``(dist, predecessors, sources)`` with ``min_only`` too, as scipy.
    """
    result = _solver(device).solve(
        csgraph,
        indices=indices,
        directed=directed,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        limit=limit,
        min_only=min_only,
        algorithm=algorithm,
    )
    return _scipy_return(result, return_predecessors, min_only)


def shortest_path(
    csgraph,
    method="auto",
    directed=True,
    return_predecessors=False,
    unweighted=False,
    overwrite=False,
    indices=None,
    *,
    device="auto",
):
    """``scipy.sparse.csgraph.shortest_path`` for ``method`` ``"auto"`` or
    ``"D"`` (this package runs Dijkstra only; ``overwrite`` is ignored)."""
    if method not in ("auto", "D"):
        raise ValueError(f"method {method!r} is not supported: only 'auto' and 'D' (Dijkstra)")
    return dijkstra(
        csgraph,
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        device=device,
    )


class Graph:
    """A graph converted, copied and prepared once, then solved from any
    sources any number of times: ``Graph(M).dijkstra(indices=s)`` returns
    what ``dijkstra(M, indices=s)`` returns, without converting, uploading
    and preparing ``M`` again on every call.

    ``directed`` and ``unweighted`` are fixed for the graph (``directed=False``
    builds the symmetric graph once); ``device`` and ``algorithm`` are those
    of ``dijkstra``. The preparation (on the GPU: the upload, the solver's
    state and ``auto``'s probe from vertex 0) happens here. The graph is a
    copy: changing ``csgraph`` later does not change it.

    ``solves`` tells ``auto`` how many solves to prepare for: ``None`` (any
    number; on a road network the partition solver in one form, prepared
    in about a quarter of a second), a count (the plan that minimises
    preparation plus that many solves), or ``"many"`` (its whole trial of
    forms, about a second on a road network, for at most ~10% faster
    solves). ``reason`` says what it chose and why.

    Calls from several threads are safe: one solve runs at a time on a graph
    (others wait), without the GIL.
    """

    def __init__(
        self,
        csgraph,
        directed: bool = True,
        unweighted: bool = False,
        device: str = "auto",
        algorithm: str = "auto",
        solves=None,
    ):
        if not isinstance(device, str):
            raise ValueError(f"device must be a string, not {device!r}")
        if not isinstance(algorithm, str):
            raise ValueError(f"algorithm must be a string, not {algorithm!r}")
        many = isinstance(solves, str) and solves == "many"
        if not (solves is None or many or (isinstance(solves, int) and not isinstance(solves, bool) and solves > 0)):
            raise ValueError(f'solves must be None, a positive int or "many", not {solves!r}')
        csr = _prepare(csgraph, bool(unweighted))
        self._directed = bool(directed)
        self._native = _native.Graph(
            _solver(device)._native,
            csr.indptr,
            csr.indices,
            csr.words,
            csr.float_weights,
            not self._directed,
            algorithm,
            solves=None if many else solves,
            many=many,
        )

    @property
    def n(self) -> int:
        """Vertices."""
        return self._native.n

    @property
    def directed(self) -> bool:
        return self._directed

    @property
    def algorithm(self) -> str:
        """The algorithm that runs (``auto`` resolved)."""
        return self._native.algorithm

    @property
    def device(self) -> str:
        """``"gpu"`` or ``"cpu"``: where the solves run."""
        return self._native.device

    @property
    def prepare_ms(self) -> _Optional[float]:
        """The preparation on the GPU (upload, allocations, ``auto``'s trial),
        ms; None on the CPU."""
        return self._native.prepare_ms

    @property
    def reason(self) -> _Optional[str]:
        """Why ``auto`` chose the algorithm and what it tried (None for a
        named algorithm)."""
        return self._native.reason

    def solve(self, indices=None, return_predecessors: bool = False, limit=_np.inf, min_only: bool = False) -> SolveResult:
        """``dijkstra``'s result with the solve's report (``Solver.solve``'s
        ``SolveResult``; ``prepare_ms`` is the graph's one preparation)."""
        limit = _check_limit(limit)
        n = self.n
        sources = _sources(indices, n)
        flat = _np.unique(sources) if min_only else sources.ravel()
        if flat.size == 0:
            return _empty(sources.shape, n, min_only, return_predecessors, self.device)
        out = self._native.solve(
            flat.tolist(),
            limit=limit,
            predecessors=bool(return_predecessors),
            min_only=bool(min_only),
        )
        return _result(out, (n,) if min_only else sources.shape + (n,))

    def dijkstra(self, indices=None, return_predecessors: bool = False, limit=_np.inf, min_only: bool = False):
        """``scipy.sparse.csgraph.dijkstra(M, directed, indices,
        return_predecessors, unweighted, limit, min_only)`` of this graph's
        ``M``, ``directed`` and ``unweighted``: the same shapes, dtypes and
        returns. ``min_only`` takes the minimum over each source's row (one
        solve per source; the one-off ``dijkstra`` solves it once, from a
        super source)."""
        result = self.solve(indices, return_predecessors, limit, min_only)
        return _scipy_return(result, return_predecessors, min_only)

    def __repr__(self) -> str:
        kind = "directed" if self._directed else "undirected"
        return f"sssp_gpu.Graph(n={self.n}, {kind}, algorithm={self.algorithm!r}, device={self.device!r})"


def load(path) -> _sp.csr_matrix:
    """A graph file (any format the ``host`` CLI reads) as a scipy CSR matrix
    with int32 indices and uint32 or float32 weights: ``dijkstra`` uses its
    arrays without copying them."""
    indptr, indices, words, float_weights = _native.load(str(path))
    n = indptr.size - 1
    data = words.view(_np.float32) if float_weights else words
    if n < 2**31 and indices.size < 2**31:
        indptr, indices = indptr.view(_np.int32), indices.view(_np.int32)
    else:
        indptr, indices = indptr.astype(_np.int64), indices.astype(_np.int64)
    return _sp.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)


class ContractionIndex:
    """A contraction hierarchy of one graph (road networks: other graphs raise
    ``ValueError``), built once; then whole trees (PHAST, on the GPU in
    batches), distance tables and point-to-point distances. With integer
    weights they are exact; with float weights (float32, as everywhere in this
    package) they are float32 sums rounded in another order than along the
    graph's arcs, within the bound that ``sssp::oracle::check_f32_index``
    documents (a few dozen roundings, relatively).

    ``ContractionIndex(csgraph, directed=True)`` builds it;
    ``ContractionIndex.load(path, csgraph, directed=True)`` reads a file written
    by ``save`` or by ``host preprocess`` and checks it was built from this
    graph.
    """

    def __init__(self, csgraph, directed: bool = True, *, _native_index=None):
        if _native_index is None:
            csr = _prepare(csgraph, unweighted=False)
            _native_index = _native.Index.build(csr.indptr, csr.indices, csr.words, csr.float_weights, not directed)
        self._index = _native_index
        self.n = _native_index.num_vertices

    @classmethod
    def load(cls, path, csgraph, directed: bool = True) -> "ContractionIndex":
        csr = _prepare(csgraph, unweighted=False)
        native = _native.Index.load(str(path), csr.indptr, csr.indices, csr.words, csr.float_weights, not directed)
        return cls(None, _native_index=native)

    def save(self, path) -> None:
        self._index.save(str(path))

    @property
    def levels(self) -> int:
        return self._index.levels

    @property
    def shortcuts(self) -> int:
        return self._index.shortcuts

    def trees(self, indices, device: str = "auto", out=None) -> _np.ndarray:
        """Distances from each of ``indices`` to every vertex: shape
        ``(len(indices), n)`` float64, ``inf`` where unreached (scipy's
        ``dijkstra(..., indices=indices)``).

        ``out``: a C-contiguous float64 array of that shape (or a
        ``numpy.memmap`` of one) to write the trees into and return. A
        fresh array's memory is first touched as the trees arrive, which
        costs more than the trees themselves on large graphs; an ``out``
        reused across calls does not pay it."""
        sources = [int(s) for s in _sources(indices, self.n).ravel()]
        if out is not None and (not isinstance(out, _np.ndarray) or out.dtype != _np.float64):
            raise ValueError("out must be a float64 numpy array")
        dist, _ = self._index.trees(_solver(device)._native, sources, out)
        return dist

    def within(self, sources, limit, values=None, device: str = "auto"):
        """Per source, the vertices within distance ``limit`` (``inf``: every
        reached one) and the sum of ``values`` (one number per vertex) over
        them (pandana-style accessibility, isochrone size): ``(counts,
        sums)``, int64 and float64 arrays of ``len(sources)``; sums are 0
        without values. Reduced where the trees are computed: no tree is
        copied."""
        s = [int(v) for v in _sources(sources, self.n).ravel()]
        if values is not None:
            values = _np.ascontiguousarray(values, dtype=_np.float64).ravel()
            if values.shape[0] != self.n:
                raise ValueError(f"{values.shape[0]} values for a graph of {self.n} vertices: one per vertex is needed")
        counts, sums, _ = self._index.within(_solver(device)._native, s, float(limit), values)
        return counts.astype(_np.int64), sums

    def nearest(self, sources, device: str = "auto"):
        """Each vertex's distance from its nearest of ``sources`` and that
        source (scipy's ``dijkstra(..., min_only=True,
        return_predecessors=True)`` distances and ``sources``): float64
        ``inf`` and int32 ``-9999`` where no source reaches a vertex; on
        ties the source listed first. No tree is copied."""
        s = [int(v) for v in _sources(sources, self.n).ravel()]
        dist, source, _ = self._index.nearest(_solver(device)._native, s)
        return dist, source

    def accessibility(self, limit, values=None, gpus=None, progress: bool = False, device: str = "auto"):
        """All-pairs accessibility: for every vertex, the vertices within
        distance ``limit`` of it and the sum of ``values`` over them
        (``within`` from every vertex): ``(counts, sums)``, int64 and float64
        arrays of ``n``. ``gpus``: ``"all"`` or a list of device ordinals to
        spread the sources over (one copy of the index each; default: GPU 0,
        or the CPU with ``device="cpu"`` or without a GPU). ``progress``: a
        progress line on stderr."""
        if values is not None:
            values = _np.ascontiguousarray(values, dtype=_np.float64).ravel()
            if values.shape[0] != self.n:
                raise ValueError(f"{values.shape[0]} values for a graph of {self.n} vertices: one per vertex is needed")
        if device == "cpu":
            workers = "cpu"
        elif gpus is None:
            workers = "auto"
        elif isinstance(gpus, str):
            workers = gpus
        else:
            workers = ",".join(str(int(g)) for g in gpus)
        counts, sums, _ = self._index.accessibility(float(limit), values, workers, bool(progress))
        return counts.astype(_np.int64), sums

    def table(self, sources, targets, device: str = "auto") -> _np.ndarray:
        """The ``(len(sources), len(targets))`` float64 distance table."""
        s = [int(v) for v in _sources(sources, self.n).ravel()]
        t = [int(v) for v in _sources(targets, self.n).ravel()]
        table, _ = self._index.table(_solver(device)._native, s, t)
        return table.reshape(len(s), len(t))

    def pair_distances(self, sources, targets, device: str = "auto") -> _np.ndarray:
        """The distance of each pair ``(sources[i], targets[i])``: two
        equal-length integer arrays give a float64 array, ``inf`` where
        unreachable. Answered without the GIL on the GPU, one thread a pair
        (``device="auto"``: from 10,000 pairs, when there is a GPU;
        ``"gpu"``: always), else on the CPU in parallel (sources with many
        targets one-to-many)."""
        s = _np.ascontiguousarray(sources, dtype=_np.int64).ravel()
        t = _np.ascontiguousarray(targets, dtype=_np.int64).ravel()
        if device == "auto" and s.size < _native.GPU_PAIRS_FROM:
            device = "cpu"  # answered before the GPU would have started
        gpu_from = 0 if device == "gpu" else None
        dist, _ = self._index.pair_distances(_solver(device)._native, s, t, gpu_from)
        return dist

    def distance(self, source: int, target: int) -> float:
        """The distance from ``source`` to ``target`` (``inf`` when unreachable)."""
        return self._index.distance(int(source), int(target))

    def release(self) -> None:
        """Frees the GPU memory that the index keeps between calls. A call of
        ``trees``, ``within``, ``nearest`` or ``table`` on a GPU uploads the
        index's down arcs and allocates a batch's buffers (tens of ms on a
        large road network); the index keeps them for its next call on the
        same device, until it is dropped or released. The next call on a GPU
        sets them up again."""
        self._index.release()


def _integer_words(data: _np.ndarray) -> tuple[_np.ndarray, _Optional[_np.ndarray]]:
    """The weights of a customization as uint32 words, and a mask of the
    entries to keep (None: all; ``inf`` entries are closed arcs)."""
    if data.dtype == _np.bool_ or _np.issubdtype(data.dtype, _np.integer):
        if data.size and data.min() < 0:
            raise ValueError("weights must be >= 0")
        if data.size and data.max() > _U32_MAX:
            raise ValueError("customizable indexes take weights up to 2**32 - 1")
        return _np.ascontiguousarray(data.astype(_np.uint32, copy=False)), None
    if not _np.issubdtype(data.dtype, _np.floating):
        raise TypeError(f"weights must be real numbers, not {data.dtype}")
    if _np.isnan(data).any():
        raise ValueError("weights must not be NaN")
    if data.size and data.min() < 0:
        raise ValueError("weights must be >= 0")
    keep = None
    if data.size and _np.isinf(data.max()):
        keep = ~_np.isinf(data)
        data = data[keep]
    if data.size and (data.max() > _U32_MAX or (data != _np.floor(data)).any()):
        raise ValueError(
            "customizable indexes take integer weights up to 2**32 - 1 (e.g. tenths of a second): "
            "round them first, e.g. numpy.rint(weights)"
        )
    return data.astype(_np.uint32), keep


def _csr_entries(indptr: _np.ndarray, indices: _np.ndarray) -> tuple[_np.ndarray, _np.ndarray]:
    """The row and the column of each entry of a CSR, as int64."""
    rows = _np.repeat(_np.arange(indptr.size - 1, dtype=_np.int64), _np.diff(indptr))
    return rows, _np.asarray(indices, dtype=_np.int64)


class CustomizableIndex:
    """The weight-independent part of a contraction hierarchy of one graph's
    arcs (a customizable contraction hierarchy, the file of ``host
    preprocess --customizable``), built once; then ``customize(weights)``
    makes a ``ContractionIndex`` of any integer weights of those arcs (live
    travel times, another vehicle's), far faster than building one.

    ``CustomizableIndex(csgraph, directed=True)`` builds it from the pattern
    of ``csgraph`` (its stored entries; the weights play no part), a matrix
    ``ContractionIndex`` takes; ``CustomizableIndex.load(path, csgraph,
    directed=True)`` reads a file written by ``save`` or by ``host preprocess
    --customizable`` and checks that it takes the arcs of ``csgraph``, whose
    pattern ``customize`` then uses.

    Customizations from several threads are safe; they run without the GIL.
    """

    def __init__(self, csgraph, directed: bool = True):
        self._set_pattern(csgraph, directed)
        self._native = _native.Customizable.open(self._indptr32, self._indices32, not self._directed)
        self.device = None

    def _set_pattern(self, csgraph, directed: bool) -> None:
        # Every stored entry, parallel ones too (which weights of them count
        # is decided per customization, by scipy's rules for its dtype).
        if _sp.issparse(csgraph):
            csr = csgraph if csgraph.format == "csr" else csgraph.tocsr()
            if csr.ndim != 2 or csr.shape[0] != csr.shape[1]:
                raise ValueError(f"compressed-sparse graph must be shape (N, N), not {csr.shape}")
        else:
            csr = _as_csr(csgraph)
        n = csr.shape[0]
        if n >= _U32_MAX or csr.indices.size > _U32_MAX:
            raise ValueError("graphs need fewer than 2**32 - 1 vertices and 2**32 edges")
        self.n = n
        self._directed = bool(directed)
        # Copies: the caller may change the matrix later.
        self._indptr = _np.array(csr.indptr)
        self._indices = _np.array(csr.indices)
        self._indptr32 = _as_u32_index(self._indptr, "offsets")
        self._indices32 = _as_u32_index(self._indices, "indices")
        self._keys = None

    @classmethod
    def load(cls, path, csgraph, directed: bool = True) -> "CustomizableIndex":
        index = cls.__new__(cls)
        index._set_pattern(csgraph, directed)
        index._native = _native.Customizable.open(index._indptr32, index._indices32, not index._directed, str(path))
        index.device = None
        return index

    def save(self, path) -> None:
        """Writes the ``.cch`` file (``host customize`` reads it too)."""
        self._native.save(str(path))

    @property
    def directed(self) -> bool:
        return self._directed

    @property
    def nnz(self) -> int:
        """Entries of the matrix's pattern: the length of a 1-D ``weights``."""
        return int(self._indices.size)

    @property
    def levels(self) -> int:
        return self._native.levels

    @property
    def arcs(self) -> int:
        """Arcs of the hierarchy (each pair of vertices once, fill-in included)."""
        return self._native.arcs

    @property
    def triangles(self) -> int:
        """Triangles the customization goes through."""
        return self._native.triangles

    def customize(self, weights, device: str = "auto") -> ContractionIndex:
        """A ``ContractionIndex`` of new weights of this pattern, equal in every
        distance to one that ``ContractionIndex`` builds from the re-weighted
        matrix.

        ``weights``: a 1-D array of ``nnz`` values aligned with the matrix's
        ``.data`` (the CSR form of the matrix given; ``M.data`` for a CSR
        ``M``): the index of ``csr_matrix((weights, M.indices, M.indptr))``;
        or a matrix (scipy's rules, as ``dijkstra``) whose entries are
        entries of the pattern (a subset of them is fine). Weights are
        integers ``0 ... 2**32 - 1``, of an integer or a float dtype; an
        ``inf`` closes its arc. A wrong length, shape or an entry outside the
        pattern raises ``ValueError``.

        ``device``: ``"auto"`` (the first GPU if there is one, else the
        CPU), ``"gpu"``, ``"gpu:N"`` or ``"cpu"``; on a GPU the hierarchy's
        triangles are uploaded at the first customization and kept for the
        next ones on that device. ``device`` afterwards says where the last
        customization ran."""
        indptr, indices, words = self._weight_arrays(weights)
        native, device = self._native.customize(
            _solver(device)._native, indptr, indices, words, not self._directed
        )
        self.device = device
        return ContractionIndex(None, _native_index=native)

    def _weight_arrays(self, weights) -> tuple[_np.ndarray, _np.ndarray, _np.ndarray]:
        """The CSR arrays of ``weights`` (``customize``'s) as uint32."""
        n = self.n
        if _sp.issparse(weights) or _np.ndim(weights) == 2:
            shape = weights.shape if _sp.issparse(weights) else _np.shape(weights)
            if tuple(shape) != (n, n):
                raise ValueError(f"weights of shape {tuple(shape)} for a graph of {n} vertices: ({n}, {n}) is needed")
            csr = _as_csr(weights)
            check = True
        else:
            data = _np.asarray(weights)
            if data.ndim != 1:
                raise ValueError(f"weights must be a 1-D array of {self.nnz} values or a matrix, not of shape {data.shape}")
            if data.shape[0] != self.nnz:
                raise ValueError(
                    f"{data.shape[0]} weights for a pattern of {self.nnz} entries: one per entry of the matrix's data"
                )
            csr = _sp.csr_matrix((data, self._indices, self._indptr), shape=(n, n))
            csr = _as_csr(csr)
            check = False
        words, keep = _integer_words(_np.asarray(csr.data))
        indptr, indices = csr.indptr, csr.indices
        if keep is not None:
            indptr, indices = _kept(indptr, indices, keep)
        if check:
            self._check_pattern(indptr, indices)
        return _as_u32_index(indptr, "offsets"), _as_u32_index(indices, "indices"), words

    def _pattern_keys(self) -> _np.ndarray:
        """The pattern's entries ``(u, v)`` as sorted keys ``u * n + v`` (both
        ways when undirected), made at the first matrix of weights."""
        if self._keys is None:
            rows, cols = _csr_entries(self._indptr, self._indices)
            keys = rows * self.n + cols
            if not self._directed:
                keys = _np.concatenate((keys, cols * self.n + rows))
            self._keys = _np.unique(keys)
        return self._keys

    def _check_pattern(self, indptr: _np.ndarray, indices: _np.ndarray) -> None:
        rows, cols = _csr_entries(indptr, indices)
        outside = ~_np.isin(rows * self.n + cols, self._pattern_keys())
        if outside.any():
            e = int(_np.flatnonzero(outside)[0])
            raise ValueError(
                f"the weights have an entry ({rows[e]}, {cols[e]}) that is not in the index's pattern "
                f"({int(outside.sum())} such entries): customize takes the same pattern or a subset of it"
            )

    def __repr__(self) -> str:
        kind = "directed" if self._directed else "undirected"
        return f"sssp_gpu.CustomizableIndex(n={self.n}, {kind}, nnz={self.nnz}, levels={self.levels})"
