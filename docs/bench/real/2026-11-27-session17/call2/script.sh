cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
./h_base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/grid1000.csr
for h in base bps2 send_bps2; do
  timeout 170 ./h_$h bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/$h -q > $OUT/$h.log 2>&1; echo "$h exit $?"
  grep "^| " $OUT/$h/summary.md | cut -d'|' -f2,5,6,7,8 | tail -n +2
done
timeout 120 ncu --kernel-name regex:partition_solve --launch-skip 14 --launch-count 1 --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy -o $OUT/prof ./h_base --graph g/del200k.csr --algo partition --source 0 --runs 20 > $OUT/ncu.log 2>&1; echo "ncu exit $?"; tail -5 $OUT/ncu.log
ncu -i $OUT/prof.ncu-rep --page details > $OUT/details.txt 2>&1; grep -iE "stall|warp cycles|issued|Registers|Theoretical" $OUT/details.txt | head -30
ncu -i $OUT/prof.ncu-rep --page source --csv --print-source sass > $OUT/sass.csv 2>&1; echo "sass rows $(wc -l < $OUT/sass.csv)"; head -c 600 $OUT/sass.csv
