#!/usr/bin/env bash
# Runs every test of Statecast on a fresh Debian machine: installs what is missing,
# then the Swift tests (core, JSON engine, examples, server over real sockets; the
# server's once more under ThreadSanitizer), the browser runtime's unit tests
# (node --test) and its JSDoc types (tsc), the JSON Patch cross-check with Python's
# jsonpatch, the protocol tests of an independent Python client, the demo server's
# command line and logs, several demo processes sharing rooms through a throwaway
# PostgreSQL server (scripts/postgres-throwaway.sh, started by the tests), and the
# real-browser tests (Playwright driving Debian's Chromium); then Examples/TodoMVC, an
# app of its own built in release, its feature's tests and its browser tests.
# Screenshots go to artifacts/screenshots.
# The last line sums up every runner: "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh --test || exit 1

logs=$(mktemp -d)
passed=0
failed=0
broken=()

# run NAME COMMAND...: runs one suite, keeps its output for counting.
run() {
  local name=$1
  shift
  echo
  echo "=== $name: $*"
  if ! "$@" 2>&1 | tee "$logs/$name.log"; then
    broken+=("$name")
  fi
}

# Formatting, checked against the repository's .swift-format (a warning fails the run).
run swift-format swift format lint --strict --configuration .swift-format -r Sources Tests Package.swift \
  Examples/TodoMVC/Sources Examples/TodoMVC/Tests Examples/TodoMVC/Package.swift
run swift-build swift build --build-tests
# Zero warnings in the project's own sources (dependencies' warnings are theirs): on a
# fresh clone every file is compiled here, so a new warning fails the run.
own_warnings=$(grep -E "^$PWD/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$logs/swift-build.log" | sort -u)
if [ -n "$own_warnings" ]; then
  echo "$own_warnings"
  broken+=("swift-build ($(wc -l <<<"$own_warnings") compiler warnings in Sources/ or Tests/)")
fi
run swift-test swift test --skip-build
# The server's tests (transport, protocol, sessions, the Swift client, over real
# sockets) once more under ThreadSanitizer: the service thread, connection tasks and
# store actors share state only through locks and queues, and this proves it.
run swift-tsan swift test --sanitize=thread --scratch-path .build-tsan --filter StatecastServerTests
if grep -q "WARNING: ThreadSanitizer" "$logs/swift-tsan.log"; then broken+=("swift-tsan (data race reported)"); fi
# Every benchmark section still runs (sizes and waits cut down: not a measurement).
run bench "$(swift build --show-bin-path)/statecast-bench" --quick
# The DocC catalogs of Statecast, StatecastTesting and StatecastServer, built with
# swift-docc-plugin from the debug build above; a DocC warning fails the run.
run docs scripts/docs-check.sh
run node node --test Tests/JS/
# The runtime's JSDoc types (jsconfig.json): any error fails the run.
run tsc tsc --noEmit -p jsconfig.json
export STATECAST_BIN_DIR=$(swift build --show-bin-path)
run python python3 -m pytest -q -p no:cacheprovider Tests/Interop Tests/Protocol Tests/FirstPaint Tests/Operations Tests/Durability Tests/Cluster Tests/Browser Tests/JS/browser
# TodoMVC, built as an app is: its own package (Examples/TodoMVC, release, a build of
# its own that shares nothing with the one above), its feature's tests, and its
# browser tests against its `todomvc` binary.
run todomvc-build bash -c "cd Examples/TodoMVC && swift build -c release --build-tests"
run todomvc-swift bash -c "cd Examples/TodoMVC && swift test -c release --skip-build"
run todomvc-browser env TODOMVC_BIN_DIR="$(cd Examples/TodoMVC && swift build -c release --show-bin-path)" \
  python3 -m pytest -q -p no:cacheprovider Examples/TodoMVC/Tests/Browser

# Swift Testing: "Test run with N tests in M suites passed|failed ... with K issues".
cat "$logs/todomvc-swift.log" >>"$logs/swift-test.log" 2>/dev/null
swift_total=0
for count in $(sed -nE 's/.*Test run with ([0-9]+) tests? in .*/\1/p' "$logs/swift-test.log"); do
  swift_total=$((swift_total + count))
done
swift_failed=$(grep -E 'Test .* failed after' "$logs/swift-test.log" | grep -vc 'Test run with')
# XCTest, should a suite use it: "Executed N tests, with M failures".
xctest_line=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$logs/swift-test.log" | tail -n 1)
swift_total=$(( ${swift_total:-0} + $(sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p' <<<"$xctest_line" | grep . || echo 0) ))
swift_failed=$(( swift_failed + $(sed -nE 's/.*with ([0-9]+) failures?.*/\1/p' <<<"$xctest_line" | grep . || echo 0) ))
# node --test: "# pass N" / "# fail N".
node_passed=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$logs/node.log" | tail -n 1)
node_failed=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$logs/node.log" | tail -n 1)
# pytest: "N passed, M failed, K errors in Ts", once per run.
py_passed=0
py_failed=0
for log in "$logs/python.log" "$logs/todomvc-browser.log"; do
  py_line=$(grep -E '[0-9]+ (passed|failed|error)' "$log" 2>/dev/null | tail -n 1)
  py_passed=$((py_passed + $(grep -oE '[0-9]+ passed' <<<"$py_line" | grep -oE '^[0-9]+' || echo 0)))
  for count in $(grep -oE '[0-9]+ (failed|errors?)' <<<"$py_line" | grep -oE '^[0-9]+'); do
    py_failed=$((py_failed + count))
  done
done

passed=$(( ${swift_total:-0} - ${swift_failed:-0} + ${node_passed:-0} + ${py_passed:-0} ))
failed=$(( ${swift_failed:-0} + ${node_failed:-0} + ${py_failed:-0} ))
if [ ${#broken[@]} -gt 0 ] && [ "$failed" -eq 0 ]; then failed=${#broken[@]}; fi

echo
echo "swift: $(( ${swift_total:-0} - ${swift_failed:-0} )) passed, ${swift_failed:-0} failed"
echo "node: ${node_passed:-0} passed, ${node_failed:-0} failed"
echo "python: ${py_passed:-0} passed, ${py_failed:-0} failed"
[ ${#broken[@]} -gt 0 ] && echo "failing suites: ${broken[*]}"
echo "tests: $passed passed, $failed failed"
[ ${#broken[@]} -eq 0 ]
