# Session 20 call 9: the timeline with each piece's busy time (working rounds' globaltimer spans) added (measuring build of 5ccd726).
cd "$(dirname "$0")/.."
for f in h_*.gz; do zcat $f > ${f%.gz}; chmod +x ${f%.gz}; done
mkdir -p g
[ -f g/del200k.csr ] || python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
[ -f g/USA-road-d.NY.gr ] || zcat USA-road-d.NY.gr.gz > g/USA-road-d.NY.gr
r() { # label env... -- args
  echo "=== $*" >> $OUT/stats.txt
  local e=$1; shift
  env $e SSSP_STATS=1 ./h_stats "$@" --runs 3 --warmup 1 --verify > $OUT/x.out 2> $OUT/x.err
  grep -E "^solve|^verified|^layout" $OUT/x.out >> $OUT/stats.txt
  # last solve's stats block
  awk '/^STATS k /{buf=""} /^STATS/{buf=buf $0 "\n"} END{printf "%s", buf}' $OUT/x.err >> $OUT/stats.txt
}
D="--graph g/del200k.csr --algo partition"
r "SSSP_GROWTH=compact SSSP_LANES=8 SSSP_HOPS=2 SSSP_EF=1" $D --source 0 --delta 34060
r "SSSP_GROWTH=compact SSSP_LANES=8 SSSP_HOPS=2 SSSP_EF=0" $D --source 0 --delta 34060
r "SSSP_LANES=4 SSSP_HOPS=2 SSSP_EF=1" --graph g/USA-road-d.NY.gr --algo partition --source 1 --delta 579904
cat $OUT/stats.txt
