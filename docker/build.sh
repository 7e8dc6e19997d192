#!/usr/bin/env bash
# Builds pref-server and stages what the runtime image holds into OUT (default
# ./target/docker-stage): bin/pref-server, web/, config/ (the house profiles and docs/protocol.md
# are compiled in).
# The Dockerfile's build stage runs exactly this; CI runs it too (with
# PREF_BUILD_PROFILE=dev, reusing the test build) so the image's steps cannot rot unseen.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-target/docker-stage}"
PROFILE="${PREF_BUILD_PROFILE:-release}"
cargo build --locked --profile "$PROFILE" -p pref-server
case "$PROFILE" in
    dev) DIR=debug ;;
    *) DIR="$PROFILE" ;;
esac
TARGET="${CARGO_TARGET_DIR:-target}"
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/config"
cp "$TARGET/$DIR/pref-server" "$OUT/bin/pref-server"
cp -r web "$OUT/web"
# The image's settings: listen on every interface inside the container; the database URL,
# the node's own address and the lease come from the environment (compose.yml).
sed -e 's/^bind = .*/bind = "0.0.0.0:8080"/' \
    -e 's|^data_dir = .*|data_dir = "/var/lib/pref"|' \
    -e 's|^web_dir = .*|web_dir = "/opt/pref/web"|' \
    config/server.toml >"$OUT/config/server.toml"
grep -q '^bind = "0.0.0.0:8080"' "$OUT/config/server.toml"
grep -q '^web_dir = "/opt/pref/web"' "$OUT/config/server.toml"
test -x "$OUT/bin/pref-server" && test -f "$OUT/web/index.html"
# The staged binary must start on the staged settings (moved to a free loopback port and a
# scratch directory here) and print its link, as the container's command does.
SCRATCH="$(mktemp -d)"
PREF_CONFIG="$OUT/config/server.toml" PREF_BIND=127.0.0.1:0 PREF_DATA_DIR="$SCRATCH" \
    PREF_WEB_DIR="$OUT/web" PREF_LOG=warn "$OUT/bin/pref-server" >"$SCRATCH/out" 2>&1 &
PID=$!
for _ in $(seq 100); do
    grep -q "running: open http://" "$SCRATCH/out" && break
    sleep 0.1
done
kill "$PID"
wait "$PID" 2>/dev/null || true
grep -q "running: open http://" "$SCRATCH/out" || { cat "$SCRATCH/out" >&2; exit 1; }
rm -rf "$SCRATCH"
echo "staged in $OUT"
