// Entry for Node, Bun and Deno: SHOP_URL and SHOP_KEY come from the environment the matrix sets.
import { runProbe } from './probe.mjs';

const env = globalThis.Deno ? globalThis.Deno.env.toObject() : globalThis.process.env;
const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${globalThis.process.version}`;
const passed = await runProbe({ url: env.SHOP_URL, key: env.SHOP_KEY });
console.log(`${runtime}: ${passed.join('; ')}`);
