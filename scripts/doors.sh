#!/usr/bin/env bash
# The doors benchmark: for each graph file, the wall time of the calls a user
# makes, next to GAPBS and scipy in the same run, on a machine with a CUDA GPU.
#
#   scripts/doors.sh HOST GAPBS_SSSP GRAPH.gr...
#
# HOST is the `host` binary, GAPBS_SSSP GAPBS's `sssp` (built with
# `make -C gapbs sssp`); python3 must import sssp_gpu, numpy and scipy (run
# from anywhere but python/). Text `.gr` files (uncompressed, so that both
# programs read the same bytes). Per graph it prints:
# - one source from the CLI, the whole process: `host --graph G` (certificate
#   on) and with --no-certificate, median of 5, next to GAPBS `sssp -n 1` at
#   Δ 1024, 8192 and 65536, median of 5 each;
# - 256 random sources from the CLI (`--sources-file`): the library's batch
#   (solves, copies, certificate and summaries; the CLI prints it) per source,
#   each solve's GPU time (median), the preparation, with the certificate and
#   without;
# - Python (scripts/python_doors.py): the one-off `dijkstra` next to scipy's,
#   a prepared `Graph`'s repeated one-source calls and 256 sources;
# - the index: `host preprocess`, 1,024 trees from the CLI (summarized, and
#   written as a binary file), `--within` for 1,024 sources and for every
#   vertex (`--all-sources`, the whole process), and from Python
#   (scripts/index_doors.py) 256 trees into numpy (a fresh array and a
#   reused one), `within` and `nearest`.
set -uo pipefail
host=$1
gapbs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wall() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
sources() { python3 -c "import random; random.seed($2); print('\n'.join(str(random.randint(1, $1)) for _ in range($3)))"; }
field() { grep -E "$1" "$2" | head -1; }

for f in "$@"; do
    g=$(basename "$f" .gr)
    n=$(grep -m1 "^p" "$f" | awk '{print $3}')
    echo "## $g ($n vertices)"
    # Warm the page cache and the driver's files.
    "$host" --graph "$f" > /dev/null 2>&1
    "$gapbs" -f "$f" -n 1 > /dev/null 2>&1
    for flag in "" "--no-certificate"; do
        echo "cli one-off ${flag:-(certificate on)}: $(for i in 1 2 3 4 5; do wall "$host" --graph "$f" $flag; done | median) s"
    done
    for d in 1024 8192 65536; do
        echo "gapbs one-off -d $d: $(for i in 1 2 3 4 5; do wall "$gapbs" -f "$f" -n 1 -d $d; done | median) s"
    done
    sources "$n" 7 256 > "$work/256.txt"
    for flag in "" "--no-certificate"; do
        log="$work/256$flag.log"
        "$host" --graph "$f" --sources-file "$work/256.txt" $flag > "$log" 2>&1
        solve=$(grep -E '^source ' "$log" | awk '{for (i = 1; i <= NF; i++) if ($i == "solve") print $(i + 1)}' | median)
        echo "cli 256 sources ${flag:-(certificate on)}: $(field '^solves|rror' "$log"); solve median $solve ms; $(field '^prepare' "$log")"
    done
    python3 "$here/python_doors.py" "$f"
    "$host" preprocess --graph "$f" --output "$work/$g.ch" > "$work/pre.log" 2>&1
    echo "preprocess: $(field 'arcs|rror' "$work/pre.log")"
    sources "$n" 9 1024 > "$work/1k.txt"
    for out in "" "--output $work/trees.bin --output-format bin"; do
        "$host" --graph "$f" --index "$work/$g.ch" --sources-file "$work/1k.txt" $out > "$work/idx.log" 2>&1
        echo "index 1024 trees ${out:+into a binary file}: $(field '^trees|rror' "$work/idx.log")"
    done
    "$host" --graph "$f" --index "$work/$g.ch" --sources-file "$work/1k.txt" --within 20000 > "$work/within.log" 2>&1
    echo "index --within 1024 sources: $(field '^within|rror' "$work/within.log")"
    echo "index --within every vertex (--all-sources), the process: $(wall "$host" --graph "$f" --index "$work/$g.ch" --within 20000 --all-sources) s"
    python3 "$here/index_doors.py" "$f"
done
