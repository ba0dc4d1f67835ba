# Session 18 call 7: per-vertex-relaxation cycles (h_phase3 = 2d2307a + rank + phase counters + relax_vertex timing).
cd "$(dirname "$0")/.."
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
[ -f g/del200k.csr ] || python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
[ -f g/g3d50.csr ] || python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
run() { # label, graph, args...
  l=$1; gr=$2; shift 2
  timeout 60 ./h_phase3 --graph $gr --algo partition --runs 5 --warmup 1 "$@" > $OUT/x.out 2> $OUT/x.err
  echo "== $l: $* $(grep -E '^solve ' $OUT/x.out | cut -c14-40)" >> $S
  grep STATS $OUT/x.err | tail -12 | grep -E "worked|all:|vertex" >> $S; grep STATS $OUT/x.err | tail -11 | head -1 | cut -c1-300 >> $S
}
export SSSP_GROWTH=compact SSSP_LANES=8
run del-n-2000 g/del200k.csr --delta 2000 --shortcuts never
run del-n-4000 g/del200k.csr --delta 4000 --shortcuts never
run del-s-34000 g/del200k.csr --delta 34000 --shortcuts always
run g3d g/g3d50.csr --delta 51 --shortcuts never
export SSSP_LANES=4
run ny g/USA-road-d.NY.gr --delta 290023 --shortcuts always
run lux g/road-luxembourg-osm.gr --delta 9173 --shortcuts always
unset SSSP_GROWTH
run bay g/road-BAY-pace.gr --delta 10237 --shortcuts always
rm -f $OUT/x.out $OUT/x.err
cat $S
