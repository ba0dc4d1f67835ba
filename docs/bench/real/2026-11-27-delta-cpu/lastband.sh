cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
run() { echo "$1 $2 $3 | $(timeout 60 $1 --graph g/$2 --algo near-far --runs 10 --warmup 2 --verify $3 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed 's/(GPU, CUDA events; //; s/median of 10 runs after 2 warm-up, //; s/ min [0-9.]*, max [0-9.]*)//; s/verified: all [0-9]* distances equal the oracle.s/ok/; s/iterations */it /; s/solve */med /' | tr '\n' ' ')"; }
for rep in 1 2; do
for H in variants/host-old dist/host; do
  for a in "" "--limit 100" "--limit 200" "--limit 300" "--target 5000"; do run $H soc-Epinions1.gr "$a"; done
  for a in "" "--limit 350000" "--limit 700000" "--target 5000"; do run $H USA-road-d.NY.gr "$a"; done
  for a in "" "--limit 12000"; do run $H road-luxembourg-osm.gr "$a"; done
done
done
echo "== GPU tests: dist/run-tests.sh"
start=$(date +%s); timeout 420 dist/run-tests.sh > $OUT/tests.log 2>&1; echo "tests exit $? in $(( $(date +%s) - start )) s"
grep -E "^test result" $OUT/tests.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed", p, "failed", f, "ignored", i, "binaries", NR}'
grep -E "FAILED|panicked" $OUT/tests.log | head -20
