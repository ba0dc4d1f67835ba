# Session 20 call 5: entries first chosen in the trial (h_new = dist/host) against ec72f14 (h_base), two interleaved rounds;
# then the full GPU suite, racecheck and memcheck on the new build; GAPBS and graphs built for call 6.
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf dist; tar xzf devrun/dist.tgz
for f in devrun/h_*.gz; do b=$(basename $f .gz); zcat $f > $b; chmod +x $b; done
mkdir -p g; for f in devrun/*.gr.gz; do b=$(basename $f .gz); [ -f g/$b ] || zcat $f > g/$b; done
(python3 devrun/mesh_graphs.py delaunay 200000 1 g/del200k.csr; python3 devrun/mesh_graphs.py delaunay 1000000 2 g/del1m.csr
 python3 devrun/mesh_graphs.py grid3d 50 1 g/g3d50.csr; python3 devrun/mesh_graphs.py grid3d 100 2 g/g3d100.csr
 python3 devrun/mesh_graphs.py delaunay 20000 3 g/del20k.csr
 dist/host gen --kind grid --width 40 --height 40 --seed 1 --output g/grid40.csr
 dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr) > $OUT/gen.log 2>&1
S=$OUT/summary.txt
R=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/del200k.csr,g/g3d50.csr
P=g/del1m.csr,g/grid1000.csr,g/g3d100.csr
b() { # binary graphs label
  timeout 200 ./$1 bench --preset real --graphs $2 --algos auto --reps 10 --out $OUT/ab -q > $OUT/ab.log 2>&1
  echo "== $1 $3" >> $S; grep -E "^\| [a-zA-Z]" $OUT/ab.log | grep -v "graph |" | awk -F'|' '{print $2,$5,$8,$12}' >> $S
  grep -E "^- .*auto \(" $OUT/ab.log | grep -oE "^- [^,]*|paged on [0-9]+|at most [0-9]+|window [0-9]+|[0-9]+ edge lanes|chains of [0-9]+ hops|entries (not )?first[^)]*\)?|compact pieces|no shortcuts" | tr '\n' ' ' >> $S; echo >> $S
}
for r in 1 2; do
  for h in h_base h_new; do b $h $R res$r; done
  for h in h_base h_new; do b $h $P paged$r; done
done
rm -rf $OUT/ab $OUT/ab.log
cat $S
(make -C devrun/gapbs -j8 sssp > $OUT/gapbs-make.log 2>&1; rm -rf gapbs-built; cp -r devrun/gapbs gapbs-built) &
timeout 330 dist/run-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "test result" $OUT/suite.log | awk '{p+=$4; f+=$6; i+=$8} END {print "passed",p,"failed",f,"ignored",i, NR, "binaries"}'
grep -E "FAILED|panicked" $OUT/suite.log | head
wait
S="compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 2000"
timeout 40 $S dist/host --graph devrun/graphs/rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/race-rome99.log 2>&1; echo "rome99 $?"
timeout 40 $S dist/host --graph g/grid40.csr --algo partition-paged --runs 1 --warmup 0 --verify > $OUT/race-grid40-paged.log 2>&1; echo "grid40 $?"
timeout 100 $S dist/host --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/race-del20k.log 2>&1; echo "del20k $?"
timeout 40 compute-sanitizer --tool memcheck dist/host --graph g/del20k.csr --algo partition --runs 1 --warmup 0 --verify > $OUT/memcheck-del20k.log 2>&1; echo "memcheck $?"
for f in $OUT/race-*.log $OUT/memcheck-*.log; do echo "== $(basename $f)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|verified|^layout" $f | cut -c1-400; done
gzip $OUT/suite.log
cut -d. -f1 /proc/uptime
