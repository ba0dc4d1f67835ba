# Session 18 call 1: racecheck of the hand-over atomics patch, gpu_partition with it, A/B against HEAD c28efd2.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
(python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr; python3 mesh_graphs.py delaunay 20000 3 g/del20k.csr) > $OUT/gen.log 2>&1 &
./h_base gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr > /dev/null
./h_base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
/usr/bin/time -f "%e s" timeout 170 $S ./h_atom --graph rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99.log 2>&1; echo "rome99 exit $?"
/usr/bin/time -f "%e s" timeout 120 $S ./h_atom --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/race-grid40-paged.log 2>&1; echo "grid40 exit $?"
for f in race-rome99 race-grid40-paged; do echo "== $f"; grep -E "RACECHECK SUMMARY|verified|ERROR SUMMARY" $OUT/$f.log | tail -3; grep -oE "(RAW|WAR|WAW) hazard detected at __shared__ 0x[0-9a-f]+" $OUT/$f.log | sort | uniq -c | sort -rn | head -12; done
export SSSP_HOST_BIN=$PWD/h_atom SSSP_GRAPHS_DIR=$PWD/graphs
timeout 120 ./gpu_partition --include-ignored > $OUT/gpu_partition.log 2>&1; echo "gpu_partition exit $?"; grep "test result" $OUT/gpu_partition.log
wait
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr,g/grid1000.csr
for r in 1 2; do for b in base atom; do
  timeout 100 ./h_$b bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/ab-$b-$r -q > $OUT/ab-$b-$r.log 2>&1
  echo "== $b $r"; grep -E "^\| [a-zA-Z]" $OUT/ab-$b-$r.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$6,$8}'
done; done
