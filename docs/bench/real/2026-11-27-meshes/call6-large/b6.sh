cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
[ -x gapbs/sssp ] || (make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?")
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g
(gapbs/converter -g 21 -k 16 -w -e g/kron21.wel > /dev/null && dist/host convert g/kron21.wel g/kron21.csr -q && rm g/kron21.wel) &
(gapbs/converter -u 21 -k 16 -w -e g/uniform21.wel > /dev/null && dist/host convert g/uniform21.wel g/uniform21.csr -q && rm g/uniform21.wel) &
dist/host gen -n 11Mi --seed 11 --output g/papers11.csr > /dev/null
for w in 2048 4096; do dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
wait; ls -la g | grep -E "kron|uniform|papers|grid"
export OMP_NUM_THREADS=16
for G in kron21 uniform21 grid2048 grid4096 papers11; do
  timeout 200 dist/host bench --preset real --graphs g/$G.csr --algos auto,partition,near-far,fast,fast-crauser \
     --gapbs gapbs/sssp --gapbs-trials 3 --reps 10 --out $OUT/big-$G -q; echo "$G bench exit $?"
  grep "^| $G" $OUT/big-$G/summary.md
done
