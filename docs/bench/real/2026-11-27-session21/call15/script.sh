# Session 21 call 15: 7c094db (borders refined): the full GPU suite, racecheck and memcheck, then the final bench --preset real with GAPBS in the same run and the 2048² and 4096² grids.
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
[ -x dist/host ] || { rm -rf dist; tar xzf devrun/dist.tgz; }
[ -x gapbs-built/sssp ] || { make -C devrun/gapbs -j8 sssp > $OUT/gapbs-make.log 2>&1; rm -rf gapbs-built; cp -r devrun/gapbs gapbs-built; }
mkdir -p g; for f in devrun/*.gr.gz; do b=$(basename $f .gz); [ -f g/$b ] || zcat $f > g/$b; done
[ -f g/del200k.csr ] || python3 devrun/mesh_graphs.py delaunay 200000 1 g/del200k.csr
[ -f g/del1m.csr ] || python3 devrun/mesh_graphs.py delaunay 1000000 2 g/del1m.csr
[ -f g/g3d50.csr ] || python3 devrun/mesh_graphs.py grid3d 50 1 g/g3d50.csr
[ -f g/g3d100.csr ] || python3 devrun/mesh_graphs.py grid3d 100 2 g/g3d100.csr
[ -f g/grid1000.csr ] || dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done; cut -d. -f1 /proc/uptime
OMP_NUM_THREADS=16 timeout 400 dist/host bench --preset real --graphs g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr --algos auto,partition,near-far --gapbs gapbs-built/sssp --reps 10 --out $OUT/real -q > $OUT/real.log 2>&1; echo "bench exit $?"
grep -E "^\| " $OUT/real.log | head -60
cut -d. -f1 /proc/uptime
for w in 2048 4096; do
  timeout 120 dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null 2>&1
  timeout 150 dist/host --graph g/grid$w.csr --algo auto --runs 5 --warmup 1 > $OUT/grid$w.log 2>&1; echo "grid$w $?"; grep -E "^(layout|solve)" $OUT/grid$w.log | cut -c1-300
  rm -f g/grid$w.csr
done
