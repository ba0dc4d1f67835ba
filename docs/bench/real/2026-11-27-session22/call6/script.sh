# Session 22 call 6: e57bebd (blocks of 256/384/768 in auto's trial): the full GPU suite, racecheck and memcheck in every block size, then the final bench --preset real with GAPBS in the same run.
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
timeout 300 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
wait
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
for t in 256 384 768; do
  timeout 40 $S dist/host --graph devrun/graphs/rome99.gr --algo partition --block-threads $t --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99-$t.log 2>&1; echo "rome99 $t $?"
  timeout 40 $S dist/host --graph g/grid40.csr --algo partition-paged --block-threads $t --runs 1 --warmup 0 --verify > $OUT/race-grid40-paged-$t.log 2>&1; echo "grid40 $t $?"
done
for t in 384 768; do
  timeout 100 $S dist/host --graph g/del20k.csr --algo partition --block-threads $t --runs 1 --warmup 0 --verify > $OUT/race-del20k-$t.log 2>&1; echo "del20k $t $?"
  timeout 40 compute-sanitizer --tool memcheck dist/host --graph g/del20k.csr --algo partition --block-threads $t --runs 1 --warmup 0 --verify > $OUT/memcheck-del20k-$t.log 2>&1; echo "memcheck $t $?"
done
for f in $OUT/race-*.log $OUT/memcheck-*.log; do echo "== $(basename $f)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|verified|^layout" $f | cut -c1-300; done
gzip $OUT/suite.log
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done; cut -d. -f1 /proc/uptime
OMP_NUM_THREADS=16 timeout 300 dist/host bench --preset real --graphs g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr --algos auto,partition,near-far --gapbs gapbs-built/sssp --reps 10 --out $OUT/real -q > $OUT/real.log 2>&1; echo "bench exit $?"
grep -E "^\| " $OUT/real.log | head -60
cut -d. -f1 /proc/uptime
