#!/usr/bin/env bash
# Builds the DocC documentation of Statecast, StatecastTesting and StatecastServer with
# swiftlang/swift-docc-plugin, and fails on any DocC warning (an unresolved symbol link,
# a missing article). The plugin is a dependency only when STATECAST_DOCS is set, so the
# ordinary build neither resolves nor builds it; the symbol graphs come from the
# ordinary debug build (run after it, it rebuilds next to nothing). Output: .build/docs/<Target>.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export STATECAST_DOCS=1

mkdir -p .build/docs
for target in Statecast StatecastTesting StatecastServer; do
  echo "=== docs: $target"
  log=$(mktemp)
  swift package --allow-writing-to-directory .build/docs \
    generate-documentation --target "$target" --output-path ".build/docs/$target" \
    --warnings-as-errors 2>&1 | tee "$log"
  if grep -qE "^(warning|error):| warning: " "$log"; then
    echo "docs: $target has warnings"
    exit 1
  fi
done
echo "docs: no warnings"
