#!/usr/bin/env bash
# The release build and run steps, shared by the Dockerfile and CI so that CI proves
# exactly what the image does.
#   scripts/release.sh build DIR        release build of statecast-demo, staged into DIR
#                                       (DIR/bin/statecast-demo, DIR/Public, DIR/release.sh)
#   scripts/release.sh runtime-packages the Debian packages the staged binary needs
#   scripts/release.sh run DIR [ARGS]   run the staged demo as the image does
#                                       (0.0.0.0:8080, DIR/Public, DIR/data), extra ARGS appended
#   scripts/release.sh health [PORT]    exit 0 if GET /healthz on 127.0.0.1:PORT (8080) answers 200
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

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
    echo "libwebsockets17 libssl3 libcap2 zlib1g libstdc++6 ca-certificates"
    ;;
  run)
    dir=${2:?usage: release.sh run DIR [ARGS]}
    shift 2
    exec "$dir/bin/statecast-demo" --host 0.0.0.0 --port 8080 --public "$dir/Public" --data "$dir/data" "$@"
    ;;
  health)
    port=${2:-8080}
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    head -n 1 <&3 | grep -q ' 200 '
    ;;
  *)
    sed -n '2,11p' "$0" >&2
    exit 2
    ;;
esac
