# Session 22 call 2: shortcuts across groups of pieces (SSSP_GROUP_LEVELS=1,2,3) against the base.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
b() { # label env...
  l=$1; shift
  env "$@" timeout 300 ./h_x bench --preset real --graphs $R --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $l" >> $S; grep "group shortcuts" $OUT/ab.log | sort | uniq -c | head -12 >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops[^)]*\)|compact pieces|no shortcuts|[0-9]+ shortcuts added" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do
  b base X=0
  b group1 SSSP_GROUP_LEVELS=1
  b group2 SSSP_GROUP_LEVELS=2
  b group3 SSSP_GROUP_LEVELS=3
done
cp $OUT/ab.log $OUT/last-ab.log
rm -rf $OUT/ab $OUT/ab.log
cat $S
