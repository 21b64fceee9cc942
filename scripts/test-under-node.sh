#!/usr/bin/env bash
# Runs tests again under another Node.js release, given as its exact version, in one of these scopes:
#
#   bash scripts/test-under-node.sh 24.21.0 runtime          (`pnpm test:full` under 22.23.3)
#   bash scripts/test-under-node.sh 24.21.0 server-suite     (`pnpm test:full` under 24, on PostgreSQL)
#   bash scripts/test-under-node.sh 24.21.0 contract-suite   (the same, but the files of postgres-contract)
#   bash scripts/test-under-node.sh 24.21.0 postgres-contract (`pnpm test` under 24, on PostgreSQL)
#
# `runtime` is `runtime-packages` and `runtime-servers`. `runtime-packages` is what mostly waits on pnpm,
# npm and tsc: the client's tests (its packed-package test) and the conformance package's packing test (the
# tool packed, installed and run); `runtime-servers` is `runtime-server`, the server's files of the set, and
# `runtime-contract`, the conformance files of the set, which go through running servers. `pnpm test`
# (scripts/test.sh) runs the first beside the server's tests and the second after them; in place of the third
# it runs `postgres-contract` beside the contract suite: the contract files of every area and those of the
# runtime set on PostgreSQL, so that one pass runs them under 24 and on PostgreSQL (`pnpm test:full` runs the
# third under 22).
#
# `runtime` runs what can differ from one Node.js release to another: the client's tests (fetch, streams);
# of the server's, its packing and those of the SQLite driver (core/store and what loads the fixtures), git
# (core/git, branches, storage moves, deletions), worker and other processes (main.*, config, the
# move-storage command), the job queue, outgoing requests (hook deliveries, integrations) and streams
# (archives, uploads); and of
# the conformance suite the files that exercise those through a running server: restarts on an existing
# data directory and the server's configuration (server, cliServerConfig), git through the API
# (repositoryFiles, branches), a real client library (gitbeaker) and the packed package (package). The other
# files run the same JavaScript (rules, parsers, the HTTP areas) and send the same requests; `pnpm test`
# has just run them under the machine's Node.js (20 here). `server-suite` runs every file of the server's
# tests, `contract-suite` every file of the contract suite but those of `postgres-contract` and the docs ones
# (no server code: they check the built docs in a browser): `pnpm test:full` runs them on PostgreSQL and
# `pnpm test` runs `postgres-contract`, so that one pass runs each test under 24 and on PostgreSQL.
#
# `fetch` only fetches that Node.js: `pnpm test` does it beside its build, so that two scopes it runs at once
# do not fetch it at the same time.
#
# That Node.js comes from the npm registry (the `node-<platform>-<arch>` package is the official binary), so
# nothing beyond npm is needed; it is kept under .cache/. The server picks the SQLite driver built for the
# release it runs on (apps/server/src/core/store/sqliteDriver.ts), so nothing is rebuilt. The conformance
# files run as under `pnpm test`: one warm server per test worker (packages/conformance/vitest.config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

usage='test-under-node.sh NODE_VERSION fetch|runtime|runtime-packages|runtime-server|runtime-contract|runtime-servers|server-suite|contract-suite|postgres-contract'
version=${1:?usage: $usage (for example 24.21.0 runtime)}
scope=${2:?usage: $usage}
platform=$(node -p 'process.platform === "win32" ? "win" : process.platform')
arch=$(node -p 'process.arch')
cache="$(pwd)/.cache/node-$version-$platform-$arch"

if [ ! -x "$cache/bin/node" ]; then
  echo "Fetching Node.js $version (node-$platform-$arch from the npm registry)"
  download=$(mktemp -d)
  (cd "$download" && npm pack --silent "node-$platform-$arch@$version" >/dev/null && tar xzf node-*.tgz)
  rm -rf "$cache" && mkdir -p "$(dirname "$cache")" && mv "$download/package" "$cache"
  rm -rf "$download"
