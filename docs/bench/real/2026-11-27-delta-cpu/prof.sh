cd "$(dirname "$0")"
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
uptime
for rep in 1 2; do
for G in road-luxembourg-osm road-BAY-pace USA-road-d.NY soc-Epinions1; do
  echo "== $G"
  SSSP_DCPU_PROF=1 variants/host-prof --graph g/$G.gr --algo delta-cpu --device cpu --runs 12 --warmup 3 2>&1 | grep -E "PROF|^solve" | tail -7
done
done
