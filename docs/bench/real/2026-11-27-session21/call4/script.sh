# Session 21 call 4: where a busy piece's round goes (v1u + phase clocks, SSSP_STATS).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
S=$OUT/stats.txt
r() { # label args
  echo "== $*" >> $S
  SSSP_STATS=1 timeout 120 ./h_stats "$@" --runs 3 --warmup 1 > $OUT/o.log 2> $OUT/e.log
  grep -E "median|time|ms" $OUT/o.log | head -5 >> $S
  grep STATS $OUT/e.log | tail -15 >> $S
}
r --graph g/del200k.csr --algo partition --source 0
r --graph g/del200k.csr --algo partition --source 0 --delta 17030
r --graph g/del200k.csr --algo partition --source 0 --delta 68120
r --graph g/del200k.csr --algo partition
r --graph g/USA-road-d.NY.gr --algo partition
r --graph g/road-BAY-pace.gr --algo partition
cat $S
