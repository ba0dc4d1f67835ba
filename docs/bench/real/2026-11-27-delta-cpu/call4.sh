cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
nvidia-smi --query-gpu=name --format=csv,noheader
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for w in 1000 2048; do [ -f g/grid$w.csr ] || dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
export OMP_NUM_THREADS=16
uptime
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/grid2048.csr
timeout 400 dist/host bench --preset real --graphs $G --algos auto,partition,delta-cpu \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q; echo "bench exit $?"
sed -n '/^| graph/,/^$/p' $OUT/real/summary.md
uptime
for k in "k18 -g 18" "u18 -u 18"; do set -- $k; gapbs/converter $2 $3 -k 16 -w -e g/$1.wel > /dev/null; dist/host convert g/$1.wel g/$1.csr > /dev/null; done
ours() { echo "$1 $G | $(timeout 60 variants/host-$1 --graph g/$G.csr --algo delta-cpu --device cpu --runs 9 --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed -e "s/(CPU, host timer; median of 9 runs after 3 warm-up, //" -e 's/verified: all [0-9]* distances equal the oracle.s/ok/' -e 's/iterations */it /' -e 's/solve */med /' | tr '\n' ' ')"; }
gap() { echo "gapbs $G Δ$1 | $(gapbs/sssp -f g/$G.wel -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
for rep in 1 2; do for G in k18 u18; do for d in 4 8 16 32; do gap $d; done; ours head; ours new; done; done
uptime
