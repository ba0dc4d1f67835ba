# Call 5 (H100, commit 350a632): the full GPU suite.
cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
time dist/run-tests.sh > $OUT/suite.log 2>&1
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR" binaries"}'
