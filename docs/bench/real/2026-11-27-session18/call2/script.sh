# Session 18 call 2: racecheck of the communication-side atomics (v4: generic atom, v4s: atom.shared), A/B against HEAD c28efd2.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
(python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr; python3 mesh_graphs.py delaunay 20000 3 g/del20k.csr) > $OUT/gen.log 2>&1 &
./h_base gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr > /dev/null
./h_base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
for h in v4 v4s; do
timeout 100 $S ./h_$h --graph rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-$h-rome99.log 2>&1; echo "$h rome99 exit $?"
timeout 100 $S ./h_$h --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/race-$h-grid40-paged.log 2>&1; echo "$h grid40 exit $?"
done
timeout 100 $S ./h_v4s --graph rome99.gr --algo partition --target 2000 --runs 1 --warmup 0 --verify > $OUT/race-v4s-rome99-target.log 2>&1; echo "target exit $?"
wait
timeout 200 $S ./h_v4s --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/race-v4s-del20k.log 2>&1; echo "del20k exit $?"
for f in $OUT/race-*.log; do echo "== $f"; grep -E "RACECHECK SUMMARY|verified|ERROR SUMMARY|resident|paged" $f | tail -4; grep -oE "(RAW|WAR|WAW) hazard detected at __shared__ 0x[0-9a-f]+" $f | sort | uniq -c | sort -rn | head -6; done
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr,g/grid1000.csr
for r in 1 2; do for b in base v4s v4; do
  timeout 100 ./h_$b bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/ab-$b-$r -q > $OUT/ab-$b-$r.log 2>&1
  echo "== $b $r"; grep -E "^\| [a-zA-Z]" $OUT/ab-$b-$r.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$6,$8}'
done; done
rm -rf $OUT/ab-*/
