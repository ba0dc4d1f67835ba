# Call 3 (H100): h_base = 1b722a6, h_q = 50b1af8 (queued loop launches).
cd "$(dirname "$0")"
make -C gapbs -j16 sssp converter > gapbs.log 2>&1
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
./h_base gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
gapbs/converter -g 20 -k 16 -w -e g/kron20.wel > /dev/null && ./h_base convert g/kron20.wel g/kron20.csr
G=g/soc-Epinions1.gr,g/road-BAY-pace.gr,g/USA-road-d.NY.gr,g/grid1000.csr,g/kron20.csr
for r in 1 2; do for h in base q; do
  timeout 120 ./h_$h bench --preset real --graphs $G --algos near-far,fast-crauser,auto --reps 10 --out $OUT/$h$r -q > $OUT/$h$r.log 2>&1
done; done
export OMP_NUM_THREADS=16
while [ $(cut -d. -f1 /proc/uptime) -lt 240 ]; do sleep 5; done
timeout 150 ./h_q bench --preset real --graphs g/soc-Epinions1.gr,g/kron20.csr --algos auto,near-far --gapbs gapbs/sssp --reps 10 --out $OUT/gapbs -q > $OUT/gapbs.log 2>&1
