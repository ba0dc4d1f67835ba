# Session 18 call 4: window x shortcuts x piece size sweep on the Delaunay 200k mesh with the phase build (h_phase: 2d2307a + phase.patch, env overrides).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p g
python3 mesh_graphs.py delaunay 200000 1 g/del200k.csr > /dev/null
python3 mesh_graphs.py grid3d 50 1 g/g3d50.csr > /dev/null
[ -f g/USA-road-d.NY.gr ] || zcat USA-road-d.NY.gr.gz > g/USA-road-d.NY.gr
run() { # label, graph, args...
  l=$1; gr=$2; shift 2
  timeout 60 ./h_phase --graph $gr --algo partition --runs 5 --warmup 1 "$@" > $OUT/$l.out 2> $OUT/$l.err
  echo "== $l: $* $(grep -E '^solve ' $OUT/$l.out | cut -c14-40) $(grep -oE '[0-9]+ shortcuts|no shortcuts' $OUT/$l.out) $(grep -oE '[0-9]+ pieces of at most [0-9]+' $OUT/$l.out)"
  grep STATS $OUT/$l.err | tail -8 | grep -E "worked|all:" ; grep STATS $OUT/$l.err | tail -7 | head -2 | cut -c1-200
}
export SSSP_GROWTH=compact SSSP_LANES=8
for d in 8000 17000 34000 68000; do run c-s-$d g/del200k.csr --delta $d --shortcuts always; done
for d in 4000 8000 17000 34000; do run c-n-$d g/del200k.csr --delta $d --shortcuts never; done
for c in 760 1516; do for s in always never; do run c-$s-cap$c g/del200k.csr --delta 34000 --shortcuts $s; SSSP_RCAP=$c run cap$c-$s g/del200k.csr --delta 34000 --shortcuts $s; done; done
SSSP_RCAP=1516 run cap1516-never-17k g/del200k.csr --delta 17000 --shortcuts never
SSSP_RCAP=1516 run cap1516-never-8k g/del200k.csr --delta 8000 --shortcuts never
SSSP_RCAP=760 run cap760-never-17k g/del200k.csr --delta 17000 --shortcuts never
SSSP_LANES=4 run ny-base g/USA-road-d.NY.gr --shortcuts always --delta 580046
SSSP_LANES=4 SSSP_RCAP=1300 run ny-cap1300 g/USA-road-d.NY.gr --shortcuts always --delta 580046
SSSP_LANES=8 run g3d-base g/g3d50.csr --shortcuts never --delta 51
SSSP_LANES=8 SSSP_RCAP=950 run g3d-cap950 g/g3d50.csr --shortcuts never --delta 51
