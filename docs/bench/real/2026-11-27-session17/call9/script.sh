cd "$(dirname "$0")"
uptime
rm -rf dist; tar xzf dist.tgz
export SSSP_HOST_BIN="$PWD/dist/host" SSSP_GRAPHS_DIR="$PWD/dist/graphs"
for t in gpu_partition gpu_solver; do dist/tests/$t --include-ignored > $OUT/$t.log 2>&1; echo "$t exit $?"; grep "test result" $OUT/$t.log; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
dist/host gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
G=g/road-BAY-pace.gr,g/USA-road-d.NY.gr,g/grid1000.csr,g/del1m.csr,g/g3d100.csr,g/grid2048.csr
timeout 200 dist/host bench --preset real --graphs $G --algos auto --reps 10 --out $OUT/auto -q > $OUT/auto.log 2>&1; echo "bench exit $?"
grep "^| " $OUT/auto/summary.md | cut -d'|' -f2,5,6,7,8,9
for G in grid2048 del1m; do dist/host --graph g/$G.csr 2>&1 | grep -iE "^auto|^prepare" | cut -c1-900; done
