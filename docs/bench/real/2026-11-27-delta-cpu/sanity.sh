cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for G in road-BAY-pace road-luxembourg-osm USA-road-d.NY soc-Epinions1; do
  echo "$G | $(timeout 60 dist/host --graph g/$G.gr --algo auto --runs 5 --warmup 1 --verify 2>&1 | grep -E '^(auto|solve|verified|error)' | tr '\n' ' ')"
done
echo "== GPU tests named auto"
start=$(date +%s); timeout 150 dist/run-tests.sh auto > $OUT/tests.log 2>&1; echo "tests exit $? in $(( $(date +%s) - start )) s"
grep -E "^test result" $OUT/tests.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed", p, "failed", f, "filtered binaries", NR}'
grep -E "FAILED|panicked" $OUT/tests.log | head
