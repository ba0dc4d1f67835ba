cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
[ -x gapbs/converter ] || (make -C gapbs -j16 converter > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for k in "k21 -g 21" "u21 -u 21"; do set -- $k; [ -f g/$1.csr ] || { gapbs/converter $2 $3 -k 16 -w -e g/$1.wel > /dev/null; dist/host convert g/$1.wel g/$1.csr > /dev/null; rm g/$1.wel; }; done
[ -f g/papers20.csr ] || dist/host gen -n 1Mi --seed 11 --output g/papers20.csr > /dev/null
[ -f g/grid1000.csr ] || dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
exec > >(tee $OUT/nf25.txt) 2>&1
t() { echo "$1 $G $2 $3 | $($4 --graph $F --algo $2 $S $3 --runs 10 --warmup 2 --verify 2>&1 | grep -E '^(algorithm|iterations|solve|verified|error)' | sed -e 's/(GPU, CUDA events; median of 10 runs after 2 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' -e 's/algorithm *//' | tr '\n' ' ')"; }
for rep in 1 2; do
for G in soc-Epinions1.gr k21.csr u21.csr papers20.csr grid1000.csr road-BAY-pace.gr road-luxembourg-osm.gr; do
  F=g/$G; S=""; case $G in *.csr) S="--source 0";; esac
  for b in old new; do
    case $b in old) H=variants/host-old;; new) H=dist/host;; esac
    t $b near-far "" $H
    case $G in soc*) for a in "--limit 50" "--limit 100" "--limit 200" "--target 5000"; do t $b near-far "$a" $H; done; t $b auto "" $H; t $b auto "--limit 100" $H;; k21*) t $b auto "" $H;; esac
  done
done
done
