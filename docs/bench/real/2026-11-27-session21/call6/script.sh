# Session 21 call 6: do busy pieces far beyond the front slow it down? A throttle (experiment): block 0 keeps the front (lowest published piece minimum); a piece whose lowest is above front + B windows sleeps 100 ns << C before each round's post. SSSP_THROTTLE=B,C.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
for bc in 1,3 2,3 4,3 1,5 2,5 8,3 1,1; do n=t${bc/,/_}; printf "%s\n" "#!/bin/sh" "SSSP_THROTTLE=$bc exec \"\$(dirname \"\$0\")/h_thr\" \"\$@\"" > h_$n; chmod +x h_$n; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
}
for r in 1 2; do
  for h in h_thr h_t1_3 h_t2_3 h_t4_3 h_t1_5 h_t2_5 h_t8_3 h_t1_1; do b $h $R res$r; done
done
rm -rf $OUT/ab $OUT/ab.log
cat $S
