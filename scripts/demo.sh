#!/usr/bin/env bash
# Runs the demo server on a fresh Debian machine: installs what is missing
# (libwebsockets, OpenSSL), builds it in release mode and serves the demos at
# http://127.0.0.1:8080. Extra arguments go to statecast-demo (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh
swift build -c release --product statecast-demo
exec "$(swift build -c release --show-bin-path)/statecast-demo" --public Public "$@"
