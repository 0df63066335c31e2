// shop-mgmt is a file: link to the repository root (examples/package.json), outside this app: let Next's
// bundler and file tracing reach it.
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
