cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?")
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g
(gapbs/converter -g 21 -k 16 -w -e g/kron21.wel > /dev/null && dist/host convert g/kron21.wel g/kron21.csr -q && rm g/kron21.wel) &
(gapbs/converter -u 21 -k 16 -w -e g/uniform21.wel > /dev/null && dist/host convert g/uniform21.wel g/uniform21.csr -q && rm g/uniform21.wel) &
dist/host gen -n 11Mi --seed 11 --output g/papers11.csr > /dev/null
for w in 2048 4096; do dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
python3 mesh_graphs.py delaunay 20000 3 g/del20k.csr > /dev/null
wait
export OMP_NUM_THREADS=16
for G in grid2048 grid4096; do
  timeout 170 dist/host bench --preset real --graphs g/$G.csr --algos auto,partition,near-far \
     --gapbs gapbs/sssp --gapbs-trials 3 --reps 10 --out $OUT/big-$G -q > $OUT/big-$G.log 2>&1; echo "$G bench exit $?"
  grep "^| $G" $OUT/big-$G/summary.md
done
for G in kron21 uniform21 papers11; do
  timeout 100 dist/host bench --preset real --graphs g/$G.csr --algos auto \
     --gapbs gapbs/sssp --gapbs-trials 3 --reps 10 --out $OUT/big-$G -q > $OUT/big-$G.log 2>&1; echo "$G bench exit $?"
  grep "^| $G" $OUT/big-$G/summary.md
done
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard dist/host --graph g/del20k.csr --algo partition --delta 4000 --verify > $OUT/racecheck.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|verified" $OUT/racecheck.log
