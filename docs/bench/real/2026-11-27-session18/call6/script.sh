# Session 18 call 6: frontier groups ranked warp by warp (h_rank = 2d2307a + rank.patch; h_phase2 = it + phase counters) against 2d2307a (dist/host, h_phase).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
true
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
./h_v4base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S=$OUT/summary.txt
run() { # binary, label, graph, args...
  b=$1; l=$2; gr=$3; shift 3
  timeout 60 ./$b --graph $gr --algo partition --runs 5 --warmup 1 "$@" > $OUT/x.out 2> $OUT/x.err
  echo "== $b $l: $* $(grep -E '^solve ' $OUT/x.out | cut -c14-40)" >> $S
  grep STATS $OUT/x.err | tail -8 | grep -E "worked|all:" >> $S; grep STATS $OUT/x.err | tail -7 | head -1 | cut -c1-300 >> $S
}
export SSSP_GROWTH=compact SSSP_LANES=8
for d in 2000 4000 8000; do for b in h_phase h_phase2; do run $b n-$d g/del200k.csr --delta $d --shortcuts never; done; done
for b in h_phase h_phase2; do run $b s-34000 g/del200k.csr --delta 34000 --shortcuts always; done
unset SSSP_GROWTH SSSP_LANES
rm -f $OUT/x.out $OUT/x.err
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr,g/grid1000.csr
for r in 1 2; do for b in ./h_v4base ./h_rank; do
  timeout 100 $b bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $b $r" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$6,$8}' >> $S
  grep -E "^- " $OUT/ab.log | grep -oE "^- [^,]*, auto|window [0-9]+|[0-9]+ edge lanes|compact pieces|no shortcuts|[0-9]+ shortcuts" | tr '\n' ' ' >> $S; echo >> $S
done; done
rm -rf $OUT/ab $OUT/ab.log
cat $S
