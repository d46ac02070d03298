#!/usr/bin/env bash
# The release build, runtime image and run steps, shared by the Dockerfile and CI
# (scripts/image-check.sh) so that CI proves exactly what the image does.
#   scripts/release.sh build DIR          release build of statecast-demo, staged into DIR
#                                         (DIR/bin/statecast-demo, DIR/Public, DIR/release.sh)
#   scripts/release.sh runtime-packages   the Debian packages the staged binary needs
#   scripts/release.sh rootfs DIR         the runtime image's root file system in DIR, without
#                                         Docker: Debian bookworm (debootstrap, minbase, what
#                                         debian:bookworm-slim holds) plus install-runtime
#   scripts/release.sh install-runtime [ROOT]
#                                         apt-get installs the runtime packages into ROOT (/)
#   scripts/release.sh install-app DIR [ROOT]
#                                         the staged DIR as ROOT/app (ROOT: /), and the
#                                         unprivileged user statecast (uid and gid 10001)
#                                         who owns ROOT/app/data
#   scripts/release.sh run DIR [ARGS]     run the staged demo as the image does: by default on
#                                         0.0.0.0:8080 with DIR/Public and DIR/data; STATECAST_*
#                                         variables and extra ARGS win
#   scripts/release.sh health [PORT]      exit 0 if GET /healthz on 127.0.0.1:PORT answers 200
#                                         (PORT: $STATECAST_PORT, else 8080)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The image's Debian release, and the unprivileged user it runs as.
suite=bookworm
uid=10001

# in_root ROOT COMMAND...: runs COMMAND on ROOT's file system (chroot unless ROOT is /).
in_root() {
  local root=$1
  shift
  if [ "$root" = / ]; then "$@"; else chroot "$root" "$@"; fi
}

# The Debian mirror apt uses here (deb822 or one-line sources), else Debian's own.
debian_mirror() {
  local found
  found=$(grep -rhoE '^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)[a-z]+://[^[:space:]]+' \
    /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
    | grep -oE '[a-z]+://[^[:space:]]+' | grep -E '/debian/?$' | head -n 1 || true)
  echo "${found:-http://deb.debian.org/debian}"
}

case "${1:-}" in
  build)
    out=${2:?usage: release.sh build DIR}
    cd "$here/.."
    # The Swift runtime and Foundation are linked in: the runtime image has no toolchain.
    swift build -c release --static-swift-stdlib --product statecast-demo
    bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
    mkdir -p "$out/bin" "$out/data"
    cp "$bin/statecast-demo" "$out/bin/"
    rm -rf "$out/Public" && cp -R Public "$out/Public"
    cp "$here/release.sh" "$out/release.sh"
    echo "staged into $out"
    ;;
  runtime-packages)
    # libwebsockets-evlib-ev: the epoll event loop (libev); libsqlite3-0: durable stores.
    echo "libwebsockets17 libwebsockets-evlib-ev libssl3 libcap2 zlib1g libsqlite3-0 libstdc++6 ca-certificates"
    ;;
  rootfs)
    root=${2:?usage: release.sh rootfs DIR}
    mirror=${STATECAST_DEBIAN_MIRROR:-$(debian_mirror)}
    debootstrap --variant=minbase "$suite" "$root" "$mirror"
    "$0" install-runtime "$root"
    ;;
  install-runtime)
    root=${2:-/}
    if [ "$root" != / ]; then
      # apt inside the file system resolves names as this machine does, with /proc there.
      cp /etc/resolv.conf "$root/etc/resolv.conf"
      mount -t proc proc "$root/proc"
      trap 'umount "$root/proc"; rm -f "$root/etc/resolv.conf"' EXIT
    fi
    # shellcheck disable=SC2046 # one word per package
    in_root "$root" env DEBIAN_FRONTEND=noninteractive sh -c \
      'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"' \
      sh $("$0" runtime-packages)
    in_root "$root" apt-get clean
    rm -rf "$root"/var/lib/apt/lists/*
    ;;
  install-app)
    stage=${2:?usage: release.sh install-app DIR [ROOT]}
    root=${3:-/}
    mkdir -p "$root/app"
    cp -R "$stage/." "$root/app/"
    in_root "$root" groupadd --system --gid "$uid" statecast
    in_root "$root" useradd --system --create-home --uid "$uid" --gid "$uid" statecast
    in_root "$root" chown -R statecast:statecast /app/data
    ;;
  run)
    dir=${2:?usage: release.sh run DIR [ARGS]}
    shift 2
    # Defaults only: the environment (docker run -e STATECAST_PORT=...) and ARGS win.
    export STATECAST_HOST=${STATECAST_HOST:-0.0.0.0} STATECAST_PORT=${STATECAST_PORT:-8080}
    export STATECAST_PUBLIC=${STATECAST_PUBLIC:-$dir/Public} STATECAST_DATA=${STATECAST_DATA:-$dir/data}
    exec "$dir/bin/statecast-demo" "$@"
    ;;
  health)
    port=${2:-${STATECAST_PORT:-8080}}
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    head -n 1 <&3 | grep -q ' 200 '
    ;;
  *)
    sed -n '2,21p' "$0" >&2
    exit 2
    ;;
esac
