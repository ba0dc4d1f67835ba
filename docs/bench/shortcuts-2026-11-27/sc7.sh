cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
H=dist/host
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for w in 300 1000 2048; do [ -f g/grid$w.csr ] || $H gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
exec > >(tee $OUT/sc7.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source $3 --algo $4 --runs 10 --warmup 2 --verify $5 2>&1 | grep -E '^(solve|verified|error|layout|prepare)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/layout.*pieces/pieces/' -e 's/(upload.*needed)//' | tr '\n' ' ' | cut -c1-330)"; }
for r in 1 2; do
  t "grid300 default" g/grid300.csr 0 partition ""
  t "grid300 never" g/grid300.csr 0 partition "--shortcuts never"
done
t "grid1000 default" g/grid1000.csr 0 partition ""
t "grid2048 default" g/grid2048.csr 0 partition ""
for G in USA-road-d.NY road-BAY-pace road-luxembourg-osm; do t "$G paged default" g/$G.gr 1 partition-paged ""; done
SSSP_GRAPHS_DIR=$PWD/dist/graphs SSSP_HOST_BIN=$PWD/dist/host dist/tests/gpu_partition --include-ignored 2>&1 | grep -E "^test |test result|panicked" 
