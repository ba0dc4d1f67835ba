# Session 19 call 1: order across pieces (front band) A/B. h_final = 9cd906d kernels; h_front = + front band.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null; python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
S=$OUT/summary.txt
run() { # binary, graph, args...
  b=$1; gr=$2; shift 2
  timeout 60 ./$b --graph $gr --runs 10 --warmup 2 "$@" > $OUT/x.out 2> $OUT/x.err
  echo "== $b $(basename $gr) $* :: $(grep -E '^solve ' $OUT/x.out | cut -c14-30) $(grep -cE '^verified' $OUT/x.out)v $(grep -E '^layout|^algorithm' $OUT/x.out | grep -oE 'window [0-9.]+|[0-9]+ edge lanes|compact|no shortcuts|band of [0-9]+|^algorithm +[a-z-]+' | tr '\n' ' ')" >> $S
  grep -iE "error|panic" $OUT/x.err | head -3 >> $S
}
for g in g/del200k.csr g/road-BAY-pace.gr g/USA-road-d.NY.gr g/road-luxembourg-osm.gr g/g3d50.csr; do
  run h_final $g --algo auto --verify
  for band in 1 2 4 8 16; do run h_front $g --algo auto --front-band $band --verify; done
  run h_front $g --algo auto
done
# fixed settings on the mesh: compact pieces can't be forced; partition (breadth) with shortcuts at a few windows
for d in 8000 17000 34000 68000; do
  run h_final g/del200k.csr --algo partition --delta $d
  for band in 1 2 4; do run h_front g/del200k.csr --algo partition --delta $d --front-band $band; done
done
rm -f $OUT/x.out $OUT/x.err
cat $S
