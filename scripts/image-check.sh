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
cache=${STATECAST_ROOTFS_CACHE:-/var/cache/statecast-rootfs}
uid=10001
started=$(date +%s)

work=$(mktemp -d)
root=$work/rootfs
server=""

# Unmounts every file system mounted under $1, deepest first.
unmount_under() {
  findmnt -rn -o TARGET | awk -v dir="$1/" 'index($0 "/", dir) == 1' | sort -r | while read -r target; do
    umount "$target" || umount -l "$target"
  done
}

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
# shellcheck disable=SC2046 # one line per package in the key
key=$(printf '%s\n' bookworm minbase $(scripts/release.sh runtime-packages) | sha256sum | cut -c 1-16)
mkdir -p "$cache"
(
  flock 9
  if [ -d "$cache/$key" ]; then
    echo "root file system: cached ($cache/$key)"
  else
    echo "root file system: debootstrap into $cache/$key"
    building=$(mktemp -d "$cache/.building.XXXXXX")
    trap 'unmount_under "$building"; rm -rf --one-file-system "$building"' EXIT
    scripts/release.sh rootfs "$building/rootfs"
    mv "$building/rootfs" "$cache/$key"
  fi
) 9>"$cache/.lock"
# The run writes to an overlay on the cached tree (a copy where overlayfs is missing),
# so that the cache stays as debootstrap left it.
mkdir -p "$root" "$work/changes" "$work/overlay"
if ! mount -t overlay overlay -o "lowerdir=$cache/$key,upperdir=$work/changes,workdir=$work/overlay" "$root" \
  2>/dev/null; then
  rmdir "$root"
  cp -a "$cache/$key" "$root"
fi
echo "root file system ready after $(($(date +%s) - started)) s"

# 2. The app and its user, as the Dockerfile installs them.
scripts/release.sh install-app "$stage" "$root"
if chroot "$root" ldd /app/bin/statecast-demo | grep 'not found'; then
  echo "the runtime image lacks the libraries above: add their packages to release.sh runtime-packages" >&2
  exit 1
fi

# 3. The image's CMD, as its user, with nothing of this machine's environment.
mount -t proc proc "$root/proc"
in_image=(chroot --userspec="$uid:$uid" "$root" env -i HOME=/home/statecast PATH=/usr/local/bin:/usr/bin:/bin)
# chroot, env and release.sh each exec the next, so $! is the demo's own process.
"${in_image[@]}" /app/release.sh run /app --port 0 > "$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -nE 's|^listening on http://[^ ]*:([0-9]+)$|\1|p' "$work/server.log")
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "the demo did not start in the runtime image:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

# 4. Docker's HEALTHCHECK command, inside the image; the protocol, from outside.
"${in_image[@]}" /app/release.sh health "$port"
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
