# Session 22 call 1: regrown pieces (Lloyd-like, env SSSP_REGROW) and entry-gain refinement (SSSP_REFINE=e) against the base.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
b() { # label env...
  l=$1; shift
  env "$@" timeout 200 ./h_x bench --preset real --graphs $R --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $l" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops[^)]*\)|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do
  b base X=0
  b regrow4c105 SSSP_REGROW=4 SSSP_REGROW_CAP=1.05
  b regrow1c100 SSSP_REGROW=1 SSSP_REGROW_CAP=1.0
  b refine_e SSSP_REFINE=e
done
cp $OUT/ab.log $OUT/last-ab.log
rm -rf $OUT/ab $OUT/ab.log
cat $S
