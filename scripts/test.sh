#!/usr/bin/env bash
# `pnpm test`: every kind of check, for ten minutes at most on a quiet two-core machine. What waits more than
# it computes runs beside what computes:
#  1. the build, lint and typecheck in one turbo run (each package's lint and typecheck start once the builds
#     they need are done, beside the docs build), then biome;
#  2. the server's tests under the machine's Node.js, and beside them the client's tests under it and then
#     under Node.js 24 (most of their time is the packed-package test waiting on pnpm, npm and tsc); the
#     client's output is printed once they are done. They run before the conformance suite starts, since the
#     packed-package test rebuilds the client's dist/, which the suite imports;
#  3. the conformance suite under the machine's Node.js;
#  4. under Node.js 24 the server and conformance files of the runtime set (scripts/test-under-node.sh).
# The tests run through pnpm, not turbo: the builds are done, and two turbo runs at once would both restore
# the cached build outputs. A failed step stops the run, as `a && b` would; the exit code is that step's.
set -uo pipefail
cd "$(dirname "$0")/.."

client_log=$(mktemp)
trap 'rm -f "$client_log"' EXIT

turbo run build lint typecheck || exit
biome check . || exit

(pnpm --filter @collab/client test && bash scripts/test-under-node.sh 24.21.0 runtime-client) \
  >"$client_log" 2>&1 &
client=$!
pnpm --filter @collab/server test
server_status=$?
wait "$client"
client_status=$?
echo "test: the client's tests under the machine's Node.js and under Node.js 24.21.0 (run beside the server's)"
cat "$client_log"
[ "$server_status" -eq 0 ] || exit "$server_status"
[ "$client_status" -eq 0 ] || exit "$client_status"

pnpm --filter @collab/conformance test || exit
bash scripts/test-under-node.sh 24.21.0 runtime-servers
