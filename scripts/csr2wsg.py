# Converts a g.csr file (u32 weights) to GAPBS's serialized weighted graph
# (.wsg), so that GAPBS's sssp reads a large graph in seconds instead of
# parsing an edge list: `python3 scripts/csr2wsg.py g.csr g.wsg`, then
# `sssp -f g.wsg -r 0 -d DELTA`. The file is marked undirected, so GAPBS reads
# one CSR, the file's arcs as they are, which is all its sssp walks (no
# inverse graph). Needs numpy.
import sys, numpy as np
src, dst = sys.argv[1], sys.argv[2]
h = np.fromfile(src, dtype=np.uint8, count=40)
assert bytes(h[:8]) == b"SSSPCSR\0"
n = int(np.frombuffer(h[24:32].tobytes(), np.uint64)[0]); m = int(np.frombuffer(h[32:40].tobytes(), np.uint64)[0])
a = np.memmap(src, dtype=np.uint32, mode="r", offset=40, shape=(n + 1 + 2 * m,))
off = a[: n + 1].astype(np.int64); tgt = a[n + 1 : n + 1 + m]; w = a[n + 1 + m :]
pairs = np.empty((m, 2), dtype=np.int32); pairs[:, 0] = tgt; pairs[:, 1] = w
with open(dst, "wb") as f:
    f.write(np.uint8(0).tobytes()); f.write(np.int64(m).tobytes()); f.write(np.int64(n).tobytes())
    f.write(off.tobytes()); f.write(pairs.tobytes())
print(f"{dst}: n {n} m {m}")
