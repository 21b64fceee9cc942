#!/usr/bin/env bash
# Runs tests again under another Node.js release, given as its exact version, in one of three scopes:
#
#   bash scripts/test-under-node.sh 24.21.0 runtime   (`pnpm test`; `pnpm test:full` under 22.23.3)
#   bash scripts/test-under-node.sh 24.21.0 rest      (`pnpm test:full`: what `runtime` leaves out)
#   bash scripts/test-under-node.sh 24.21.0 all       (both, one after the other)
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
# has just run them under the machine's Node.js (20 here). `rest` runs those others: the server's remaining
# files and every conformance file but the runtime ones and the docs ones (no server code: they check the
# built docs in a browser).
#
# That Node.js comes from the npm registry (the `node-<platform>-<arch>` package is the official binary), so
# nothing beyond npm is needed; it is kept under .cache/. The server picks the SQLite driver built for the
# release it runs on (apps/server/src/core/store/sqliteDriver.ts), so nothing is rebuilt. The conformance
# files run as under `pnpm test`: one warm server per test worker (packages/conformance/vitest.config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?usage: test-under-node.sh NODE_VERSION runtime|rest|all (for example 24.21.0 runtime)}
scope=${2:?usage: test-under-node.sh NODE_VERSION runtime|rest|all}
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
conformance_runtime=(server cliServerConfig repositoryFiles branches gitbeaker package)
conformance_runtime=("${conformance_runtime[@]/#/test/}")
conformance_runtime=("${conformance_runtime[@]/%/.test.ts}")
docs=(test/docs.browser.test.ts test/docs.samples.test.ts)

# vitest's --exclude takes globs: a folder's files, a file, or the files whose names start so.
excludes() {
  for path in "$@"; do
    case "$path" in
      */) echo "--exclude=${path}**" ;;
      *.ts) echo "--exclude=$path" ;;
      *) echo "--exclude=${path}*" ;;
    esac
  done
}

run_runtime() {
  pnpm --filter @collab/client test
  pnpm --filter @collab/server exec vitest run "${server_runtime[@]}"
  pnpm --filter @collab/conformance exec vitest run "${conformance_runtime[@]}"
}

run_rest() {
  # shellcheck disable=SC2046 # one argument per line of excludes
  pnpm --filter @collab/server exec vitest run $(excludes "${server_runtime[@]}")
  # shellcheck disable=SC2046
  pnpm --filter @collab/conformance exec vitest run $(excludes "${conformance_runtime[@]}" "${docs[@]}")
}

case "$scope" in
  runtime) run_runtime ;;
  rest) run_rest ;;
  all) run_runtime && run_rest ;;
  *)
    echo "unknown scope $scope (runtime, rest or all)" >&2
    exit 2
    ;;
esac
