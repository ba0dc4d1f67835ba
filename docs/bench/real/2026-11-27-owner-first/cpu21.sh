cd "$(dirname "$0")"
(make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for k in "k18 -g 18" "u18 -u 18"; do set -- $k; gapbs/converter $2 $3 -k 16 -w -e g/$1.wel > /dev/null; variants/host-owner convert g/$1.wel g/$1.csr > /dev/null; done
lscpu | grep -E "Model name|^CPU\(s\)"; uptime
ours() { echo "$1 $G | $(timeout 60 variants/host-$1 --graph $F --algo delta-cpu --device cpu --runs $R --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed -e "s/(CPU, host timer; median of $R runs after 3 warm-up, //" -e 's/verified: all [0-9]* distances equal the oracle.s/ok/' -e 's/iterations */it /' -e 's/solve */med /' | tr '\n' ' ')"; }
gap() { echo "gapbs $G Δ$1 | $(OMP_NUM_THREADS=16 gapbs/sssp -f $GF -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
declare -A D=( [road-luxembourg-osm]="1616 3231" [road-BAY-pace]="403 807" [USA-road-d.NY]="20693 41386" [soc-Epinions1]="12 25" [k18]="8 16" [u18]="4 8" )
for rep in 1 2 3; do
for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1 k18 u18; do
  case $G in k18|u18) F=g/$G.csr; GF=g/$G.wel; R=9 ;; *) F=g/$G.gr; GF=g/$G.gr; R=15 ;; esac
  for d in ${D[$G]}; do gap $d; done
  ours head
  ours owner
done
done
uptime
export OMP_NUM_THREADS=16
for i in 1 2; do
timeout 200 variants/host-owner bench --preset real --graphs g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr --algos delta-cpu --gapbs gapbs/sssp --reps 10 --out $OUT/bench$i -q; echo "bench exit $?"
sed -n '/^| graph/,/^$/p' $OUT/bench$i/summary.md
done
uptime
