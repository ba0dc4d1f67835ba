# Session 22 call 3: block shapes of the partition kernels at the same registers a thread: 256x3 (base), 384x2, 768x1, 192x4 blocks a multiprocessor.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr > /dev/null; python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr > /dev/null
./h_b256 gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
P=g/del1m.csr,g/grid1000.csr,g/g3d100.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|[0-9]+ pieces of at most [0-9]+|paged on [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops[^)]*\)|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do
  for h in h_b256 h_b384 h_b768 h_b192; do b $h $R res$r; done
done
for r in 1 2; do
  for h in h_b256 h_b384 h_b768 h_b192; do b $h $P paged$r; done
done
cp $OUT/ab.log $OUT/last-ab.log
rm -rf $OUT/ab $OUT/ab.log
cat $S
