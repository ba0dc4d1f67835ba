cd "$(dirname "$0")"
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
ours() { local tag=$1; shift; echo "$tag $G | $(env "$@" timeout 60 variants/host-pt --graph g/$G.gr --algo delta-cpu --device cpu --runs 15 --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed -e "s/(CPU, host timer; median of 15 runs after 3 warm-up, //" -e 's/verified: all [0-9]* distances equal the oracle.s/ok/' -e 's/iterations */it /' -e 's/solve */med /' | tr '\n' ' ')"; }
gap() { echo "gapbs $G Δ$1 | $(OMP_NUM_THREADS=16 gapbs/sssp -f g/$G.gr -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
declare -A D=( [road-luxembourg-osm]="1600 3200" [road-BAY-pace]="400 800" [USA-road-d.NY]="20000 40000" [soc-Epinions1]="12 25" )
uptime; sleep 30; uptime
for rep in 1 2 3; do
for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do
  for d in ${D[$G]}; do gap $d; done
  ours pt512 SSSP_DCPU_PT=512
  ours pt768 SSSP_DCPU_PT=768
  ours pt1024 SSSP_DCPU_PT=1024
  ours pt256 SSSP_DCPU_PT=256
done
done
uptime
