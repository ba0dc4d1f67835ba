"""Many sources over a Dask cluster: one worker per GPU, on one node or many.

``DistributedIndex(client, index, csgraph)`` sends the graph and its
contraction hierarchy to every worker once (a worker plugin, which a worker
that joins later gets too; or only paths that every worker can read); each
worker process builds the index once and
keeps it (a module-level cache keyed by a token) for every task that follows.
Sources then run in batches, one task each, and the trees are reduced where
they are computed: ``within`` and ``accessibility`` send back two numbers per
source, ``nearest`` merges the batches' minima on the workers, and
``trees_into`` has each batch write its own rows of a memory-mapped file.

The module-level functions (``accessibility``, ``within``, ``nearest``,
``trees_into``) make a ``DistributedIndex`` for one call; for several calls on
one graph, make one ``DistributedIndex`` and call its methods.

Every task is idempotent: a batch computes the same numbers, and writes the
same bytes into the same rows, however often it runs. Dask runs the tasks of
a worker that dies again elsewhere (results it held included), so no batch
and no row is lost; ``retries`` reruns a task that raised.

Needs ``dask[distributed]`` (``pip install 'sssp-gpu[dask]'``). Deployment,
batch sizes and what scales: docs/PYTHON.md, "Many sources on several GPUs and
machines".
"""

from __future__ import annotations

import collections
import math
import mmap
import os
import tempfile
import threading
import time
import uuid

import numpy as np
import scipy.sparse as sp

import sssp_gpu

try:
    import dask.array as da
    from dask import delayed
    from distributed import WorkerPlugin, wait
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("sssp_gpu.dask needs dask's distributed scheduler: pip install 'sssp-gpu[dask]'") from error

del annotations

__all__ = ["DistributedIndex", "accessibility", "within", "nearest", "trees_into", "default_batch"]

#: Vertex and arc visits in a task's trees from the index: about 0.7 s of
#: them on an H200 (a tree of a road network costs ~3.5 µs per million
#: vertices and arcs). Set when each task's call also uploaded the index and
#: set up its batches, about 80 ms on a road graph of 1.17 M vertices
#: (measured: ten calls of 1,317 sources 1.13 s, one of 13,170 sources
#: 0.36 s), so that a task of 100 ms of trees spent most of its time on
#: that. A worker's ``ContractionIndex`` now keeps that state on its GPU
#: from one task to the next: only its first task pays it.
INDEX_VISITS_PER_BATCH = 2 * 10**11
#: The same for one-source Dijkstra solves on a ``Graph`` (~40x a tree).
GRAPH_VISITS_PER_BATCH = 25 * 10**7
#: Batches per worker thread at least, so that a slow or lost worker's share
#: is spread over the others.
BATCHES_PER_WORKER = 4
#: Rows of float64 per chunk where a ``Graph`` computes whole rows (128 MiB).
_CHUNK_WORDS = 1 << 24


def default_batch(n: int, arcs: int, sources: int, workers: int, index: bool = True) -> int:
    """Sources per task: with an index about 0.7 s of trees on a GPU (a tree
    visits every vertex and arc, ``n + arcs``; a worker's first task also
    sets up the index there, tens of ms), without one about 100 ms of
    solves; but at
    most ``sources / (4 * workers)`` so that every worker gets several
    batches; at least 1."""
    per_batch = INDEX_VISITS_PER_BATCH if index else GRAPH_VISITS_PER_BATCH
    by_time = math.ceil(per_batch / max(1, n + arcs))
    by_spread = math.ceil(sources / (BATCHES_PER_WORKER * max(1, workers)))
    return max(1, min(by_time, by_spread))


# --- on the workers -----------------------------------------------------------

_KEEP = 4  # indexes a worker process keeps built (the least recently used go first)
_specs: dict = {}  # token -> what to build the index from (set by _Ship)
_cache: collections.OrderedDict = collections.OrderedDict()  # token -> _Built
_cache_lock = threading.Lock()


class _Ship(WorkerPlugin):
    """Gives every worker, present and future (a restarted one included), the
    graph and the index of ``token``, sent once; tasks build from it when
    they first need it."""

    def __init__(self, token: str, spec: dict):
        self.name = token
        self.spec = spec

    def setup(self, worker=None):
        _specs[self.name] = self.spec

    def teardown(self, worker=None):
        _specs.pop(self.name, None)
        with _cache_lock:
            _cache.pop(self.name, None)


