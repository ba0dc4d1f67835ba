cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
H=variants/host
for w in 1000 2048; do [ -f g/grid$w.csr ] || $H gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
exec > >(tee $OUT/sc1.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source $3 --algo partition --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(solve|verified|error|layout)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' | tr '\n' ' ' | cut -c1-300)"; }
for r in 1 2; do
for a in "road-luxembourg-osm.gr 1" "USA-road-d.NY.gr 1" "road-BAY-pace.gr 1" "grid1000.csr 0" "grid2048.csr 0"; do
  set -- $a
  SSSP_SHORTCUTS=0 t "$1 plain" g/$1 $2
  t "$1 shortcuts" g/$1 $2
done; done
