cd "$(dirname "$0")"
[ -d dist ] || tar xzf dist.tgz
mkdir -p g; for f in *.gr.gz; do [ -f g/${f%.gz} ] || zcat $f > g/${f%.gz}; done
[ -f g/grid1000.csr ] || dist/host gen --kind grid --width 1000 --height 1000 --seed 1 --output g/grid1000.csr > /dev/null
exec > >(tee $OUT/ov27.txt) 2>&1
lscpu | grep -E "^CPU\(s\)"
for rep in 1 2; do
for G in road-luxembourg-osm.gr USA-road-d.NY.gr road-BAY-pace.gr; do timeout 120 variants/overlay_study g/$G; done
done
timeout 200 variants/overlay_study g/grid1000.csr 1322
