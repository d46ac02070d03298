#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and run Statecast.
#   scripts/setup.sh          what the server needs (libwebsockets, OpenSSL, pkg-config,
#                             SQLite for durable stores: GRDB links Debian's libsqlite3)
#   scripts/setup.sh --test   also what the tests need (Chromium, TypeScript, Python packages,
#                             PostgreSQL for scripts/postgres-throwaway.sh)
set -euo pipefail

packages=(libwebsockets-dev libssl-dev pkg-config openssl libsqlite3-dev)
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium python3-pip node-typescript postgresql)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "${1:-}" = "--test" ]; then
  if ! python3 -c 'import playwright, jsonpatch, websockets, pytest' 2>/dev/null; then
    # Debian's own python3 refuses pip outside a virtual environment (PEP 668).
    python3 -m pip install -q playwright jsonpatch websockets pytest \
      || python3 -m pip install -q --break-system-packages playwright jsonpatch websockets pytest
  fi
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "swift is at /opt/swift/usr/bin: add it to PATH" >&2
  else
    echo "Swift 6 is required: https://www.swift.org/install/linux/" >&2
  fi
  exit 1
fi
