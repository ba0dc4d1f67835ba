cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader
ls dist 2>/dev/null | head -2
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 5000 ./h_base --graph rome99.gr --algo partition --delta 5000 --runs 1 --warmup 0 --verify > $OUT/racecheck.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|verified|hazard" $OUT/racecheck.log | tail -5
grep -oE "__shared__ 0x[0-9a-f]+" $OUT/racecheck.log | sort | uniq -c | sort -rn | head -40
