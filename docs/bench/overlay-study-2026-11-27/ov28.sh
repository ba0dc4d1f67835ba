cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
exec > >(tee $OUT/ov28.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 $2 | $(timeout 60 dist/host --graph $3 --source $4 --algo $2 --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(algorithm|iterations|solve|verified|error|layout)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/algorithm *//' -e 's/ (.*)$//' | tr '\n' ' ' | cut -c1-230)"; }
for a in "road-luxembourg-osm 290" "USA-road-d.NY 668" "road-BAY-pace 812"; do
  set -- $a; G=$1; mkdir -p st/$G
  variants/overlay_study g/$G.gr $2 1 st/$G
  t "$G full" auto g/$G.gr 1
  for s in piece overlay interior; do
    S=$(dist/host --graph st/$G/$s.csr --algo delta-cpu --device cpu 2>&1 | awk '/^vertices/ {print $2 - 1}')
    for algo in auto near-far partition; do t "$G $s" $algo st/$G/$s.csr $S; done
  done
done
