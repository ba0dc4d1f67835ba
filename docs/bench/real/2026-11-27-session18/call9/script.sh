# Session 18 call 9: full GPU suite on 9cd906d; graphs and GAPBS built for call 10.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j8 sssp converter > $OUT/gapbs-make.log 2>&1
 mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
 python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr; python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
 python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr; python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
 dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr
 dist/host gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr) > $OUT/gen.log 2>&1 &
timeout 420 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
wait; tail -3 $OUT/gen.log; ls g; cut -d. -f1 /proc/uptime
