cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
mkdir -p g
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
run() { echo "== $*"; timeout 60 dist/host --source 0 --runs 10 --warmup 2 --verify "$@" 2>&1 | grep -E "^(layout|solve|verified|error)" | sed 's/(GPU, CUDA events; median of 10 runs after 2 warm-up,/(/' | head -4; }
for G in del200k del1m; do
  for S in never always; do for D in "" 2000 4000 8000 16000 32000 64000; do
    run --graph g/$G.csr --algo partition --shortcuts $S ${D:+--delta $D}
  done; done
done
for S in never always; do for D in "" 100 200 400 800 1600; do run --graph g/g3d50.csr --algo partition --shortcuts $S ${D:+--delta $D}; done; done
for D in "" 25 50 100 200; do run --graph g/g3d50.csr --algo near-far ${D:+--delta $D}; done
