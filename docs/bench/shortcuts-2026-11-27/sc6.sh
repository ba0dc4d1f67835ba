cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
H=dist/host
mkdir -p g; for w in 1000 2048; do [ -f g/grid$w.csr ] || $H gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
exec > >(tee $OUT/sc6.txt) 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
t() { echo "$1 | $(timeout 120 $H --graph $2 --source $3 --algo $4 --runs 10 --warmup 2 --verify $5 2>&1 | grep -E '^(solve|verified|error|layout|prepare)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/layout.*pieces/pieces/' -e 's/(upload.*needed)//' | tr '\n' ' ' | cut -c1-330)"; }
for r in 1 2; do
for a in "grid1000.csr 0" "grid2048.csr 0"; do set -- $a
  t "$1 default" g/$1 $2 partition ""
  t "$1 always" g/$1 $2 partition "--shortcuts always"
done; done
