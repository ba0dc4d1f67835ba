#!/usr/bin/env bash
# Builds the main binary and every test binary (release, no debug info) into
# dist/, with dist/run-tests.sh to run them all, GPU tests included, on a machine
# with a CUDA GPU and no Rust. Copy dist/ there (or carry it with the device tool).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
mkdir -p dist/tests
# Where cargo builds: $CARGO_TARGET_DIR if set, else target/.
target_dir="${CARGO_TARGET_DIR:-target}"
cargo build --release -p host
cp "$target_dir/release/host" dist/host
cargo test --release --workspace --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, shutil, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["profile"]["test"]:
        name = msg["target"]["name"]
        shutil.copy(msg["executable"], "dist/tests/" + name)
        print("dist/tests/" + name)
'
cat > dist/run-tests.sh <<'RUN'
#!/usr/bin/env bash
# Runs every test binary here, the ignored GPU tests included. Extra arguments go
# to each binary (e.g. a test name filter). Exit status: 0 only if all pass.
cd "$(dirname "$0")"
export SSSP_HOST_BIN="$PWD/host"
export SSSP_GRAPHS_DIR="$PWD/graphs"
status=0
for t in tests/*; do
    echo "== $t"
    "$t" --include-ignored "$@" || status=1
done
exit $status
RUN
chmod +x dist/run-tests.sh
# The graphs the tests read travel with them (SSSP_GRAPHS_DIR).
mkdir -p dist/graphs
cp graphs/rome99.gr graphs/sample.csr dist/graphs/
# Symbols are not needed there; stripped, dist fits the device tool's transfer.
if command -v strip > /dev/null; then
    strip dist/host dist/tests/*
else
    echo "strip not found: binaries keep their symbols" >&2
fi
du -sh dist
