cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
mkdir -p g; for f in soc-Epinions1.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
exec > >(tee $OUT/nf26.txt) 2>&1
G=g/soc-Epinions1.gr
t() { echo "$1 $2 | $(env $3 $4 --graph $G --algo near-far $2 --runs 20 --warmup 3 2>&1 | grep -E '^(solve|error)' | sed -e 's/(GPU, CUDA events; median of 20 runs after 3 warm-up, //' | tr '\n' ' ')"; }
for rep in 1 2 3 4 5; do
for a in "" "--limit 50" "--limit 100" "--limit 200" "--limit 300"; do
  t old "$a" X=1 variants/host-old
  t new "$a" X=1 dist/host
  t hyb "$a" SSSP_COMPACT_LIMITS=1527,44 dist/host
done
done
