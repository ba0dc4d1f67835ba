cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
uptime
echo "== GPU tests: dist/run-tests.sh"
start=$(date +%s); timeout 420 dist/run-tests.sh > $OUT/tests.log 2>&1; echo "tests exit $? in $(( $(date +%s) - start )) s"
grep -E "^test result" $OUT/tests.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed", p, "failed", f, "ignored", i, "binaries", NR}'
grep -E "FAILED|panicked" $OUT/tests.log | head -20
uptime
export OMP_NUM_THREADS=16
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr
for rep in 1 2; do
  timeout 200 dist/host bench --preset real --graphs $G --algos delta-cpu --gapbs gapbs/sssp --reps 10 --out $OUT/dcpu$rep -q; echo "bench $rep exit $?"
  sed -n '/^| graph/,/^$/p' $OUT/dcpu$rep/summary.md
done
uptime
