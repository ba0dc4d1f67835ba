# Call 4 (H100): h_q = 50b1af8, h_c = compact pieces in paged mode (350a632 before the bucket queue).
cd "$(dirname "$0")"
mkdir -p g
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
./h_q gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
./h_q gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
G=g/del1m.csr,g/grid1000.csr,g/g3d100.csr,g/grid2048.csr
for h in q c; do
  timeout 200 ./h_$h bench --preset real --graphs $G --algos auto --reps 10 --out $OUT/$h -q > $OUT/$h.log 2>&1
done
