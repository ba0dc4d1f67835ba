# Session 19 call 8: the 2048² and 4096² grids (paged partition), 1a5b56a (h_base, chain queues of 32) against f11523d (h_new, 8), two rounds.
cd "$(dirname "$0")/.."
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g
./h_new gen --kind grid --width 2048 --height 2048 --seed 1 --output g/grid2048.csr > /dev/null
./h_new gen --kind grid --width 4096 --height 4096 --seed 1 --output g/grid4096.csr > /dev/null
S=$OUT/summary.txt
for r in 1 2; do for g in grid2048 grid4096; do for b in h_base h_new; do
  v=""; [ $r = 1 ] && v=--verify
  timeout 100 ./$b --graph g/$g.csr --source 0 --algo auto --runs 10 --warmup 2 $v > $OUT/x.out 2>&1
  echo "$r $g $b $(grep -E '^solve ' $OUT/x.out | cut -c14-40) $(grep -cE '^verified' $OUT/x.out)v $(grep -E '^layout' $OUT/x.out | grep -oE 'at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|no shortcuts|[0-9]+ shortcuts' | tr '\n' ' ')" >> $S
done; done; done
rm -f $OUT/x.out; cat $S