class _Built:
    """A worker's index (or graph), its graph's arcs, and a lock: one task
    uses it at a time. On a GPU the index keeps its state there (down arcs,
    a batch's buffers) from one task to the next; dropping it (``close``,
    or a fifth index on the worker) frees them."""

    def __init__(self, solver, arcs: int, device: str):
        self.solver = solver
        self.arcs = arcs
        self.device = device
        self.lock = threading.Lock()


def _build(spec: dict) -> _Built:
    graph = spec["graph"]
    if isinstance(graph, str):
        graph = sssp_gpu.load(graph)
    arcs = int(graph.nnz) if sp.issparse(graph) else int(np.count_nonzero(graph))
    return _Built(_solver(spec, graph), arcs, spec["device"])


def _solver(spec: dict, graph):
    index = spec["index"]
    if index is None:
        return sssp_gpu.Graph(graph, directed=spec["directed"], device=spec["device"])
    if isinstance(index, str):
        return sssp_gpu.ContractionIndex.load(index, graph, directed=spec["directed"])
    fd, path = tempfile.mkstemp(suffix=".ch")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(index)
        return sssp_gpu.ContractionIndex.load(path, graph, directed=spec["directed"])
    finally:
        os.unlink(path)


def _built(token: str) -> _Built:
    """This process's index of ``token``, built the first time."""
    with _cache_lock:
        built = _cache.get(token)
        if built is None:
            spec = _specs.get(token)
            if spec is None:
                raise RuntimeError(f"no index {token} on this worker: its DistributedIndex was closed")
            built = _cache[token] = _build(spec)
            while len(_cache) > _KEEP:
                _cache.popitem(last=False)
        else:
            _cache.move_to_end(token)
        return built


def _describe(token: str):
    """Vertices, arcs (with shortcuts) and whether it is an index."""
    built = _built(token)
    if isinstance(built.solver, sssp_gpu.ContractionIndex):
        return built.solver.n, built.arcs + built.solver.shortcuts, True
    return built.solver.n, built.arcs, False


def _same(values):
    return values


