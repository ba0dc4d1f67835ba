cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
mkdir -p g; for f in soc-Epinions1.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
G=g/soc-Epinions1.gr
t() { echo "$1 lim=$2 | $(env $1 dist/host --graph $G --algo near-far $3 --runs 15 --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error)' | sed -e 's/(CUDA events; median of 15 runs after 3 warm-up, //' -e 's/verified: all [0-9]* distances.*/ok/' | tr '\n' ' ')"; }
for rep in 1 2; do
for env in X=1 SSSP_COMPACT_LIMITS=100000000,1 SSSP_COMPACT_LIMITS=1,1; do
  t $env none ""
  for l in 50 100 200 300; do t $env $l "--limit $l"; done
done
done
for l in none 100; do
  a=""; [ $l = none ] || a="--limit $l"
  echo "== ncu launches lim=$l"
  ncu --csv --metrics gpu__time_duration.sum dist/host --graph $G --algo near-far $a --runs 1 --warmup 0 2>/dev/null | grep -v "^==" | awk -F'","' 'NR>1 {print $5, $NF}' | sed 's/"//g' | awk '{k=$1; c[k]++; s[k]+=$NF} END {for (k in c) print k, c[k], s[k]}'
done
