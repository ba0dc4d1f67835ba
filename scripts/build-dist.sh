#!/usr/bin/env bash
# Builds the main binary and every test binary (release, no debug info) into
# dist/, with dist/run-tests.sh to run them all, GPU tests included, on a machine
# with a CUDA GPU and no Rust. Copy dist/ there (or carry it with the device tool).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
mkdir -p dist/tests
cargo build --release -p host
cp target/release/host dist/host
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
status=0
for t in tests/*; do
    echo "== $t"
    "$t" --include-ignored "$@" || status=1
done
exit $status
RUN
chmod +x dist/run-tests.sh
du -sh dist
