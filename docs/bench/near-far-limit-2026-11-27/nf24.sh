cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
[ -x gapbs/converter ] || (make -C gapbs -j16 converter > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for k in "k21 -g 21" "u21 -u 21"; do set -- $k; [ -f g/$1.csr ] || { gapbs/converter $2 $3 -k 16 -w -e g/$1.wel > /dev/null; dist/host convert g/$1.wel g/$1.csr > /dev/null; rm g/$1.wel; }; done
[ -f g/papers20.csr ] || dist/host gen -n 1Mi --seed 11 --output g/papers20.csr > /dev/null
[ -f g/grid1000.csr ] || dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
t() { echo "$1 $G $3 | $(env $1 dist/host --graph $F --algo near-far $2 --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(iterations|solve|verified|error)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' | tr '\n' ' ')"; }
for rep in 1 2; do
for G in soc-Epinions1.gr k21.csr u21.csr papers20.csr grid1000.csr road-BAY-pace.gr; do
  F=g/$G; S=""; case $G in *.csr) S="--source 0";; esac
  for env in X=1 SSSP_COMPACT_LIMITS=1,1; do t $env "$S" ""; done
  case $G in soc*) for env in X=1 SSSP_COMPACT_LIMITS=1,1; do t $env "$S --limit 100" "lim100"; done;; esac
done
done
