# The runtime image's root file system without a Docker engine, shared by
# scripts/image-check.sh (one container) and scripts/compose-check.sh (two app
# containers): sourced, not run. Callers run from the repository's top folder, as root.
#   rootfs_mount ROOT SCRATCH      the image's file system at ROOT: the cached Debian plus
#                                  runtime packages (built on first use), with an overlay
#                                  in SCRATCH so that each "container" writes its own changes;
#                                  /proc mounted, as in a container
#   rootfs_install_app STAGE ROOT  the staged app and its user, as the Dockerfile installs them
#   rootfs_run ROOT [VAR=VALUE...] COMMAND...
#                                  execs COMMAND as the image's user, with nothing of this
#                                  machine's environment but VAR=VALUE: run it in the
#                                  background (then $! is COMMAND's own process, since chroot
#                                  and env exec too) or in a subshell
#   rootfs_wait_listening LOG PID  prints the port of the demo's "listening on" line in LOG
#   unmount_under DIR              unmounts every file system under DIR, deepest first
# The cache (STATECAST_ROOTFS_CACHE, default /var/cache/statecast-rootfs) holds one
# folder per package list, so a change to `release.sh runtime-packages` builds afresh.

rootfs_cache=${STATECAST_ROOTFS_CACHE:-/var/cache/statecast-rootfs}
rootfs_uid=10001

unmount_under() {
  findmnt -rn -o TARGET | awk -v dir="$1/" 'index($0 "/", dir) == 1' | sort -r | while read -r target; do
    umount "$target" || umount -l "$target"
  done
}

rootfs_mount() {
  local root=$1 scratch=$2 key
  # shellcheck disable=SC2046 # one line per package in the key
  key=$(printf '%s\n' bookworm minbase $(scripts/release.sh runtime-packages) | sha256sum | cut -c 1-16)
  mkdir -p "$rootfs_cache"
  # One builder at a time; a concurrent run waits and then finds the cache.
  (
    flock 9
    if [ -d "$rootfs_cache/$key" ]; then
      echo "root file system: cached ($rootfs_cache/$key)"
    else
      echo "root file system: debootstrap into $rootfs_cache/$key"
      building=$(mktemp -d "$rootfs_cache/.building.XXXXXX")
      trap 'unmount_under "$building"; rm -rf --one-file-system "$building"' EXIT
      scripts/release.sh rootfs "$building/rootfs"
      mv "$building/rootfs" "$rootfs_cache/$key"
    fi
  ) 9>"$rootfs_cache/.lock"
  # Writes go to an overlay on the cached tree (a copy where overlayfs is missing), so
  # that the cache stays as debootstrap left it.
  mkdir -p "$root" "$scratch/changes" "$scratch/overlay"
  if ! mount -t overlay overlay \
    -o "lowerdir=$rootfs_cache/$key,upperdir=$scratch/changes,workdir=$scratch/overlay" "$root" 2>/dev/null; then
    rmdir "$root"
    cp -a "$rootfs_cache/$key" "$root"
  fi
  mount -t proc proc "$root/proc"
}

rootfs_install_app() {
  local stage=$1 root=$2
  scripts/release.sh install-app "$stage" "$root"
  if chroot "$root" ldd /app/bin/statecast-demo | grep 'not found'; then
    echo "the runtime image lacks the libraries above: add their packages to release.sh runtime-packages" >&2
    return 1
  fi
}

rootfs_run() {
  local root=$1
  shift
  exec chroot --userspec="$rootfs_uid:$rootfs_uid" "$root" \
    env -i HOME=/home/statecast PATH=/usr/local/bin:/usr/bin:/bin "$@"
}

rootfs_wait_listening() {
  local log=$1 pid=$2 port=""
  for _ in $(seq 1 150); do
    port=$(sed -nE 's|^listening on https?://[^ ]*:([0-9]+)$|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "the demo did not start in the runtime image ($log):" >&2
    cat "$log" >&2
    return 1
  fi
  echo "$port"
}