fi

export PATH="$cache/bin:$PATH"
echo "Testing under Node.js $(node --version) ($scope)"

# The runtime set, as paths (a folder ends with /) under apps/server and packages/conformance.
server_runtime=(src/core/store/ src/core/git/ src/core/jobs/ src/main. src/config.test.ts src/fixtures.test.ts
  src/package.test.ts
  src/areas/branches/ src/areas/storageMoves/ src/areas/projects/deletion.test.ts
  src/areas/projects/uploads.test.ts src/areas/projectHooks/delivery.test.ts
  src/areas/integrations/firing.test.ts src/areas/projectImportExport/archive.test.ts)
conformance_servers=(server cliServerConfig repositoryFiles branches gitbeaker)
conformance_servers=("${conformance_servers[@]/#/test/}")
conformance_servers=("${conformance_servers[@]/%/.test.ts}")
conformance_packing=(test/package.test.ts)
docs=(docs.browser docs.samples)
# The conformance files that are no area's contract: the walks of every operation (what the HTTP layer
# reads, refuses and answers before and around any handler), the command-line tool and its reports, the
# spec and the docs alone. `postgres-contract` leaves them out but for those of the runtime set.
across_areas=(negative parameterReading validRequests contentType nullBody tokenCarriers carriers cliFuzz
  cliFuzzFaults cliRunFaults cliProxy cliReport cliOptions curl audit-restart spec specLinks
  responseValidator audit-spec package toolOutside "${docs[@]}")

# The conformance files but those named (test/NAME.test.ts), as vitest filters: a project's own `exclude`
# (vitest.config.ts) takes the place of a --exclude given on the command line, so the files are named instead.
conformance_files_but() {
  for file in packages/conformance/test/*.test.ts; do
    local name
    name=$(basename "$file" .test.ts)
    [[ " $* " == *" $name "* ]] || echo "test/$name.test.ts"
  done
}

# Each function chains its commands with &&: `set -e` does not apply inside a function called as part of
# `a && b`, as `runtime` calls them.
run_runtime_packages() {
  pnpm --filter @collab/client test &&
    # It starts servers of its own: the `packing` project (packages/conformance/vitest.config.ts), no warm one.
    pnpm --filter @collab/conformance exec vitest run --project packing "${conformance_packing[@]}"
}

run_runtime_server() {
  pnpm --filter @collab/server exec vitest run "${server_runtime[@]}"
}

run_runtime_contract() {
  pnpm --filter @collab/conformance exec vitest run "${conformance_servers[@]}"
}

run_server_suite() {
  pnpm --filter @collab/server exec vitest run
}

# The names of the files postgres-contract runs, one a line.
postgres_contract_files() {
  conformance_files_but "${across_areas[@]}" | sed 's|^test/||; s|\.test\.ts$||'
}

run_postgres_contract() {
  # shellcheck disable=SC2046 # one argument per line
  COLLAB_TEST_DATABASE=postgres pnpm --filter @collab/conformance exec vitest run \
    $(conformance_files_but "${across_areas[@]}")
}

run_contract_suite() {
  # shellcheck disable=SC2046 # one argument per line
  pnpm --filter @collab/conformance exec vitest run $(conformance_files_but $(postgres_contract_files) "${docs[@]}")
}

case "$scope" in
  fetch) ;;
  runtime) run_runtime_packages && run_runtime_server && run_runtime_contract ;;
  runtime-packages) run_runtime_packages ;;
  runtime-server) run_runtime_server ;;
  runtime-contract) run_runtime_contract ;;
  runtime-servers) run_runtime_server && run_runtime_contract ;;
  server-suite) run_server_suite ;;
  contract-suite) run_contract_suite ;;
  postgres-contract) run_postgres_contract ;;
  *)
    echo "unknown scope $scope ($usage)" >&2
    exit 2
    ;;
esac
