cd /tmp
declare -A D=( [road-luxembourg-osm]="1616 3231" [road-BAY-pace]="403 807" [USA-road-d.NY]="20693 41386" [soc-Epinions1]="12 25" )
ours() { echo "$1 $G $(timeout 60 /tmp/host-$1 --graph $G.gr --algo delta-cpu --device cpu --runs 9 --warmup 2 2>&1 | grep -E '^solve' | awk '{print $2}')"; }
gap() { echo "gapbs $G d$1 $(OMP_NUM_THREADS=2 /tmp/gapbs2/sssp -f $G.gr -r 0 -n 9 -d $1 | awk '/Trial Time/ {print $3 * 1000}' | sort -n | sed -n 5p)"; }
for rep in 1 2 3; do for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do for d in ${D[$G]}; do gap $d; done; ours final; done; done
