# Session 22 call 5 (on 2a6fd7b+): entry-gain refinement (SSSP_REFINE=e), joined slack 1/8 and 1/2 (SSSP_SLACK), chain queues of 16 (h_cs16) against the base.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr > /dev/null; python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr > /dev/null
./h_x gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
P=g/del1m.csr,g/grid1000.csr,g/g3d100.csr
b() { # label binary graphs env...
  l=$1; h=$2; G=$3; shift 3
  env "$@" timeout 250 ./$h bench --preset real --graphs $G --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $l" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$8,$9}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|[0-9]+ pieces of at most [0-9]+|of [0-9]+ threads|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do
  b base$r h_x $R X=0
  b refine_e$r h_x $R SSSP_REFINE=e
  b slack8_$r h_x $R SSSP_SLACK=8
  b slack2_$r h_x $R SSSP_SLACK=2
  b cs16_$r h_cs16 $R X=0
done
for r in 1 2; do
  b pbase$r h_x $P X=0
  b pcs16_$r h_cs16 $P X=0
done
rm -rf $OUT/ab $OUT/ab.log
cat $S
