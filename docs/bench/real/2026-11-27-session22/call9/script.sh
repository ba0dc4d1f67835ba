# Session 22 call 9: the final build (PTX of e57bebd): the Delaunay 200 k mesh and NY again, auto and GAPBS in the same run, three times.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
zcat h_final.gz > h_final; chmod +x h_final
rm -rf gapbs-built; cp -r gapbs gapbs-built; make -C gapbs-built -j16 sssp > $OUT/gapbs-make.log 2>&1; echo "gapbs built: $?"
mkdir -p g; zcat USA-road-d.NY.gr.gz > g/USA-road-d.NY.gr
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done; cut -d. -f1 /proc/uptime
export OMP_NUM_THREADS=16
for r in 1 2 3; do
  timeout 150 ./h_final bench --preset real --graphs g/del200k.csr,g/USA-road-d.NY.gr --algos auto --gapbs gapbs-built/sssp --reps 10 --out $OUT/r$r -q > $OUT/r$r.log 2>&1; echo "round $r exit $?"
  grep -E "^\| [a-zA-Z]" $OUT/r$r.log | grep -v "graph |"
  grep -E "^- .*auto \(" $OUT/r$r.log | cut -c1-260
done