def _graph_rows(graph, sources):
    """Whole rows of a ``Graph`` in chunks that fit in memory: (start, rows)."""
    step = max(1, _CHUNK_WORDS // max(1, graph.n))
    for lo in range(0, len(sources), step):
        yield lo, graph.dijkstra(indices=sources[lo : lo + step])


def _within_task(token, sources, limit, values):
    built = _built(token)
    with built.lock:
        solver = built.solver
        if isinstance(solver, sssp_gpu.ContractionIndex):
            return solver.within(sources, limit, values, device=built.device)
        counts = np.zeros(len(sources), dtype=np.int64)
        sums = np.zeros(len(sources), dtype=np.float64)
        for lo, rows in _graph_rows(solver, sources):
            inside = np.isfinite(rows) & (rows <= limit)
            counts[lo : lo + len(rows)] = inside.sum(axis=1)
            if values is not None:
                sums[lo : lo + len(rows)] = np.where(inside, values, 0.0).sum(axis=1)
        return counts, sums


def _merge_nearest(first, second):
    """Two batches' nearest sources by vertex, ``first``'s sources listed
    before ``second``'s: the smaller distance, on ties ``first``'s."""
    take = second[0] < first[0]
    return np.where(take, second[0], first[0]), np.where(take, second[1], first[1])


def _nearest_task(token, sources, start):
    """Per vertex the distance from the nearest of ``sources`` and its
    position in the whole list (``start`` + its first place here; -1: none)."""
    built = _built(token)
    with built.lock:
        solver = built.solver
        if isinstance(solver, sssp_gpu.ContractionIndex):
            dist, vertex = solver.nearest(sources, device=built.device)
            unique, first = np.unique(sources, return_index=True)
            reached = vertex >= 0
            place = np.full(vertex.shape, -1, dtype=np.int64)
            place[reached] = start + first[np.searchsorted(unique, vertex[reached])]
            return dist, place
        best = None
        for lo, rows in _graph_rows(solver, sources):
            row = rows.argmin(axis=0)
            dist = rows[row, np.arange(rows.shape[1])]
            chunk = (dist, np.where(np.isfinite(dist), start + lo + row, -1))
            best = chunk if best is None else _merge_nearest(best, chunk)
        return best


def _trees_task(token, sources, start, target):
    """Writes the trees of ``sources`` into rows ``start...`` of the float64
    memmap ``target`` (file name, offset, shape)."""
    built = _built(token)
    filename, offset, shape = target
    out = np.memmap(filename, dtype=np.float64, mode="r+", offset=offset, shape=shape)
    rows = out[start : start + len(sources)]
    with built.lock:
        solver = built.solver
        if isinstance(solver, sssp_gpu.ContractionIndex):
            solver.trees(sources, device=built.device, out=rows)
        else:
            for lo, chunk in _graph_rows(solver, sources):
                rows[lo : lo + len(chunk)] = chunk
    rows.flush()
    del rows, out
    return len(sources)


def _trees_rows(token, sources):
    built = _built(token)
    with built.lock:
        solver = built.solver
        if isinstance(solver, sssp_gpu.ContractionIndex):
            return solver.trees(sources, device=built.device)
        return np.concatenate([rows for _, rows in _graph_rows(solver, sources)])


# --- on the client --------------------------------------------------------------


def _graph_spec(csgraph):
    if isinstance(csgraph, (str, os.PathLike)):
        return os.fspath(csgraph)
    if csgraph is None:
        raise ValueError("csgraph is needed: the graph (a matrix, or a graph file every worker can read)")
    return csgraph


def _index_spec(index):
    if index is None or isinstance(index, (str, os.PathLike)):
        return None if index is None else os.fspath(index)
    if not isinstance(index, sssp_gpu.ContractionIndex):
        raise ValueError(
            f"index must be a ContractionIndex, a path to an index file or None, not {type(index).__name__}"
        )
    fd, path = tempfile.mkstemp(suffix=".ch")
    os.close(fd)
    try:
        index.save(path)
        with open(path, "rb") as file:
            return file.read()
    finally:
        os.unlink(path)


def _target(out, shape):
    """``out`` (a path or a whole ``numpy.memmap``) as the memmap to return
    and where its rows lie: (file name, offset, shape)."""
    if isinstance(out, np.memmap):
        if out.dtype != np.float64 or out.shape != shape or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"out must be a writable C-contiguous float64 memmap of shape {shape}")
        if out._mmap is None or out.filename is None or out.mode == "c":
            raise ValueError("out must be a numpy.memmap of a file opened r+ or w+ (not a slice or a copy of one)")
        start = np.frombuffer(out._mmap, dtype=np.uint8).ctypes.data
        if out.ctypes.data - start != out.offset % mmap.ALLOCATIONGRANULARITY:
            raise ValueError("out must be a numpy.memmap as opened, not a slice of one")
        out.flush()
        return out, (out.filename, out.offset, shape)
    if not isinstance(out, (str, os.PathLike)):
        raise ValueError(f"out must be a path or a numpy.memmap, not {type(out).__name__}")
    path = os.path.abspath(os.fspath(out))
    if os.path.exists(path):
        memmap = np.load(path, mmap_mode="r+")
        if memmap.dtype != np.float64 or memmap.shape != shape or not memmap.flags.c_contiguous:
            raise ValueError(f"{path} holds a {memmap.dtype} array of shape {memmap.shape}, not float64 {shape}")
    else:
        memmap = np.lib.format.open_memmap(path, mode="w+", dtype=np.float64, shape=shape)
    memmap.flush()
    return memmap, (path, memmap.offset, shape)


