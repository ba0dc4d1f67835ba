# Session 22 call 10: b499e73 (review; PTX of e57bebd): the full GPU suite.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
dist/host ptx | md5sum
timeout 420 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
grep -E "^== |test result" $OUT/suite.log | paste - - | awk '{print $2, $6, $8}' | column -t
gzip $OUT/suite.log
