#!/usr/bin/env bash
# The final measurement run on the H100 machine (device tool), kept so that
# docs/BENCHMARKS.md's "bench --preset real", "Python" (2026-11-24) and
# "delta-cpu against GAPBS" (2026-11-26) tables can be reproduced. Set up, on the build machine, a git-ignored folder
# devrun/ beside this repo's root holding: dist.tgz (`scripts/build-dist.sh`
# then `tar czf devrun/dist.tgz dist`), wheels/ (the wheel `maturin build
# --release --manifest-path python/Cargo.toml` writes), a copy of
# ../shared/baselines/gapbs, the shared graphs (*.gr.gz) and this script; carry
# devrun and run `bash devrun/device-run.sh`.
cd "$(dirname "$0")"
rm -rf dist && tar xzf dist.tgz
(cd dist && timeout 400 ./run-tests.sh > $OUT/tests.log 2>&1; echo "run-tests exit $?")
grep -E "^== |test result" $OUT/tests.log | paste - - | awk '{p+=$6; f+=$8} END {print "TOTAL passed", p, "failed", f, "binaries", NR}'
python3 -m pip install -q --no-index --no-deps --target /tmp/site wheels/*.whl && export PYTHONPATH=/tmp/site
(cd /tmp && timeout 200 python3 -m pytest -q -p no:cacheprovider $OLDPWD/../python/tests 2>&1 | tail -4)
mkdir -p g; for f in *.gr.gz; do zcat $f > g/${f%.gz}; done
timeout 120 python3 ../scripts/bench_vs_scipy.py --device gpu g/road-BAY-pace.gr g/road-luxembourg-osm.gr g/USA-road-d.NY.gr g/soc-Epinions1.gr
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
export OMP_NUM_THREADS=16
G=g/road-BAY-pace.gr,g/road-luxembourg-osm.gr,g/USA-road-d.NY.gr,g/soc-Epinions1.gr,g/grid1000.csr
timeout 200 dist/host bench --preset real --graphs $G --algos auto,near-far,partition,fast-crauser,delta-cpu \
    --gapbs gapbs/sssp --reps 10 --out $OUT/real -q
# delta-cpu at its default thread count and on 16, alternating with GAPBS (16
# threads, the Δ sweep of `bench --preset real`), three rounds.
for rep in 1 2 3; do
  for g in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do
    echo "round $rep $g default: $(dist/host --graph g/$g.gr --algo delta-cpu --device cpu --runs 15 --warmup 3 --verify | grep -E '^solve|^verified')"
    echo "round $rep $g 16 threads: $(RAYON_NUM_THREADS=16 dist/host --graph g/$g.gr --algo delta-cpu --device cpu --runs 15 --warmup 3 --verify | grep -E '^solve|^verified')"
    if [ $g = soc-Epinions1 ]; then ds="25 400 51669"; else ds="400 1600 3200 25000"; fi
    for d in $ds; do
      echo "round $rep $g GAPBS Δ $d trial ms: $(gapbs/sssp -f g/$g.gr -r 0 -n 9 -d $d | awk '/Trial Time/ {print $3 * 1000}' | sort -n | tr '\n' ' ')"
    done
  done
done
