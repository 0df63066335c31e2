#!/usr/bin/env bash
# Checks the package as npm would publish it: attw and publint on the packed tarball, then a smoke test that
# installs the tarball into a fresh project and makes a real request with both import and require().
# Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) kB)"

npx --no-install attw "$tarball" --profile strict
npx --no-install publint run "$tarball" --strict

app="$work/app"
mkdir -p "$app"
cp scripts/smoke/smoke.mjs scripts/smoke/smoke.cjs scripts/smoke/server.mjs "$app/"
(
  cd "$app"
  printf '{ "name": "smoke-app", "private": true }\n' > package.json
  npm install --silent --no-audit --no-fund --prefer-offline "$tarball"
  node smoke.mjs
  node smoke.cjs
)
echo "check:package ok"
