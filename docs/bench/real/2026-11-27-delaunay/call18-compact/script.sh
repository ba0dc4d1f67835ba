cd "$(dirname "$0")"
uptime
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?") &
time dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6} END {print "passed",p,"failed",f, NR" binaries"}'
grep -E "FAILED|panicked" -A3 $OUT/suite.log | head -20
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
wait
export OMP_NUM_THREADS=16
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done; uptime
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/del200k.csr,g/g3d50.csr
time (timeout 300 dist/host bench --preset real --graphs $G --algos auto,partition,near-far \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q > $OUT/real.log 2>&1; echo "bench exit $?")
grep "^| " $OUT/real/summary.md; grep "auto is" $OUT/real/summary.md; uptime
