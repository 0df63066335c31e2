#!/usr/bin/env bash
# Checks the package as npm would publish it: attw and publint on the packed tarball, then tests in a fresh
# project that installed the tarball: a real request with both import and require(), one error class per
# package under every subpath of package.json's exports (test/package/identity.*), declarations that need
# neither msw nor @types/node (test/package/types-*.ts, skipLibCheck off), a CommonJS TypeScript consumer
# (test/package/types-cjs.cts, module node16), shop-mgmt/testing bundled by
# esbuild for browsers and Workers (test/package/bundle.mjs), and the README's and guides' relative links
# resolving inside the package (test/package/links.mjs), the inbox entries without their optional drivers
# (test/package/inbox.mjs), shop-mgmt/otel with the OpenTelemetry SDK (test/package/otel.mjs), and the
# `shop-mgmt` bin's help, and the surface bounds (root names, size, no source maps). Run after `npm run build`
# (it packs that build: --ignore-scripts skips the prepack rebuild).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tarball="$work/$(npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)"
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) kB)"

# The root entry's names and the package's size, bounded (scripts/check-package-surface.mjs).
node scripts/check-package-surface.mjs --check

npx --no-install attw "$tarball" --profile strict
npx --no-install publint run "$tarball" --strict

app="$work/app"
mkdir -p "$app"
cp scripts/smoke/smoke.mjs scripts/smoke/smoke.cjs scripts/smoke/server.mjs test/package/* "$app/"
(
  cd "$app"
  printf '{ "name": "smoke-app", "private": true }\n' > package.json
  npm install --silent --no-audit --no-fund --prefer-offline "$tarball"
  # Before msw is there: the testing types must not need it (nor Node's).
  "$root/node_modules/.bin/tsc" -p tsconfig.no-msw.json
  echo "types without msw: ok"
  # A CommonJS TypeScript consumer (module node16, skipLibCheck off) compiles against dist/*.d.cts.
  "$root/node_modules/.bin/tsc" -p tsconfig.cjs.json
  echo "types for a CommonJS consumer: ok"
  # The optional peer and Node's types, as a project using shop-mgmt/testing/msw has them.
  ln -s "$root/node_modules/msw" node_modules/msw
  mkdir -p node_modules/@types && ln -s "$root/node_modules/@types/node" node_modules/@types/node
  # shop-mgmt/otel's optional peer and the SDK a partner brings (identity.mjs imports every subpath).
  mkdir -p node_modules/@opentelemetry
  for pkg in api sdk-trace-base sdk-metrics; do
    ln -s "$root/node_modules/@opentelemetry/$pkg" "node_modules/@opentelemetry/$pkg"
  done
  "$root/node_modules/.bin/tsc" -p tsconfig.msw.json
  echo "types with msw: ok"
  node links.mjs
  node smoke.mjs
  node smoke.cjs
  node identity.mjs
  node identity.cjs
  node inbox.mjs
  node otel.mjs
  ESBUILD="$root/node_modules/esbuild" node bundle.mjs
  # The bin as npx finds it in an installed package: it starts, and every command has its help.
  for command in sandbox listen trigger replay sync; do
    ./node_modules/.bin/shop-mgmt "$command" --help | grep -q 'EXAMPLES' || { echo "shop-mgmt $command --help has no EXAMPLES"; exit 1; }
  done
  echo "bin: ok"
)
echo "check:package ok"
