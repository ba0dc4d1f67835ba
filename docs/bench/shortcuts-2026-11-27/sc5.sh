cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
H=dist/host
exec > >(tee $OUT/sc5.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source $3 --algo $4 --runs 10 --warmup 2 --verify $5 2>&1 | grep -E '^(solve|verified|error|layout|prepare)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/layout.*pieces/pieces/' | tr '\n' ' ' | cut -c1-330)"; }
for r in 1 2; do
for a in "grid1000.csr 0" "grid2048.csr 0"; do set -- $a
  t "$1 resident-default" g/$1 $2 partition ""
  t "$1 always" g/$1 $2 partition "--shortcuts always"
done
for a in "USA-road-d.NY.gr 1" "road-BAY-pace.gr 1" "road-luxembourg-osm.gr 1"; do set -- $a
  t "$1 paged never" g/$1 $2 partition-paged "--shortcuts never"
  t "$1 paged always" g/$1 $2 partition-paged "--shortcuts always"
  t "$1 resident never" g/$1 $2 partition "--shortcuts never"
  t "$1 resident" g/$1 $2 partition ""
done; done
echo "== sanitizers (rome99, u32 and f32)"
for tool in memcheck racecheck synccheck; do for alg in partition partition-paged; do
  echo "$tool $alg: $(compute-sanitizer --tool $tool $H --graph dist/graphs/rome99.gr --algo $alg --shortcuts always --verify 2>&1 | grep -E 'ERROR SUMMARY|verified|RACECHECK SUMMARY|error' | tr '\n' ' ')"
done; done
echo "memcheck f32: $(compute-sanitizer --tool memcheck $H --graph dist/graphs/rome99.gr --weights f32 --algo partition --verify 2>&1 | grep -E 'ERROR SUMMARY|verified|error' | tr '\n' ' ')"
