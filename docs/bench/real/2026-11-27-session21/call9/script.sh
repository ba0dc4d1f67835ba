# Session 21 call 9: the full GPU suite, racecheck and memcheck on 6e99da8 (32-bit relax loop, non-returning inside minima, one minimum atomic per thread and phase); GAPBS and graphs built for call 10.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
mkdir -p g; for f in devrun/*.gr.gz; do b=$(basename $f .gz); [ -f g/$b ] || zcat $f > g/$b; done
(python3 devrun/mesh_graphs.py delaunay 20000 3 g/del20k.csr
 dist/host gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr) > $OUT/gen.log 2>&1
(make -C devrun/gapbs -j8 sssp > $OUT/gapbs-make.log 2>&1; rm -rf gapbs-built; cp -r devrun/gapbs gapbs-built
 python3 devrun/mesh_graphs.py delaunay 200000 1 g/del200k.csr; python3 devrun/mesh_graphs.py delaunay 1000000 2 g/del1m.csr
 python3 devrun/mesh_graphs.py grid3d 50 1 g/g3d50.csr; python3 devrun/mesh_graphs.py grid3d 100 2 g/g3d100.csr
 dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr) > $OUT/gen2.log 2>&1 &
timeout 330 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
wait
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
timeout 40 $S dist/host --graph devrun/graphs/rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99.log 2>&1; echo "rome99 $?"
timeout 40 $S dist/host --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/race-grid40-paged.log 2>&1; echo "grid40 $?"
timeout 100 $S dist/host --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/race-del20k.log 2>&1; echo "del20k $?"
timeout 40 compute-sanitizer --tool memcheck dist/host --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/memcheck-del20k.log 2>&1; echo "memcheck $?"
for f in $OUT/race-*.log $OUT/memcheck-*.log; do echo "== $(basename $f)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|verified|^layout" $f | cut -c1-400; done
gzip $OUT/suite.log
cut -d. -f1 /proc/uptime
