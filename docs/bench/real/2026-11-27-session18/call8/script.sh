# Session 18 call 8: gpu_partition + gpu_solver on c7a4faa; ncu source counters (per-SASS stall samples) of one partition solve on luxembourg and the Delaunay mesh.
cd "$(dirname "$0")/.."
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
[ -f g/del200k.csr ] || python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
export SSSP_HOST_BIN=$PWD/h_rank SSSP_GRAPHS_DIR=$PWD/graphs
for t in gpu_partition gpu_solver; do timeout 120 ./$t --include-ignored > $OUT/$t.log 2>&1; echo "$t exit $?"; grep "test result" $OUT/$t.log; done
for c in "lux g/road-luxembourg-osm.gr --delta 9173 --shortcuts always" "del g/del200k.csr --delta 4000 --shortcuts never"; do
  set -- $c; l=$1; shift
  timeout 150 ncu --section SourceCounters --section WarpStateStats -k regex:partition_solve --launch-skip 4 --launch-count 1 -f -o $OUT/$l ./h_rank --graph "$@" --algo partition --runs 1 --warmup 0 > $OUT/ncu-$l.log 2>&1; echo "ncu $l exit $?"
  ncu -i $OUT/$l.ncu-rep --page source --csv --print-source sass > $OUT/$l-sass.csv 2>&1
  ncu -i $OUT/$l.ncu-rep --page details --section WarpStateStats > $OUT/$l-warpstate.txt 2>&1
  rm -f $OUT/$l.ncu-rep; ls -la $OUT/$l-sass.csv; head -c 600 $OUT/$l-sass.csv; echo
done
