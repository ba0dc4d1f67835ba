# Session 18 call 5: the window sweep of call 4 again (its output was cut), one summary file.
cd "$(dirname "$0")/.."
mkdir -p g
[ -f g/del200k.csr ] || python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
S=$OUT/summary.txt
run() { # label, graph, args...
  l=$1; gr=$2; shift 2
  timeout 60 ./h_phase --graph $gr --algo partition --runs 5 --warmup 1 "$@" > $OUT/x.out 2> $OUT/x.err
  echo "== $l: $* $(grep -E '^solve ' $OUT/x.out | cut -c14-40) $(grep -oE '[0-9]+ shortcuts|no shortcuts' $OUT/x.out)" >> $S
  grep STATS $OUT/x.err | tail -8 | grep -E "worked|all:" >> $S; grep STATS $OUT/x.err | tail -7 | head -2 | cut -c1-260 >> $S
}
export SSSP_GROWTH=compact SSSP_LANES=8
for d in 4000 8000 17000 34000 68000; do run c-s-$d g/del200k.csr --delta $d --shortcuts always; done
for d in 2000 4000 8000; do run c-n-$d g/del200k.csr --delta $d --shortcuts never; done
rm -f $OUT/x.out $OUT/x.err
cat $S
