cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?") &
mkdir -p g
time python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
time python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
wait
nvidia-smi --query-gpu=name --format=csv,noheader
for G in del200k del1m g3d50 g3d100; do
  for A in partition partition-paged; do for S in never always auto; do
    echo "== $G $A $S"
    timeout 60 dist/host --graph g/$G.csr --source 0 --algo $A --shortcuts $S --runs 10 --warmup 2 --verify 2>&1 | grep -E "^(layout|prepare|solve|verified|error|algorithm)" | head -6
  done; done
  echo "== $G near-far"; timeout 60 dist/host --graph g/$G.csr --source 0 --algo near-far --runs 10 --warmup 2 --verify 2>&1 | grep -E "^(solve|verified|error)" | head -4
done
export OMP_NUM_THREADS=16
time (timeout 240 dist/host bench --preset real --graphs g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr --algos auto,partition,near-far \
    --gapbs gapbs/sssp --reps 10 --out $OUT/mesh -q; echo "bench exit $?")
sed -n '/^| graph/,$p' $OUT/mesh/summary.md; uptime
