# Session 22 call 7: e57bebd: Kronecker and uniform 2^21 and the papers' 11·2^20 graph, every candidate, GAPBS in the same run.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
rm -rf gapbs-built; cp -r devrun/gapbs gapbs-built; make -C gapbs-built -j16 sssp converter > $OUT/gapbs-make.log 2>&1; echo "gapbs built: $?"
mkdir -p g
(gapbs-built/converter -g 21 -k 16 -w -e g/kron21.wel > /dev/null && dist/host convert g/kron21.wel g/kron21.csr -q && rm g/kron21.wel) &
(gapbs-built/converter -u 21 -k 16 -w -e g/uniform21.wel > /dev/null && dist/host convert g/uniform21.wel g/uniform21.csr -q && rm g/uniform21.wel) &
dist/host gen -n 11Mi --seed 11 --output g/papers11.csr > /dev/null
wait; ls -la g | grep -E "kron|uniform|papers"
cut -d. -f1 /proc/uptime
export OMP_NUM_THREADS=16
for G in kron21 uniform21 papers11; do
  timeout 170 dist/host bench --preset real --graphs g/$G.csr --algos auto,partition,near-far,fast,fast-crauser \
     --gapbs gapbs-built/sssp --gapbs-trials 3 --reps 10 --out $OUT/big-$G -q > $OUT/big-$G.log 2>&1; echo "$G bench exit $?"
  grep "^| $G" $OUT/big-$G/summary.md
  grep -E "^- $G.*auto" $OUT/big-$G.log | cut -c1-600
  cut -d. -f1 /proc/uptime
done
