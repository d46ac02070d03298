#!/usr/bin/env bash
# The runtime image, proven without a Docker engine: builds the image's root file system
# with the Dockerfile's own steps (scripts/release.sh rootfs, install-runtime,
# install-app), runs the staged demo in it as the image's unprivileged user (chroot,
# uid and gid 10001, a clean environment), then checks it as Docker would and as a
# client would: the HEALTHCHECK command inside the image, a wire-protocol smoke test
# (scripts/protocol-smoke.py) from outside, and a clean stop on SIGTERM. A runtime
# library missing from `release.sh runtime-packages` fails here.
#   scripts/image-check.sh STAGE    STAGE from `scripts/release.sh build STAGE`
# Needs root, debootstrap, and Python's websockets (scripts/setup.sh --test). The root
# file system (Debian plus the runtime packages) is kept between runs under
# /var/cache/statecast-rootfs (STATECAST_ROOTFS_CACHE), one folder per package list.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(cd "${1:?usage: image-check.sh STAGE}" && pwd)
started=$(date +%s)
# shellcheck source=scripts/lib/rootfs.sh
. scripts/lib/rootfs.sh

work=$(mktemp -d)
root=$work/rootfs
server=""

cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -KILL "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  unmount_under "$work"
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# 1. The root file system, from the cache when this package list was built before.
rootfs_mount "$root" "$work"
echo "root file system ready after $(($(date +%s) - started)) s"

# 2. The app and its user, as the Dockerfile installs them.
rootfs_install_app "$stage" "$root"

# 3. The image's CMD, as its user, with nothing of this machine's environment.
rootfs_run "$root" /app/release.sh run /app --port 0 > "$work/server.log" 2>&1 &
server=$!
port=$(rootfs_wait_listening "$work/server.log" "$server")

# 4. Docker's HEALTHCHECK command, inside the image; the protocol, from outside.
(rootfs_run "$root" /app/release.sh health "$port")
echo "health check: /healthz answers 200"
python3 scripts/protocol-smoke.py "$port"

# 5. `docker stop`: SIGTERM, a graceful shutdown, exit 0.
kill -TERM "$server"
code=0
wait "$server" || code=$?
server=""
if [ "$code" -ne 0 ] || ! grep -q '^stopped$' "$work/server.log"; then
  echo "the demo did not stop cleanly (exit $code):" >&2
  cat "$work/server.log" >&2
  exit 1
fi
echo "runtime image: healthy, speaks the protocol, stopped cleanly ($(($(date +%s) - started)) s)"
