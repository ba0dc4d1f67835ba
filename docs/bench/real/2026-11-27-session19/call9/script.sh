# Session 19 call 9: the 4096² grid: h_base (1a5b56a, 32 slots), h_new (f11523d, 8 slots, smaller shared area: pieces of 1340), h_s8pad (8 slots used of 32 stored: pieces of 1313).
cd "$(dirname "$0")/.."
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g
./h_new gen --kind grid --width 4096 --height 4096 --seed 1 --output g/grid4096.csr > /dev/null
S=$OUT/summary.txt
for r in 1 2; do for b in h_base h_new h_s8pad; do
  v=""; [ $r = 1 ] && [ $b = h_s8pad ] && v=--verify
  timeout 60 ./$b --graph g/grid4096.csr --source 0 --algo auto --runs 10 --warmup 2 $v > $OUT/x.out 2>&1
  echo "$r $b $(grep -E '^solve ' $OUT/x.out | cut -c14-40) $(grep -cE '^verified' $OUT/x.out)v $(grep -E '^layout' $OUT/x.out | grep -oE 'at most [0-9]+|window [0-9]+|[0-9]+ edge lanes' | tr '\n' ' ')" >> $S
done; done
rm -f $OUT/x.out; cat $S
