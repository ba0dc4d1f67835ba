# Call 6 (H100, commit 350a632; the machine of call 5, up 5 minutes at the start).
cd "$(dirname "$0")"
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1) &
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
dist/host gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
wait
timeout 100 dist/host bench --preset real --graphs g/grid2048.csr --algos auto,partition --reps 10 --out $OUT/grid2048 -q > $OUT/grid2048.log 2>&1
export OMP_NUM_THREADS=16
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr
timeout 330 dist/host bench --preset real --graphs $G --algos auto,partition,near-far --gapbs gapbs/sssp --reps 10 --out $OUT/real -q > $OUT/real.log 2>&1
