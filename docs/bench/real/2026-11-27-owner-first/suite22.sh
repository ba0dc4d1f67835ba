cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git -C .. log --oneline -1 2>/dev/null
time (dist/run-tests.sh > $OUT/suite.txt 2>&1; echo "suite exit $?")
grep -E "test result|FAILED|failed|passed" $OUT/suite.txt | tail -8
