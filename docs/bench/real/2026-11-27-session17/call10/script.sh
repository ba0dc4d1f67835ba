cd "$(dirname "$0")"
uptime
rm -rf dist; tar xzf dmin.tgz
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/del1m.csr,g/g3d50.csr
cp dist/host h_min
for r in 1 2; do for h in base min; do
  timeout 100 ./h_$h bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/$h$r -q > $OUT/$h$r.log 2>&1; echo "$h$r exit $?"
  grep "^| " $OUT/$h$r/summary.md | cut -d'|' -f2,5,6,7,8 | tail -n +2 | tr '\n' ';'; echo
done; done
export SSSP_HOST_BIN="$PWD/dist/host" SSSP_GRAPHS_DIR="$PWD/dist/graphs"
for t in gpu_partition gpu_solver; do timeout 120 dist/tests/$t --include-ignored > $OUT/$t.log 2>&1; echo "$t exit $?"; grep "test result" $OUT/$t.log; done
