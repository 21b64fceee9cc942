#!/usr/bin/env bash
# `pnpm test:full`: what `pnpm test` leaves out to stay within ten minutes, for CI to run after it.
#  - the exhaustive volumes under the machine's Node.js: every spelling of every boolean parameter
#    (parameterReading), 120 wrong inputs per operation instead of 40 (negative) and the long fuzz
#    (cliFuzz), with COLLAB_CONFORMANCE_FULL=1;
#  - document 2's contract files on fresh servers of their own (issue 18 asks for them on a fresh server and
#    on a shared one; `pnpm test` runs them on the warm, shared server of their test worker);
#  - under Node.js 24 every client, server and conformance test that `pnpm test`'s Node.js 24 run (the
#    runtime set) left out, and the runtime set under 22;
#  - the server's tests and the whole contract suite on PostgreSQL (COLLAB_TEST_DATABASE=postgres: each run
#    starts its own PostgreSQL from the embedded-postgres package), two instances on one database included.
# Every step runs even when one before it failed, so that one run shows every failure; the exit code is
# non-zero when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
step() {
  local name=$1
  shift
  echo "test:full: $name ($(date -u +%H:%M:%S), $(uptime | sed 's/.*load/load/'))"
  "$@" || failed+=("$name")
}

step 'exhaustive volumes' env COLLAB_CONFORMANCE_FULL=1 pnpm --filter @collab/conformance exec vitest run \
  test/parameterReading.test.ts test/negative.test.ts test/cliFuzz.test.ts
fresh=(notes snippets epics groupLabels todos notificationSettings)
step 'fresh servers' env COLLAB_CONFORMANCE_FRESH_SERVERS=1 pnpm --filter @collab/conformance exec vitest run \
  "${fresh[@]/#/test/}"
step 'Node.js 24, the rest' bash scripts/test-under-node.sh 24.21.0 rest
step 'Node.js 22, the runtime set' bash scripts/test-under-node.sh 22.23.3 runtime
step 'PostgreSQL, the server' env COLLAB_TEST_DATABASE=postgres pnpm --filter @collab/server test
step 'PostgreSQL, the contract suite' env COLLAB_TEST_DATABASE=postgres pnpm --filter @collab/conformance test

echo "test:full: done ($(date -u +%H:%M:%S))"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test:full: failed: ${failed[*]}" >&2
  exit 1
fi
