# Session 20 call 11 (review): the GPU tests of every binary that runs the partition solver or auto, and racecheck on rome99, after the review's kernel refactor.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
export SSSP_HOST_BIN="$PWD/dist/host" SSSP_GRAPHS_DIR="$PWD/dist/graphs"
for t in gpu_partition partition_cpu gpu_solver gpu_f32 gpu_parents gpu ptx; do
  echo "== $t"; timeout 120 dist/tests/$t --include-ignored 2>&1 | grep -E "^test result|FAILED|panicked" 
done
timeout 40 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000 dist/host --graph graphs/rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99.log 2>&1; echo "rome99 $?"
grep -E "RACECHECK SUMMARY|verified|^layout" $OUT/race-rome99.log | cut -c1-300
