# Session 20 call 8: larger resident pieces with entries first (measuring build of 5ccd726 with SSSP_RCAP_F = factor on the resident capacity);
# then the 2048² and 4096² grids, a981c77 (h_old) against 5ccd726 (h_new).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
for x in 1.5 2; do printf "%s\n" "#!/bin/sh" "SSSP_RCAP_F=$x exec \"\$(dirname \"\$0\")/h_stats\" \"\$@\"" > h_rc$x; chmod +x h_rc$x; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|[0-9]+ pieces|paged on [0-9]+|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops|entries (not )?first|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do for h in h_stats h_rc1.5 h_rc2; do b $h $R res$r; done; done
rm -rf $OUT/ab $OUT/ab.log
cat $S
./h_new gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
./h_new gen --kind grid --width 4096 --height 4096 --seed 1 --output g/grid4096.csr > /dev/null
G=$OUT/grids.txt
for r in 1 2; do for g in grid2048 grid4096; do for b in h_old h_new; do
  v=""; [ $r = 1 ] && v=--verify
  timeout 100 ./$b --graph g/$g.csr --source 0 --algo auto --runs 10 --warmup 2 $v > $OUT/x.out 2>&1
  echo "$r $g $b $(grep -E '^solve ' $OUT/x.out | cut -c14-40) $(grep -cE '^verified' $OUT/x.out)v $(grep -E '^layout' $OUT/x.out | grep -oE 'at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|no shortcuts|[0-9]+ shortcuts|chains of [0-9]+ hops|entries (not )?first' | tr '\n' ' ')" >> $G
done; done; done
rm -f $OUT/x.out; cat $G
