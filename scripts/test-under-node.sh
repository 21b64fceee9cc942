#!/usr/bin/env bash
# Runs the client, server and conformance tests again under another Node.js release, given as its exact
# version (`pnpm test` runs it with 24 LTS, the current release users run, after running everything under the
# machine's Node.js, 20 here): `bash scripts/test-under-node.sh 22.23.3` checks 22 the same way.
#
# That Node.js comes from the npm registry (the `node-<platform>-<arch>` package is the official binary with
# its headers), so nothing beyond npm is needed. better-sqlite3 is a native module built for one Node.js ABI:
# it is built once more from its own sources against that release's headers (cached under .cache/), and that
# build takes the place of the installed one for the duration of the run only (restored on exit, even on
# failure or Ctrl-C). The conformance suite runs here against one shared server, the way someone checks
# another server; the runs on fresh servers happen under the machine's Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

version=${1:?usage: test-under-node.sh NODE_VERSION (for example 24.21.0)}
platform=$(node -p 'process.platform === "win32" ? "win" : process.platform')
arch=$(node -p 'process.arch')
cache="$root/.cache/node-$version-$platform-$arch"

if [ ! -x "$cache/bin/node" ]; then
  echo "Fetching Node.js $version (node-$platform-$arch from the npm registry)"
  download=$(mktemp -d)
  (cd "$download" && npm pack --silent "node-$platform-$arch@$version" >/dev/null && tar xzf node-*.tgz)
  rm -rf "$cache" && mkdir -p "$(dirname "$cache")" && mv "$download/package" "$cache"
  rm -rf "$download"
fi
other_node="$cache/bin/node"

# The installed better-sqlite3 and a build of it for that Node.js, made from a copy of its package.
sqlite_package=$(readlink -f apps/server/node_modules/better-sqlite3)
installed="$sqlite_package/build/Release/better_sqlite3.node"
abi=$("$other_node" -p 'process.versions.modules')
built="$cache/better-sqlite3-abi$abi.node"
if [ ! -f "$built" ]; then
  echo "Building better-sqlite3 for Node.js $version (ABI $abi) from its sources"
  work=$(mktemp -d)
  cp -r "$sqlite_package/." "$work/" && rm -rf "$work/build"
  node_gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  (cd "$work" && "$other_node" "$node_gyp" rebuild --release --nodedir="$cache" -j 2 >"$work.log" 2>&1) ||
    { cat "$work.log"; exit 1; }
  cp "$work/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
  rm -rf "$work" "$work.log"
fi

# Swap by renaming (never writing through the file: pnpm may share it with its store), and swap back on exit.
saved="$installed.before-node-$version"
restore() { if [ -f "$saved" ]; then mv -f "$saved" "$installed"; fi; }
restore # a run that was killed outright left the swap in place
trap restore EXIT
trap 'exit 130' INT TERM
mv "$installed" "$saved"
cp "$built" "$installed.tmp" && mv "$installed.tmp" "$installed"

export PATH="$cache/bin:$PATH"
echo "Testing under $(node --version)"
pnpm --filter @collab/client test
pnpm --filter @collab/server test
pnpm --filter @collab/conformance test:shared-server
