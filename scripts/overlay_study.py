"""Design study for issue #20 (docs/PERFORMANCE.md, 2026-11-27, thirteenth session): an overlay
of the partition solver's pieces, as in multi-level Dijkstra / customizable route planning.

    python3 scripts/overlay_study.py GRAPH.gr CAPACITY      # source: the file's vertex 1

Pieces of CAPACITY vertices grown breadth-first as host/src/partition.rs grows them (one
region); overlay nodes are the vertices an arc enters a piece by (entries) or leaves it by
(exits); overlay arcs are the cut arcs and, per piece, entry -> exit arcs weighted by the
piece-local shortest distance (a Dijkstra restricted to the piece from every entry). A query is
a local Dijkstra in the source's piece, a Dijkstra on the overlay seeded with its exits, and a
local Dijkstra in every piece seeded with its entries. The script prints the overlay's size,
the work of building it, and the hop depths that bound a round-based GPU solve: the graph's
shortest-path tree, the overlay's, and the deepest piece interior (fewest hops among shortest
paths); and checks every distance against a plain Dijkstra. Pure Python: minutes per graph."""
import sys, heapq, collections, time
from array import array

def load_gr(path):
    n = 0; src = []; dst = []; w = []
    with open(path) as f:
        for line in f:
            if line[0] == 'a':
                _, u, v, c = line.split(); src.append(int(u)-1); dst.append(int(v)-1); w.append(int(c))
            elif line[0] == 'p':
                n = int(line.split()[2])
    order = sorted(range(len(src)), key=lambda e: src[e])
    off = [0]*(n+1)
    for e in src: off[e+1] += 1
    for i in range(n): off[i+1] += off[i]
    tgt = [dst[e] for e in order]; wt = [w[e] for e in order]
    return n, off, tgt, wt

def bfs_pieces(n, off, tgt, cap):
    """Like the project's grower (host/src/partition.rs, one region): a piece grows breadth-first
    over edges of either direction until it holds `cap` vertices; when its search runs dry it goes
    on from an unassigned neighbour of its last search, else the next unassigned id, so every piece
    but the last is full."""
    adj = [[] for _ in range(n)]
    for u in range(n):
        for e in range(off[u], off[u+1]):
            v = tgt[e]; adj[u].append(v); adj[v].append(u)
    piece = [-1]*n; p = 0; size = 0; next_id = 0
    q = collections.deque(); last = []
    assigned = 0
    while assigned < n:
        if not q:
            seed = next((v for u in last for v in adj[u] if piece[v] == -1), None)
            if seed is None:
                while piece[next_id] != -1: next_id += 1
                seed = next_id
            piece[seed] = p; size += 1; assigned += 1; q.append(seed); last = [seed]
            if size == cap: p += 1; size = 0; q.clear()
            continue
        u = q.popleft(); last.append(u)
        if len(last) > 64: last = last[-64:]
        for v in adj[u]:
            if piece[v] == -1:
                piece[v] = p; size += 1; assigned += 1; q.append(v)
                if size == cap:
                    p += 1; size = 0; q.clear(); break
    return piece, p + (1 if size else 0)

def dijkstra(n, off, tgt, wt, sources, allowed=None):
    dist = {}; hops = {}
    h = []
    for s, d0, h0 in sources:
        if d0 < dist.get(s, float('inf')) or (d0 == dist.get(s) and h0 < hops[s]):
            dist[s] = d0; hops[s] = h0; heapq.heappush(h, (d0, h0, s))
    done = set()
    while h:
        d, hp, u = heapq.heappop(h)
        if u in done: continue
        done.add(u)
        for e in range(off[u], off[u+1]):
            v = tgt[e]
            if allowed is not None and not allowed(v): continue
            nd = d + wt[e]
            if nd < dist.get(v, float('inf')) or (nd == dist[v] and hp+1 < hops[v]):
                dist[v] = nd; hops[v] = hp+1; heapq.heappush(h, (nd, hp+1, v))
    return dist, hops

def main(path, cap, source=0):
    t0 = time.time()
    n, off, tgt, wt = load_gr(path)
    piece, P = bfs_pieces(n, off, tgt, cap)
    entry = [False]*n; exit_ = [False]*n; cut = 0
    for u in range(n):
        for e in range(off[u], off[u+1]):
            v = tgt[e]
            if piece[u] != piece[v]:
                exit_[u] = True; entry[v] = True; cut += 1
    members = collections.defaultdict(list)
    for v in range(n): members[piece[v]].append(v)
    # clique edges entry -> exit within the piece (shortest local paths) and their local hop counts
    ov = collections.defaultdict(list)  # overlay adjacency: u -> [(v, w)]
    clique = 0; work = 0
    for p_, vs in members.items():
        exits = [v for v in vs if exit_[v]]
        for s in vs:
            if not entry[s]: continue
            d, _ = dijkstra(n, off, tgt, wt, [(s, 0, 0)], allowed=lambda v, p_=p_: piece[v] == p_)
            work += len(d)
            for x in exits:
                if x != s and x in d:
                    ov[s].append((x, d[x])); clique += 1
    for u in range(n):
        if exit_[u]:
            for e in range(off[u], off[u+1]):
                v = tgt[e]
                if piece[u] != piece[v]: ov[u].append((v, wt[e]))
    nodes = sum(1 for v in range(n) if entry[v] or exit_[v])
    t1 = time.time()
    # query: local Dijkstra in the source's piece, then the overlay, then the interiors
    ps = piece[source]
    d0, _ = dijkstra(n, off, tgt, wt, [(source, 0, 0)], allowed=lambda v: piece[v] == ps)
    seeds = [(x, d0[x], 0) for x in d0 if exit_[x]] + [(source, 0, 0)]
    # overlay Dijkstra, counting overlay hops (tie: fewer hops)
    dist = {}; hops = {}; h = []
    for s, d, hp in seeds:
        dist[s] = d; hops[s] = hp; heapq.heappush(h, (d, hp, s))
    done = set()
    while h:
        d, hp, u = heapq.heappop(h)
        if u in done: continue
        done.add(u)
        for v, c in ov.get(u, []):
            nd = d + c
            if nd < dist.get(v, float('inf')) or (nd == dist[v] and hp+1 < hops[v]):
                dist[v] = nd; hops[v] = hp+1; heapq.heappush(h, (nd, hp+1, v))
    ov_depth = max(hops.values())
    # interior fill per piece from its entries (and the source)
    final = {}; fill_depth = 0
    for p_, vs in members.items():
        sd = [(v, dist[v], 0) for v in vs if entry[v] and v in dist]
        if p_ == ps: sd.append((source, 0, 0))
        if not sd: continue
        d, hp = dijkstra(n, off, tgt, wt, sd, allowed=lambda v, p_=p_: piece[v] == p_)
        final.update(d); fill_depth = max(fill_depth, max(hp.values()))
    ref, rhops = dijkstra(n, off, tgt, wt, [(source, 0, 0)])
    ok = all(final.get(v) == ref[v] for v in ref) and len(final) == len(ref)
    t2 = time.time()
    print(f"{path.split('/')[-1]} cap {cap}: n {n} m {len(tgt)} pieces {P} cut arcs {cut} overlay nodes {nodes} "
          f"clique edges {clique} (+{cut} cut) prep work {work} | depth: graph {max(rhops.values())} overlay {ov_depth} "
          f"interior fill {fill_depth} | correct {ok} | prep {t1-t0:.1f}s query {t2-t1:.1f}s")

if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]))
