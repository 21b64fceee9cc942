#!/usr/bin/env bash
# Runs tests again under another Node.js release, given as its exact version, in one of two scopes:
#
#   bash scripts/test-under-node.sh 24.21.0 runtime   (`pnpm test`)
#   bash scripts/test-under-node.sh 24.21.0 all       (`pnpm test:full`; 22.23.3 runtime there too)
#
# `runtime` runs what can differ from one Node.js release to another: the client's tests (fetch, streams),
# the server's (the SQLite driver, worker processes, git, the job queue), and of the conformance suite the
# files that exercise those through a running server: restarts on an existing data directory and the
# server's configuration (server, cliServerConfig), git through the API (repositoryFiles, branches), a real
# client library (gitbeaker) and the packed package (package). The other contract files run the same
# JavaScript in the test worker and send the same requests; `pnpm test` has just run them under the
# machine's Node.js (20 here). `all` runs the client, the server and every conformance file but the docs
# ones (no server code: they check the built docs in a browser).
#
# That Node.js comes from the npm registry (the `node-<platform>-<arch>` package is the official binary), so
# nothing beyond npm is needed; it is kept under .cache/. The server picks the SQLite driver built for the
# release it runs on (apps/server/src/core/store/sqliteDriver.ts), so nothing is rebuilt. The conformance
# files run as under `pnpm test`: one warm server per test worker (packages/conformance/vitest.config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?usage: test-under-node.sh NODE_VERSION runtime|all (for example 24.21.0 runtime)}
scope=${2:?usage: test-under-node.sh NODE_VERSION runtime|all}
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
pnpm --filter @collab/client test
pnpm --filter @collab/server test
case "$scope" in
  runtime)
    files=(server cliServerConfig repositoryFiles branches gitbeaker package)
    pnpm --filter @collab/conformance exec vitest run "${files[@]/#/test/}"
    ;;
  all)
    pnpm --filter @collab/conformance exec vitest run --exclude=test/docs.browser.test.ts \
      --exclude=test/docs.samples.test.ts
    ;;
  *)
    echo "unknown scope $scope (runtime or all)" >&2
    exit 2
    ;;
esac
