# Session 22 call 8: e57bebd: the 2048² and 4096² grids, auto, partition and near-far, GAPBS in the same run.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
rm -rf gapbs-built; cp -r devrun/gapbs gapbs-built; make -C gapbs-built -j16 sssp > $OUT/gapbs-make.log 2>&1; echo "gapbs built: $?"
mkdir -p g
for w in 2048 4096; do dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
cut -d. -f1 /proc/uptime
export OMP_NUM_THREADS=16
for G in grid2048 grid4096; do
  timeout 250 dist/host bench --preset real --graphs g/$G.csr --algos auto,partition,near-far \
     --gapbs gapbs-built/sssp --gapbs-trials 3 --reps 10 --out $OUT/big-$G -q > $OUT/big-$G.log 2>&1; echo "$G bench exit $?"
  grep "^| $G" $OUT/big-$G/summary.md
  grep -E "^- $G.*auto" $OUT/big-$G.log | cut -c1-600
  grep -E "^- $G.*\(partition\)" $OUT/big-$G.log | cut -c1-700
  cut -d. -f1 /proc/uptime
done
