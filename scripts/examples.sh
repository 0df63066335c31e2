#!/usr/bin/env bash
# The framework recipes of examples/ (Express, Fastify, Koa, Hono on Node and Workers, NestJS, Next.js, AWS
# Lambda, node:http): installed from examples/package-lock.json (shop-mgmt is a file: link to this
# repository's built package), type-checked, the Next.js app built, then each driven over HTTP by
# examples/harness/drive.ts. Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/../examples"

t=$SECONDS
npm ci --no-audit --no-fund --loglevel=error
echo "examples: npm ci $((SECONDS - t))s" && t=$SECONDS
npm run --silent typecheck
echo "examples: typecheck $((SECONDS - t))s" && t=$SECONDS
NEXT_TELEMETRY_DISABLED=1 npm run --silent build:next >/dev/null
echo "examples: next build $((SECONDS - t))s" && t=$SECONDS
npm run --silent drive
echo "examples: drive $((SECONDS - t))s"
