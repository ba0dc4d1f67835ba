cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?") &
nvidia-smi --query-gpu=name --format=csv,noheader
T=queries_solved_on_several_streams_at_once_match_the_oracle
echo "== new, seed 6339035573104816345"; SSSP_TEST_SEED=6339035573104816345 timeout 80 dist/tests/gpu_solver --include-ignored $T 2>&1 | grep -E "test result|panicked" -A1 | head -3
echo "== old (7d37a88), seed 6339035573104816345"; SSSP_TEST_SEED=6339035573104816345 timeout 80 ./gpu_solver_old --include-ignored $T 2>&1 | grep -E "test result|panicked" -A1 | head -3
for i in 1 2; do echo "== new, lanes stress #$i"; timeout 60 dist/tests/gpu_solver --include-ignored partition_lanes_prepare_while_other_lanes_launch 2>&1 | grep -E "seed|test result|panicked" -A1 | head -4; done
echo "== gpu_partition, gpu_solver (all)"; export SSSP_GRAPHS_DIR=$PWD/dist/graphs
for t in gpu_partition gpu_solver; do timeout 120 dist/tests/$t --include-ignored 2>&1 | grep -E "test result|panicked" -A1; done
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
wait
export OMP_NUM_THREADS=16
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr
time (timeout 300 dist/host bench --preset real --graphs $G --algos auto,partition,near-far,delta-cpu \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q; echo "bench exit $?")
grep "^| " $OUT/real/summary.md; uptime
