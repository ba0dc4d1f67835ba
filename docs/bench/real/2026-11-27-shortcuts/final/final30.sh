cd "$(dirname "$0")"



[ -d dist ] || tar xzf dist.tgz
[ -x gapbs/sssp ] || (make -C gapbs -j16 sssp converter > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
for w in 1000 2048; do [ -f g/grid$w.csr ] || dist/host gen --kind grid --width $w --height $w --seed 1 --output g/grid$w.csr > /dev/null; done
export OMP_NUM_THREADS=16
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr,g/grid2048.csr
time (timeout 300 dist/host bench --preset real --graphs $G --algos auto,partition,delta-cpu \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q; echo "bench exit $?")
rm -f $OUT/real/*.wel
sed -n '/^| graph/,/^$/p' $OUT/real/summary.md; uptime
