cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
H=variants/host
for w in 1000; do [ -f g/grid$w.csr ] || $H gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
exec > >(tee $OUT/sc4.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source $4 --algo $3 --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(solve|verified|error|layout)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/layout.*pieces/pieces/' | tr '\n' ' ' | cut -c1-300)"; }
SSSP_SHORTCUTS=0 t "grid plain" g/grid1000.csr partition 0
SSSP_SHORTCUTS=paged t "grid paged sc" g/grid1000.csr partition 0
SSSP_SHORTCUTS=paged SSSP_SHORTCUT_WINDOW=2 t "grid paged sc x2" g/grid1000.csr partition 0
for G in USA-road-d.NY road-BAY-pace road-luxembourg-osm; do
SSSP_SHORTCUTS=0 t "$G paged plain" g/$G.gr partition-paged 1
SSSP_SHORTCUTS=paged t "$G paged sc" g/$G.gr partition-paged 1
done
