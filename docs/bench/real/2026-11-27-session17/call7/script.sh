# Call 7 (H100): dist of the trial change's first form (compact variants inherit the window and lanes).
cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
export SSSP_HOST_BIN="$PWD/dist/host" SSSP_GRAPHS_DIR="$PWD/dist/graphs"
dist/tests/gpu_partition --include-ignored > $OUT/gpu_partition.log 2>&1
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
dist/host gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/grid2048.csr
timeout 200 dist/host bench --preset real --graphs $G --algos auto --reps 10 --out $OUT/auto -q > $OUT/auto.log 2>&1
dist/host --graph g/del200k.csr --verify
