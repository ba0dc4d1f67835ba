# Session 21 call 12: the select phase reserves frontier slots a warp at a time (h_sel, a ballot and one atomic a warp) against 6e99da8 (h_c21); three interleaved rounds.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr > /dev/null; python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr > /dev/null
./h_c21 gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
P=g/del1m.csr,g/grid1000.csr,g/g3d100.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|paged on [0-9]+|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops[^)]*\)|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2 3; do
  for h in h_c21 h_sel; do b $h $R res$r; done
  for h in h_c21 h_sel; do b $h $P paged$r; done
done
cp $OUT/ab.log $OUT/last-ab.log
rm -rf $OUT/ab $OUT/ab.log
cat $S
