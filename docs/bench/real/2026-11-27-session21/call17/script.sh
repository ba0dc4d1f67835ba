# Session 21 call 17: the full GPU suite again on 7c094db + the streams' leak check at 64 MiB.
cd "$(dirname "$0")/../.."
rm -rf dist; tar xzf devrun/dist.tgz
timeout 330 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked|free device" $OUT/suite.log | head
gzip $OUT/suite.log
