cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
exec > >(tee $OUT/aug1.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
H=variants/host
t() { echo "$1 $2 | $(timeout 60 $H --graph $3 --source $4 --algo $2 --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(algorithm|solve|verified|error|layout|partition)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/algorithm *//' | tr '\n' ' ' | cut -c1-300)"; }
for a in "road-luxembourg-osm 290" "USA-road-d.NY 668" "road-BAY-pace 812"; do
  set -- $a; G=$1; mkdir -p st/$G
  SSSP_STUDY_PRUNE=1 variants/overlay_study g/$G.gr $2 1 st/$G
  S=$($H --graph st/$G/augmented.csr --algo delta-cpu --device cpu 2>&1 | awk '/^vertices/ {print $2 - 1}')
  for r in 1 2; do
    t "$G full" partition g/$G.gr 1
    t "$G aug" partition st/$G/augmented.csr $S
    t "$G aug" near-far st/$G/augmented.csr $S
  done
done
