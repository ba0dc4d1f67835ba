# Session 18 call 3: phase counters (throw-away build h_phase = 2d2307a + phase.patch) on resident graphs; memcheck; full GPU suite on 2d2307a.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf dist.tgz
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
dist/host gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr > /dev/null
for gr in g/del200k.csr g/g3d50.csr g/road-BAY-pace.gr g/USA-road-d.NY.gr g/road-luxembourg-osm.gr; do
  timeout 60 ./h_phase --graph $gr --algo auto --runs 1 --warmup 0 > $OUT/phase-$(basename $gr).out 2> $OUT/phase-$(basename $gr).err
  echo "== $gr"; grep -E "layout|solve " $OUT/phase-$(basename $gr).out; grep STATS $OUT/phase-$(basename $gr).err | tail -8
done
timeout 60 ./h_phase --graph g/del200k.csr --algo auto --source 100000 --runs 1 --warmup 0 > $OUT/phase-del200k-mid.out 2> $OUT/phase-del200k-mid.err
echo "== del200k source 100000"; grep -E "solve " $OUT/phase-del200k-mid.out; grep STATS $OUT/phase-del200k-mid.err | tail -8
M="compute-sanitizer --tool memcheck"
timeout 60 $M dist/host --graph rome99.gr --algo partition --runs 1 --warmup 0 --verify > $OUT/memcheck-rome99.log 2>&1; echo "memcheck rome99 $?"; grep -E "ERROR SUMMARY|verified" $OUT/memcheck-rome99.log
timeout 60 $M dist/host --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/memcheck-grid40.log 2>&1; echo "memcheck grid40 $?"; grep -E "ERROR SUMMARY|verified" $OUT/memcheck-grid40.log
timeout 400 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
