cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
uptime
cli() { echo "$1 $G | $(timeout 60 dist/host --graph g/$G.gr --algo delta-cpu $2 --verify 2>&1 | grep -E '^(solve|error)' | sed -e 's/(CPU, host timer; //' | tr '\n' ' ')"; }
for rep in 1 2 3; do
for G in road-luxembourg-osm road-BAY-pace; do
  d=3231; [ $G = road-BAY-pace ] && d=807
  echo "gapbs $G Δ$d | $(OMP_NUM_THREADS=16 gapbs/sssp -f g/$G.gr -r 0 -n 9 -d $d | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"
  cli cpu15w3 "--device cpu --runs 15 --warmup 3"
  cli cpu10w1 "--device cpu --runs 10 --warmup 1"
  cli auto15w3 "--device auto --runs 15 --warmup 3"
  echo "bench $G | $(timeout 60 dist/host bench --preset real --graphs g/$G.gr --algos delta-cpu --reps 10 --out /tmp/b$rep -q 2>&1 | grep '| delta-cpu' | cut -d'|' -f8)"
done
done
uptime
