# Session 18 call 11: racecheck and memcheck on the final kernels (9cd906d: ranked groups + communication-side atomics).
cd "$(dirname "$0")/.."
mkdir -p g
./h_final gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr > /dev/null
python3 mesh_graphs.py delaunay 20000 3 g/del20k.csr > /dev/null
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
timeout 60 $S ./h_final --graph rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99.log 2>&1; echo "rome99 $?"
timeout 60 $S ./h_final --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/race-grid40-paged.log 2>&1; echo "grid40 $?"
timeout 60 $S ./h_final --graph rome99.gr --algo partition --target 2000 --runs 1 --warmup 0 --verify > $OUT/race-rome99-target.log 2>&1; echo "target $?"
timeout 150 $S ./h_final --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/race-del20k.log 2>&1; echo "del20k $?"
timeout 60 compute-sanitizer --tool memcheck ./h_final --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/memcheck-del20k.log 2>&1; echo "memcheck $?"
for f in $OUT/*.log; do echo "== $(basename $f)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|verified|^layout" $f | cut -c1-160; done
