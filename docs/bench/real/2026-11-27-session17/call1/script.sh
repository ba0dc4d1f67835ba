# Call 1 (H100): h_base = 1b722a6; h_send3/6/12 = call1-send-lists.patch with CHAIN_HOPS 3/6/12.
cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr
python3 mesh_graphs.py delaunay 1000000 2 g/del1m.csr
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr
./h_base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/del200k.csr,g/del1m.csr,g/g3d50.csr,g/grid1000.csr
for h in base send3 send6 send12; do
  timeout 170 ./h_$h bench --preset real --graphs $G --algos auto,partition --reps 10 --out $OUT/$h -q > $OUT/$h.log 2>&1
done
