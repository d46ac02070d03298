#!/usr/bin/env bash
# Runs every test of Statecast on a fresh Debian machine: installs what is missing,
# then the Swift tests (core, JSON engine, examples, server over real sockets), the
# browser runtime's unit tests (node --test), the JSON Patch cross-check with Python's
# jsonpatch, the protocol tests of an independent Python client, and the real-browser
# tests (Playwright driving Debian's Chromium). Screenshots go to artifacts/screenshots.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh --test || exit 1

passed=0
failed=0
failures=()
step() {
  local name=$1
  shift
  echo
  echo "=== $name: $*"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
  fi
}

step "swift build" swift build --build-tests
step "swift test" swift test --skip-build
step "browser runtime (node)" node --test Tests/JS/
export STATECAST_BIN_DIR=$(swift build --show-bin-path)
step "python (interop, protocol, browser)" python3 -m pytest -q Tests/Interop Tests/Protocol Tests/Browser

echo
if [ "$failed" -eq 0 ]; then
  echo "test suites: $passed passed, 0 failed"
else
  echo "failed suites: ${failures[*]}"
  echo "test suites: $passed passed, $failed failed"
  exit 1
fi
