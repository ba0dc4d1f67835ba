# Session 21 call 13: how long an edge leaving the piece keeps its lane (the returning atomicMin waited for) against a relax_vertex call (measuring build on 6e99da8, SSSP_STATS=1, auto).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
S=$OUT/stats.txt
r() { # label args
  echo "== $*" >> $S
  SSSP_STATS=1 timeout 120 ./h_stats "$@" --runs 3 --warmup 1 > $OUT/o.log 2> $OUT/e.log
  grep -E "^(layout|solve)" $OUT/o.log | cut -c1-300 >> $S
  grep STATS $OUT/e.log | tail -15 >> $S
}
r --graph g/del200k.csr --algo auto --source 0
r --graph g/USA-road-d.NY.gr --algo auto
r --graph g/road-BAY-pace.gr --algo auto
cat $S
