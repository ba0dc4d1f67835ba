# Session 21 call 14: resident pieces' borders refined after the join (h_ref; SSSP_NO_REFINE=1: h_ref0, the same binary without), three interleaved rounds on the resident graphs.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
printf "%s\n" "#!/bin/sh" "SSSP_NO_REFINE=1 exec \"\$(dirname \"\$0\")/h_ref\" \"\$@\"" > h_ref0; chmod +x h_ref0
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops|entries (not )?first|compact pieces|no shortcuts|[0-9]+ shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2 3; do
  for h in h_ref0 h_ref; do b $h $R res$r; done
done
rm -rf $OUT/ab $OUT/ab.log
cat $S
