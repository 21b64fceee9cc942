#!/usr/bin/env bash
# `pnpm test:full`: what `pnpm test` leaves out to stay within ten minutes, for CI to run after it.
#  - the exhaustive volumes under the machine's Node.js: every spelling of every boolean parameter
#    (parameterReading), 120 wrong inputs per operation instead of 40 (negative) and the long fuzz
#    (cliFuzz), with COLLAB_CONFORMANCE_FULL=1;
#  - document 2's contract files on fresh servers of their own (issue 18 asks for them on a fresh server and
#    on a shared one; `pnpm test` runs them on the warm, shared server of their test worker);
#  - every client, server and conformance test under Node.js 24, and the runtime-dependent ones under 22.
set -euo pipefail
cd "$(dirname "$0")/.."

COLLAB_CONFORMANCE_FULL=1 pnpm --filter @collab/conformance exec vitest run test/parameterReading.test.ts \
  test/negative.test.ts \
  test/cliFuzz.test.ts
fresh=(notes snippets epics groupLabels todos notificationSettings)
COLLAB_CONFORMANCE_FRESH_SERVERS=1 pnpm --filter @collab/conformance exec vitest run "${fresh[@]/#/test/}"
bash scripts/test-under-node.sh 24.21.0 all
bash scripts/test-under-node.sh 22.23.3 runtime
