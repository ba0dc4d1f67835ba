cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
H=variants/host
exec > >(tee $OUT/sc2.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source 1 --algo partition --runs 10 --warmup 2 --verify $3 2>&1 | grep -E '^(solve|verified|error)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' | tr '\n' ' ' | cut -c1-300)"; }
for d in 403 1600 3316 6400 13000 26000; do
  SSSP_SHORTCUTS=0 t "lux plain $d" g/road-luxembourg-osm.gr "--delta $d"
  t "lux shortcuts $d" g/road-luxembourg-osm.gr "--delta $d"
done
for d in 403 1600 3200; do SSSP_SHORTCUTS=0 t "BAY plain $d" g/road-BAY-pace.gr "--delta $d"; done
for d in 10346 40000 80000; do SSSP_SHORTCUTS=0 t "NY plain $d" g/USA-road-d.NY.gr "--delta $d"; done
