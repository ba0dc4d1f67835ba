cd "$(dirname "$0")"
uptime
rm -rf dist; tar xzf dist.tgz
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?") &
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
python3 mesh_graphs.py grid3d 100 2 g/g3d100.csr
dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
wait
export OMP_NUM_THREADS=16
# The machine's first minutes slow the CPU side (docs/PERFORMANCE.md, eleventh session): wait them out.
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done; uptime
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/g3d100.csr
time (timeout 420 dist/host bench --preset real --graphs $G --algos auto,partition,near-far,delta-cpu \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q > $OUT/real.log 2>&1; echo "bench exit $?")
grep "^| " $OUT/real/summary.md; uptime
