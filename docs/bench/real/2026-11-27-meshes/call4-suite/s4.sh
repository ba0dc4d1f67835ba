cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
nvidia-smi --query-gpu=name --format=csv,noheader
time (timeout 330 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?")
grep -E "^test result|FAILED|panicked" $OUT/suite.log | awk '{p+=$4; f+=$6} /FAILED|panicked/{print} END {print "passed", p, "failed", f}'
grep -c "^== " $OUT/suite.log
mkdir -p g; dist/host gen --kind grid --width 40 --height 40 --seed 3 --output g/grid40.csr > /dev/null
time (timeout 90 compute-sanitizer --tool memcheck dist/host --graph dist/graphs/rome99.gr --algo auto --runs 1 --warmup 0 --verify 2>&1 | tail -4)
time (timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard dist/host --graph g/grid40.csr --algo partition-paged --shortcuts always --delta 200 --runs 1 --warmup 0 --verify 2>&1 | tail -6)
