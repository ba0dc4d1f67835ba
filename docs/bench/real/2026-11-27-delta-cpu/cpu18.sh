cd "$(dirname "$0")"
(make -C gapbs -j16 sssp > gapbs.log 2>&1; echo "gapbs built: $?")
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
lscpu | grep -E "Model name|^CPU\(s\)"
ours() { local tag=$1; shift; echo "$tag $G | $(env "$@" timeout 60 variants/host-ad --graph g/$G.gr --algo delta-cpu --device cpu --runs 15 --warmup 3 --verify 2>&1 | grep -E '^(iterations|solve|verified|error|mismatch)' | sed -e 's/(CPU, host timer; median of 15 runs after 3 warm-up, //' -e 's/verified: all [0-9]* distances equal the oracle.s/ok/' -e 's/iterations */it /' -e 's/solve */med /' | tr '\n' ' ')"; }
gap() { echo "gapbs $G Δ$1 | $(OMP_NUM_THREADS=16 gapbs/sssp -f g/$G.gr -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
declare -A D=( [road-luxembourg-osm]="800 1600 3200" [road-BAY-pace]="400 800 1600" [USA-road-d.NY]="20000 40000 80000" [soc-Epinions1]="12 25 50" )
uptime; sleep 5; uptime
for rep in 1 2 3 4; do
for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do
  for d in ${D[$G]}; do gap $d; done
  ours scan SSSP_DCPU_PT=0 SSSP_DCPU_SCAN=1
  ours fixed SSSP_DCPU_PT=0
  ours inreg SSSP_DCPU_PT=0 SSSP_DCPU_INREGION=1
  ours ms256 SSSP_DCPU_PT=256 SSSP_DCPU_START=ms
  ours ms512 SSSP_DCPU_PT=512 SSSP_DCPU_START=ms
done
done
uptime
