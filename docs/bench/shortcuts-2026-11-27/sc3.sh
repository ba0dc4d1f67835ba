cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
H=variants/host
exec > >(tee $OUT/sc3.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source 1 --algo partition --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(solve|verified|error|layout)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/layout.*memory; //' | tr '\n' ' ' | cut -c1-300)"; }
for G in road-luxembourg-osm USA-road-d.NY road-BAY-pace; do
  SSSP_SHORTCUTS=0 t "$G plain" g/$G.gr
  for f in 2 4 8 16; do SSSP_SHORTCUT_WINDOW=$f t "$G shortcuts x$f" g/$G.gr; done
done
