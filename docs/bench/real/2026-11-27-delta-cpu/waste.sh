cd "$(dirname "$0")"
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
ours() { local tag=$1; shift; echo "$tag $G | $(env "$@" timeout 60 variants/host-w --graph g/$G.gr --algo delta-cpu --device cpu --runs 15 --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed -e "s/(CPU, host timer; median of 15 runs after 3 warm-up, //" -e 's/ min [0-9.]*, max [0-9.]*)//' -e 's/verified: all [0-9]* distances equal the oracle.s/ok/' -e 's/iterations */it /' -e 's/solve */med /' | tr '\n' ' ')"; }
gap() { echo "gapbs $G Δ$1 | $(OMP_NUM_THREADS=16 gapbs/sssp -f g/$G.gr -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
declare -A D=( [road-luxembourg-osm]="1600 3200" [road-BAY-pace]="400 800" [USA-road-d.NY]="20000 40000" [soc-Epinions1]="12 25" )
uptime; sleep 20
for rep in 1 2 3; do
for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do
  for d in ${D[$G]}; do gap $d; done
  ours A512 SSSP_DCPU_PT=512
  ours B1024w15-30 SSSP_DCPU_PT=1024 SSSP_DCPU_WLO=0.15 SSSP_DCPU_WHI=0.3
  ours C1024w20-40 SSSP_DCPU_PT=1024 SSSP_DCPU_WLO=0.2 SSSP_DCPU_WHI=0.4
  ours D768w20-40 SSSP_DCPU_PT=768 SSSP_DCPU_WLO=0.2 SSSP_DCPU_WHI=0.4
done
done
uptime