class DistributedIndex:
    """A contraction hierarchy (or a graph) on every worker of ``client``.

    ``index``: a ``ContractionIndex`` (saved and sent to every worker once),
    a path to an index file that every worker can read (``save``'s or
    ``host preprocess``'s; only the path is sent), or ``None`` (no index: the
    workers solve one-source Dijkstra on a ``sssp_gpu.Graph``, for graphs
    that are not road networks). ``csgraph``: the graph it was built from (a
    matrix, sent once, or a graph file every worker can read, read with
    ``sssp_gpu.load``). ``device``: each worker's device (``"auto"``: its
    first visible GPU, else its CPU). ``retries``: reruns of a task that
    raised. ``close()`` (or ``with``) drops it from the workers.
    """

    def __init__(self, client, index, csgraph, directed: bool = True, device: str = "auto", retries: int = 2):
        self.client = client
        self.retries = int(retries)
        self.token = f"sssp-{uuid.uuid4().hex}"
        spec = {
            "graph": _graph_spec(csgraph),
            "index": _index_spec(index),
            "directed": bool(directed),
            "device": device,
        }
        # A worker plugin, not scattered data: a worker that joins later (one
        # restarted after a crash) gets it too, and no data is lost with a worker.
        register = getattr(client, "register_plugin", None) or client.register_worker_plugin
        register(_Ship(self.token, spec))
        self.open = True
        try:
            self.n, self.arcs, self.is_index = client.submit(_describe, self.token, pure=False).result()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Drops the index and the graph from the workers."""
        if self.open:
            self.open = False
            self.client.unregister_worker_plugin(self.token)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _workers(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def _batches(self, sources, batch):
        if batch is None:
            batch = default_batch(self.n, self.arcs, len(sources), self._workers(), self.is_index)
        elif isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or batch < 1:
            raise ValueError(f"batch must be a positive int, not {batch!r}")
        return [(lo, sources[lo : lo + int(batch)]) for lo in range(0, len(sources), int(batch))]

    def _submit(self, name, function, *args):
        if not self.open:
            raise ValueError("this DistributedIndex is closed")
        return self.client.submit(function, self.token, *args, key=name, retries=self.retries, pure=False)

    def _sources(self, sources):
        return sssp_gpu._sources(sources, self.n).ravel()

    def _values(self, values):
        if values is None:
            return None
        values = np.ascontiguousarray(values, dtype=np.float64).ravel()
        if values.shape[0] != self.n:
            raise ValueError(f"{values.shape[0]} values for a graph of {self.n} vertices: one per vertex is needed")
        # A task (that the scheduler can run again), not scattered data, which
        # would be lost with the last worker holding it.
        return self.client.submit(_same, values, key=f"sssp-values-{uuid.uuid4().hex[:12]}", pure=False)

    def within(self, sources, limit, values=None, batch=None, progress=None, timeout=None):
        """Per source, the vertices within ``limit`` (``inf``: every reached
        one) and the sum of ``values`` over them: ``(counts, sums)``, int64
        and float64 arrays of ``len(sources)``, as ``ContractionIndex.within``.
        ``progress(done, total)`` is called after each batch; ``timeout``
        (seconds) bounds the whole call (``TimeoutError``)."""
        sources = self._sources(sources)
        limit = sssp_gpu._check_limit(limit)
        values = self._values(values)
        call = uuid.uuid4().hex[:12]
        futures = {
            self._submit(f"sssp-within-{call}-{lo}", _within_task, part, limit, values): lo
            for lo, part in self._batches(sources, batch)
        }
        counts = np.zeros(len(sources), dtype=np.int64)
        sums = np.zeros(len(sources), dtype=np.float64)

        def place(future, result):
            lo = futures[future]
            counts[lo : lo + len(result[0])] = result[0]
            sums[lo : lo + len(result[1])] = result[1]

        _collect(futures, place, progress, timeout)
        return counts, sums

    def accessibility(self, limit, values=None, sources=None, batch=None, progress=None, timeout=None):
        """``within`` from every vertex (or from ``sources``): ``(counts, sums)``."""
        return self.within(np.arange(self.n) if sources is None else sources, limit, values, batch, progress, timeout)

    def nearest(self, sources, batch=None, timeout=None):
        """Each vertex's distance from its nearest of ``sources`` and that
        source (``inf`` and -9999 where none), on ties the one listed first,
        as ``ContractionIndex.nearest``. Batches are merged on the workers,
        pairwise in order; one pair of arrays comes back."""
        sources = self._sources(sources)
        if len(sources) == 0:
            return np.full(self.n, np.inf), np.full(self.n, sssp_gpu.NO_PREDECESSOR, dtype=np.int32)
        call = uuid.uuid4().hex[:12]
        level = [
            self._submit(f"sssp-nearest-{call}-{lo}", _nearest_task, part, lo)
            for lo, part in self._batches(sources, batch)
        ]
        depth = 0
        while len(level) > 1:
            depth += 1
            merged = [
                self.client.submit(_merge_nearest, a, b, key=f"sssp-merge-{call}-{depth}-{i}", retries=self.retries)
                for i, (a, b) in enumerate(zip(level[0::2], level[1::2]))
            ]
            level = merged + level[len(merged) * 2 :]
        dist, place = level[0].result(timeout=timeout)
        source = np.full(self.n, sssp_gpu.NO_PREDECESSOR, dtype=np.int32)
        reached = place >= 0
        source[reached] = sources[place[reached]]
        return dist, source

    def trees_into(self, sources, out=None, batch=None, progress=None, timeout=None):
        """The trees of ``sources`` (scipy's ``dijkstra(..., indices=sources)``
        rows, float64, ``inf`` where unreached) written by the workers into
        ``out``: a path to a ``.npy`` file (created if absent) or a
        ``numpy.memmap`` of a file, of shape ``(len(sources), n)``, that every
        worker can open (on several machines: a shared file system). Each
        batch writes its own rows, once per run; returns the memmap. Without
        ``out``: a dask array of the rows, a block per batch, computed when
        asked."""
        sources = self._sources(sources)
        shape = (len(sources), self.n)
        if out is None:
            blocks = [
                da.from_delayed(delayed(_trees_rows, pure=True)(self.token, part), (len(part), self.n), np.float64)
                for _, part in self._batches(sources, batch)
            ]
            return da.concatenate(blocks) if blocks else da.zeros(shape, dtype=np.float64)
        memmap, target = _target(out, shape)
        call = uuid.uuid4().hex[:12]
        futures = {
            self._submit(f"sssp-trees-{call}-{lo}", _trees_task, part, lo, target): lo
            for lo, part in self._batches(sources, batch)
        }
        _collect(futures, lambda future, rows: None, progress, timeout)
        return memmap


def _collect(futures, place, progress, timeout):
    """Waits for every future (lost ones run again), handing each result to
    ``place`` as it arrives; ``timeout`` bounds the whole wait."""
    deadline = None if timeout is None else time.monotonic() + timeout
    pending, done_count = set(futures), 0
    try:
        while pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, pending = wait(pending, timeout=left, return_when="FIRST_COMPLETED")
            for future in done:
                place(future, future.result())
                done_count += 1
                if progress is not None:
                    progress(done_count, len(futures))
    finally:
        for future in pending:
            future.cancel()


def _call(client, index, csgraph, directed, device, method, *args, **kwargs):
    with DistributedIndex(client, index, csgraph, directed=directed, device=device) as spread:
        return getattr(spread, method)(*args, **kwargs)


def accessibility(
    client,
    index,
    csgraph,
    limit,
    values=None,
    sources=None,
    batch=None,
    *,
    directed=True,
    device="auto",
    progress=None,
    timeout=None,
):
    """All-pairs accessibility on the workers of ``client``: ``(counts, sums)``
    for every vertex (or ``sources``). See ``DistributedIndex``."""
    return _call(
        client, index, csgraph, directed, device, "accessibility", limit, values, sources, batch, progress, timeout
    )


def within(
    client,
    index,
    csgraph,
    sources,
    limit,
    values=None,
    batch=None,
    *,
    directed=True,
    device="auto",
    progress=None,
    timeout=None,
):
    """``ContractionIndex.within`` on the workers of ``client``."""
    return _call(client, index, csgraph, directed, device, "within", sources, limit, values, batch, progress, timeout)


def nearest(client, index, csgraph, sources, batch=None, *, directed=True, device="auto", timeout=None):
    """``ContractionIndex.nearest`` on the workers of ``client``."""
    return _call(client, index, csgraph, directed, device, "nearest", sources, batch, timeout)


def trees_into(
    client, index, csgraph, sources, out=None, batch=None, *, directed=True, device="auto", progress=None, timeout=None
):
    """``ContractionIndex.trees`` on the workers of ``client``, written into
    ``out`` (a ``.npy`` path or a ``numpy.memmap``); see
    ``DistributedIndex.trees_into``. Without ``out`` a ``DistributedIndex``
    is needed (its dask array is computed later, while it lives)."""
    if out is None:
        raise ValueError(
            "trees_into needs out (a path or a numpy.memmap); for a dask array use DistributedIndex.trees_into"
        )
    return _call(client, index, csgraph, directed, device, "trees_into", sources, out, batch, progress, timeout)
